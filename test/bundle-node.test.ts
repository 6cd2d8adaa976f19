// The client as Node loads it: @byhand/client's "node" condition is dist/node/, the bundle bundle-node.mjs makes of
// dist/ (docs/performance.md: a cold start pays Node's per-module cost for a few files, not about twenty). What is
// shipped must be what the build makes, shared classes must be one class across the entries, and what the modern
// era does not need must stay lazily loaded.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './support/node-test.js';
import { assertShippedIsRebuilt, files } from './support/rebuilt.js';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const shipped = join(root, 'packages/client/dist/node');

/** A plain Node (no byhand-source condition), as an application runs it. */
async function node(script: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root, timeout: 20_000 });
  return stdout.trim();
}

test('Node resolves every entry of @byhand/client to the bundle, and the entries share one McpError', { timeout: 30_000 }, async () => {
  const out = await node(`
    const entries = ['@byhand/client', '@byhand/client/auth', '@byhand/client/auth/file-store', '@byhand/client/skills'];
    const resolved = entries.map((e) => import.meta.resolve(e));
    const client = await import('@byhand/client');
    const auth = await import('@byhand/client/auth');
    await import('@byhand/client/auth/file-store');
    await import('@byhand/client/skills');
    console.log(JSON.stringify({ resolved, same: auth.AuthError.prototype instanceof client.McpError }));
  `);
  const { resolved, same } = JSON.parse(out) as { resolved: string[]; same: boolean };
  for (const url of resolved) assert.match(url, /\/packages\/client\/dist\/node\/(index|auth\/index|auth\/file-store|skills)\.js$/);
  assert.equal(same, true, 'AuthError should extend the McpError that @byhand/client exports');
});

test('what is shipped is what the build makes from dist/', { timeout: 60_000 }, async () => {
  await assertShippedIsRebuilt(join(root, 'packages/client/bundle-node.mjs'), shipped, root);
});

test('the legacy era, HTTP+SSE and stdio stay in lazily loaded chunks of their own', { timeout: 10_000 }, () => {
  const entry = readFileSync(join(shipped, 'index.js'), 'utf8');
  const staticImports = [...entry.matchAll(/^import .* from "(\.\/[^"]+)";$/gm)].map((m) => m[1]);
  const reached = [entry, ...staticImports.map((path) => readFileSync(join(shipped, path), 'utf8'))].join('\n');
  for (const name of ['LegacyConnection', 'SseTransport', 'StdioTransport']) {
    // esbuild writes a class as `var Name = class _Name`, or `class Name`.
    const defined = new RegExp(`\\b(?:var|class) ${name}\\b`);
    assert.ok(!defined.test(reached), `${name} should not be on the entry's static path`);
    assert.ok(files(join(shipped, 'chunks')).some((f) => defined.test(readFileSync(join(shipped, 'chunks', f), 'utf8'))), `${name} should be defined in a chunk`);
  }
});
