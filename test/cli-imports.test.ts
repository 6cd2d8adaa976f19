// What a command loads is what it uses: `byhand call https://…` runs the client and the host, not the toolboxes, the
// server SDK, zod or a model provider's SDK (the packages issue measured all four loaded), and no npm package at all. The command runs from its
// bundle (packages/byhand/bundle-bin.mjs), so a toolbox shows as its code in a loaded chunk, not as a file.

import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { bin } from './support/cli.js';
import { fixtureHandler, serve } from './fixtures/sdk-server.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The real binary with every module it resolves recorded (support/record-imports.mjs): its stdout, the URLs, those
 * of the bundle in dist/bin/, and the text of those.
 */
async function loadedBy(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; loaded: string[]; own: string[]; code: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'byhand-imports-'));
  try {
    const log = join(scratch, 'imports.log');
    const { stdout } = await run(process.execPath, ['--import', './test/support/record-imports.mjs', bin, ...args], {
      cwd: root,
      env: { ...process.env, BYHAND_IMPORT_LOG: log, HOME: scratch, ...env },
      timeout: 30_000,
    });
    const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const own = loaded.filter((url) => url.includes('/packages/byhand/dist/bin/'));
    return { stdout, loaded, own, code: own.map((url) => readFileSync(new URL(url), 'utf8')).join('\n') };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

test('byhand call https://… loads neither the toolboxes nor the server SDK, zod or a provider SDK', { timeout: 60_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  const served = cleanup(await serve(fixtureHandler('modern-only')));
  const { stdout, loaded, own, code } = await loadedBy(['call', served.url, 'echo', 'text=hi'], { BYHAND_PROVIDER: 'offline' });
  assert.match(stdout, /echo: hi/);
  assert.ok(own.length > 0, 'the log records what loads: the bundle in dist/bin/');
  for (const heavy of ['@modelcontextprotocol/server', '/zod/', '@anthropic-ai/sdk', 'better-sqlite3', '/postgres/']) {
    assert.ok(!loaded.some((url) => url.includes(heavy)), `byhand call loaded ${heavy}`);
  }
  // No npm package at all: jsonc-parser, the config reader, is bundled from its ESM build, since as CommonJS it
  // brought node's CommonJS loader into every start.
  assert.deepEqual(loaded.filter((url) => url.includes('/node_modules/')), []);
  // The workspace is all in the bundle: nothing of it loads but the bin and the bundle.
  assert.deepEqual(loaded.filter((url) => url.includes('/packages/') && !own.includes(url)), [pathToFileURL(bin).href]);
  // The toolbox registry is read for the help text and the names; it is data, and loads no toolbox's code.
  assert.match(code, /function registerToolbox\(/);
  for (const toolbox of ['kitchenSpec', 'cookieJarSpec', 'probeSpec', 'everythingSpec']) {
    assert.ok(!code.includes(`function ${toolbox}(`), `byhand call loaded the code of ${toolbox}`);
  }
});

test('byhand completion reads each command\'s flags and nothing else: no client, no npm package', { timeout: 60_000 }, async () => {
  const { stdout, loaded, code } = await loadedBy(['completion', 'bash']);
  assert.match(stdout, /--concurrency/, 'the script has the flags of checkpoint');
  assert.deepEqual(loaded.filter((url) => url.includes('/node_modules/')), []);
  // esbuild writes a class as `var Name = class _Name`, or `class Name`.
  for (const name of ['McpError', 'Client']) assert.doesNotMatch(code, new RegExp(`\\b(?:var|class) ${name}\\b`), `completion loaded ${name}`);
});

test('byhand bridge --listen loads the listener alone: neither the server SDK nor zod', { timeout: 60_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  const served = cleanup(await serve(fixtureHandler('modern-only')));
  const scratch = mkdtempSync(join(tmpdir(), 'byhand-imports-'));
  const log = join(scratch, 'imports.log');
  const child = spawn(process.execPath, ['--import', './test/support/record-imports.mjs', bin, 'bridge', served.url, '--listen', '0'], {
    cwd: root,
    env: { ...process.env, BYHAND_IMPORT_LOG: log, HOME: scratch },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let out = '';
    child.stdout.setEncoding('utf8');
    // The URL it serves comes once it listens; the Host/Origin guard and the listener are loaded by then.
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => ((out += chunk), out.includes('\n') && resolve()));
      child.once('exit', (code) => reject(new Error(`the bridge exited ${code} before listening`)));
    });
    assert.match(out, /^http:\/\/127\.0\.0\.1:\d+\/mcp\n/);
    const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    for (const heavy of ['@modelcontextprotocol/server', '/zod/']) assert.ok(!loaded.some((url) => url.includes(heavy)), `byhand bridge --listen loaded ${heavy}`);
  } finally {
    child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  }
});
