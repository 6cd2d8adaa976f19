// `npm test` installs the test tools itself (tools/ensure-test-tools.mjs): once, then never again until a folder's
// package.json or lockfile changes. Run here on a copy of the script in a scratch repository whose tool folders have
// no dependencies, bar tools/sqlite's stand-in better-sqlite3 (a local folder), so npm ci runs for real and offline.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from './support/node-test.js';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../tools/ensure-test-tools.mjs', import.meta.url));
const FOLDERS = ['tools/conformance', 'tools/runtimes', 'tools/peers', 'tools/sqlite', 'tools/browser'];

function scratch(): string {
  const root = mkdtempSync(join(tmpdir(), 'byhand-ensure-'));
  mkdirSync(join(root, 'tools'), { recursive: true });
  copyFileSync(script, join(root, 'tools', 'ensure-test-tools.mjs'));
  for (const folder of FOLDERS) writeTool(root, folder, 'first');
  mkdirSync(join(root, 'node_modules'));
  mkdirSync(join(root, 'stand-in'));
  writeFileSync(join(root, 'stand-in', 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: '1.0.0' }));
  writeFileSync(join(root, 'stand-in', 'index.js'), 'module.exports = "the stand-in";\n');
  return root;
}

/** The stand-in's folder as tools/sqlite names it (joined, so that no file here names a path above the repository). */
const STAND_IN = ['..', '..', 'stand-in'].join('/');

function writeTool(root: string, folder: string, description: string): void {
  const name = folder.replace('/', '-');
  const sqlite = folder === 'tools/sqlite';
  const dependencies = sqlite ? { 'better-sqlite3': `file:${STAND_IN}` } : undefined;
  mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, folder, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, description, dependencies }));
  const packages = {
    '': { name, version: '1.0.0', dependencies },
    ...(sqlite ? { [STAND_IN]: { name: 'better-sqlite3', version: '1.0.0' }, 'node_modules/better-sqlite3': { resolved: STAND_IN, link: true } } : {}),
  };
  writeFileSync(join(root, folder, 'package-lock.json'), JSON.stringify({ name, version: '1.0.0', lockfileVersion: 3, requires: true, packages }));
}

function ensure(root: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'tools', 'ensure-test-tools.mjs')], { cwd: root, timeout: 50_000, env: { ...process.env, npm_config_offline: 'true' } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A file npm ci would remove with node_modules: present afterwards means the folder was not installed again. */
const marker = (root: string, folder: string) => join(root, folder, 'node_modules', 'kept');

test('installs each tool folder once, one line a step, and again only when its lockfile or package.json changes', { timeout: 120_000 }, async () => {
  const root = scratch();
  try {
    const first = await ensure(root);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^test tools 1\/5: tools\/conformance: installing .* \.\.\. done in \d+ s\ntest tools 2\/5: tools\/runtimes: installing .* \.\.\. done in \d+ s\ntest tools 3\/5: tools\/peers: installing .* \.\.\. done in \d+ s\ntest tools 4\/5: tools\/sqlite: installing .* \.\.\. done in \d+ s, linked as node_modules\/better-sqlite3\ntest tools 5\/5: tools\/browser: installing .* \.\.\. done in \d+ s\n$/);
    // The root node_modules resolves better-sqlite3 to the test tool's copy, as the servers package will.
    assert.equal(readFileSync(join(root, 'node_modules', 'better-sqlite3', 'index.js'), 'utf8'), 'module.exports = "the stand-in";\n');

    for (const folder of FOLDERS) writeFileSync(marker(root, folder), '');
    const second = await ensure(root);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, FOLDERS.map((f, i) => `test tools ${i + 1}/${FOLDERS.length}: ${f}: installed, lockfile unchanged\n`).join(''));
    for (const folder of FOLDERS) assert.ok(existsSync(marker(root, folder)), `${folder} was installed again`);

    // A root `npm ci` removes the root node_modules, and the link with it: the next run links it again.
    rmSync(join(root, 'node_modules'), { recursive: true });
    const relinked = await ensure(root);
    assert.match(relinked.stdout, /^test tools 4\/5: tools\/sqlite: installed, lockfile unchanged, linked as node_modules\/better-sqlite3$/m);
    assert.ok(existsSync(join(root, 'node_modules', 'better-sqlite3', 'index.js')));

    writeTool(root, 'tools/runtimes', 'changed');
    const third = await ensure(root);
    assert.equal(third.code, 0, third.stderr);
    assert.match(third.stdout, /^test tools 1\/5: tools\/conformance: installed, lockfile unchanged\ntest tools 2\/5: tools\/runtimes: installing .* done in \d+ s\ntest tools 3\/5: tools\/peers: installed, lockfile unchanged\ntest tools 4\/5: tools\/sqlite: installed, lockfile unchanged\ntest tools 5\/5: tools\/browser: installed, lockfile unchanged\n$/);
    assert.ok(existsSync(marker(root, 'tools/conformance')));
    assert.ok(!existsSync(marker(root, 'tools/runtimes')), 'a changed package.json installs again');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a failed install stops with npm\'s reason, a ✗ line and a hint, and leaves no stamp', { timeout: 120_000 }, async () => {
  const root = scratch();
  try {
    // A dependency the lockfile does not have: npm ci refuses (offline, it cannot fetch it either).
    writeFileSync(join(root, 'tools/conformance/package.json'), JSON.stringify({ name: 'tools-conformance', version: '1.0.0', dependencies: { 'left-pad': '1.3.0' } }));
    const run = await ensure(root);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, 'test tools 1/5: tools/conformance: installing the official MCP conformance suites and their Node 22 (npm ci, once) ... failed\n');
    assert.match(run.stderr, /^npm error /m, 'npm\'s own reason is shown');
    assert.match(run.stderr, /✗ installing tools\/conformance: npm ci exited 1\nhint: .*node tools\/ensure-test-tools\.mjs/);
    const again = await ensure(root);
    assert.equal(again.code, 1, 'the failed folder is not stamped as installed');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
