// `npm test` installs the test tools itself (tools/ensure-test-tools.mjs): once, then never again until a folder's
// package.json or lockfile changes. Run here on a copy of the script in a scratch repository whose tool folders have
// no dependencies, bar tools/sqlite's stand-in better-sqlite3 (a local folder whose install script notes the nodedir
// npm gave it, or fails as a native build does), so npm ci runs for real and offline. npm runs with a HOME of its
// own and none of this process's npm settings, as on a fresh machine.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from './support/node-test.js';
import { requireTestTool } from './support/test-tools.js';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../tools/ensure-test-tools.mjs', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['tools/conformance', 'tools/runtimes', 'tools/peers', 'tools/sqlite', 'tools/browser'];

/** The stand-in's install script: notes the nodedir npm passed, or fails as a build without headers does. */
const NOTE_NODEDIR = 'node -e "require(\'fs\').writeFileSync(\'nodedir-seen\', String(process.env.npm_config_nodedir))"';
const FAIL_BUILD = 'node -e "console.error(\'gyp ERR! stack Error: connect ETIMEDOUT nodejs.org\'); process.exit(1)"';

function scratch(install = NOTE_NODEDIR): string {
  const root = mkdtempSync(join(tmpdir(), 'byhand-ensure-'));
  mkdirSync(join(root, 'tools'), { recursive: true });
  mkdirSync(join(root, 'home'));
  copyFileSync(script, join(root, 'tools', 'ensure-test-tools.mjs'));
  for (const folder of FOLDERS) writeTool(root, folder, 'first');
  mkdirSync(join(root, 'node_modules'));
  mkdirSync(join(root, 'stand-in'));
  writeFileSync(join(root, 'stand-in', 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: '1.0.0', scripts: { install } }));
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
    ...(sqlite ? { [STAND_IN]: { name: 'better-sqlite3', version: '1.0.0', hasInstallScript: true }, 'node_modules/better-sqlite3': { resolved: STAND_IN, link: true } } : {}),
  };
  writeFileSync(join(root, folder, 'package-lock.json'), JSON.stringify({ name, version: '1.0.0', lockfileVersion: 3, requires: true, packages }));
}

/** This process's environment without its npm settings (`npm test` passes them down), and a HOME of the scratch's. */
function freshEnv(root: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !/^npm_/i.test(key)) env[key] = value;
  // Every folder is installed whatever Node runs this (the matrix runs it on Nodes that have node:sqlite); the test
  // of a Node with node:sqlite unsets it.
  return { ...env, HOME: join(root, 'home'), npm_config_offline: 'true', BYHAND_TEST_TOOLS_BUILD_ALL: '1', ...extra };
}

function ensure(root: string, { node = process.execPath, env = freshEnv(root) } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(node, [join(root, 'tools', 'ensure-test-tools.mjs')], { cwd: root, timeout: 50_000, env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A file npm ci would remove with node_modules: present afterwards means the folder was not installed again. */
const marker = (root: string, folder: string) => join(root, folder, 'node_modules', 'kept');

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Where this Node's own headers are, when it ships them (PREFIX/include/node), as npm's nodedir. */
function ownHeaders(): string | undefined {
  const prefix = dirname(dirname(process.execPath));
  return existsSync(join(prefix, 'include', 'node', 'node_version.h')) ? prefix : undefined;
}

test('installs each tool folder once, one line a step, and again only when its lockfile or package.json changes', { timeout: 120_000 }, async (t) => {
  const root = scratch();
  t.after(() => rmSync(root, { recursive: true, force: true }));
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
});

test('a native build is pointed at this Node\'s own headers when npm has no nodedir, and at the user\'s when it has one', { timeout: 120_000 }, async (t) => {
  const headers = ownHeaders();
  const root = scratch();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const seen = () => readFileSync(join(root, 'stand-in', 'nodedir-seen'), 'utf8');

  const fresh = await ensure(root);
  assert.equal(fresh.code, 0, fresh.stderr);
  if (headers === undefined) {
    assert.equal(seen(), 'undefined', 'a Node without headers beside it leaves npm to fetch them');
  } else {
    assert.equal(seen(), headers);
    assert.match(fresh.stdout, new RegExp(`tools/sqlite: installing .*; built against ${escape(join(headers, 'include', 'node'))}\\) \\.\\.\\. done`));
  }

  // The user's own nodedir (their ~/.npmrc here) is theirs to keep.
  rmSync(join(root, 'tools', 'sqlite', 'node_modules'), { recursive: true });
  writeFileSync(join(root, 'home', '.npmrc'), 'nodedir=/their/node\n');
  const theirs = await ensure(root);
  assert.equal(theirs.code, 0, theirs.stderr);
  assert.equal(seen(), '/their/node');
  assert.doesNotMatch(theirs.stdout, /built against/);
});

test('a failed install stops only its own folder: the others install, the run goes on, and its tests get the reason', { timeout: 120_000 }, async (t) => {
  const root = scratch(FAIL_BUILD);
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const run = await ensure(root);
  assert.equal(run.code, 0, 'the tests that do not need it still run');
  assert.match(run.stdout, /^test tools 3\/5: tools\/peers: installing .* done in \d+ s\ntest tools 4\/5: tools\/sqlite: installing .* \.\.\. failed$/m);
  assert.match(run.stderr, /✗ installing tools\/sqlite: npm ci exited 1: gyp ERR! stack Error: connect ETIMEDOUT nodejs\.org\nhint: the tests that need that folder fail with the reason above and the rest run/);
  assert.ok(!existsSync(join(root, 'node_modules', 'better-sqlite3')), 'nothing is linked');
  assert.throws(() => requireTestTool('tools/sqlite', root), /^Error: tools\/sqlite did not install \(npm ci exited 1: gyp ERR! stack Error: connect ETIMEDOUT nodejs\.org\); npm's whole output is in tools\/sqlite\/node_modules\/\.byhand-install-failed\. Fix the cause, then run `node tools\/ensure-test-tools\.mjs`$/);
  requireTestTool('tools/peers', root);

  // Not stamped: the next run tries it again, and once it builds, its tests run.
  writeFileSync(join(root, 'stand-in', 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: '1.0.0', scripts: { install: NOTE_NODEDIR } }));
  const again = await ensure(root);
  assert.match(again.stdout, /tools\/sqlite: installing .* done in \d+ s, linked as node_modules\/better-sqlite3\ntest tools 5\/5: tools\/browser: installed, lockfile unchanged\n$/);
  requireTestTool('tools/sqlite', root);
});

test('a Node with node:sqlite needs no better-sqlite3 build', { timeout: 120_000 }, async (t) => {
  requireTestTool('tools/runtimes');
  const node24 = join(repoRoot, 'tools', 'runtimes', 'node_modules', 'node24', 'bin', 'node');
  const root = scratch(FAIL_BUILD);
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const run = await ensure(root, { node: node24, env: freshEnv(root, { PATH: `${dirname(node24)}:${process.env.PATH}`, BYHAND_TEST_TOOLS_BUILD_ALL: '' }) });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^test tools 4\/5: tools\/sqlite: not needed, this Node has node:sqlite$/m);
  assert.ok(!existsSync(join(root, 'tools', 'sqlite', 'node_modules')), 'nothing was installed');
});
