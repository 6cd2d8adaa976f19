#!/usr/bin/env node
// Installs the tools only the tests need, on the first `npm test` or `npm run test:matrix`, so that a newcomer's
// `npm ci` installs only what `byhand` itself needs. Each folder is installed from its own lockfile with `npm ci`
// and stamped with a hash of its package.json and lockfile; a folder whose stamp matches is left alone, so a second
// run does nothing. One line per step. npm's own output is shown only when it fails: its EBADENGINE warnings are
// expected here (these packages want Node 22 or later and run on the Node 22 installed beside them). better-sqlite3
// is a test tool too (a native build, for the Cookie Jar's SQLite tests on Node 20): it is linked into the root
// node_modules, where the servers package finds it as its optional peer.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = '.byhand-installed';

const TOOLS = [
  { folder: 'tools/conformance', what: 'the official MCP conformance suites and their Node 22' },
  { folder: 'tools/runtimes', what: 'Node 22 and 24 for the version matrix, workerd through miniflare' },
  { folder: 'tools/peers', what: 'the MCP Inspector CLI and mcp-remote, the real peers the bridge is tested against' },
  { folder: 'tools/sqlite', what: 'better-sqlite3 for the SQLite tests on Node 20, a native build', link: 'better-sqlite3' },
  { folder: 'tools/browser', what: "playwright-core, to drive Debian's Chromium, and the MCP Apps App class, for byhand inspect's browser tests" },
];

/** What a folder's install depends on: its package.json and its lockfile. @param {string} dir */
function wanted(dir) {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) hash.update(file).update(readFileSync(join(dir, file)));
  return hash.digest('hex');
}

/** @param {string} dir */
function installed(dir) {
  const stamp = join(dir, 'node_modules', STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === wanted(dir);
}

/**
 * Makes the root node_modules/NAME a link to the folder's copy, unless something is there already; says what it did.
 * @param {string} dir @param {string} name
 */
function link(dir, name) {
  const at = join(root, 'node_modules', name);
  if (existsSync(at) || isLink(at)) return '';
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(relative(dirname(at), join(dir, 'node_modules', name)), at, process.platform === 'win32' ? 'junction' : 'dir');
  return `, linked as node_modules/${name}`;
}

/** @param {string} path */
function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** @param {string} dir @returns {Promise<{ code: number | null, output: string }>} */
function npmCi(dir) {
  return new Promise((resolve) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: -1, output: error.message }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

for (const [i, { folder, what, link: name }] of TOOLS.entries()) {
  const dir = join(root, folder);
  const step = `test tools ${i + 1}/${TOOLS.length}: ${folder}`;
  if (installed(dir)) {
    process.stdout.write(`${step}: installed, lockfile unchanged${name ? link(dir, name) : ''}\n`);
    continue;
  }
  process.stdout.write(`${step}: installing ${what} (npm ci, once) ... `);
  const started = Date.now();
  const { code, output } = await npmCi(dir);
  if (code !== 0) {
    process.stdout.write('failed\n');
    process.stderr.write(`${output.trimEnd()}\n✗ installing ${folder}: npm ci exited ${code}\nhint: fix what npm says above, then run \`node tools/ensure-test-tools.mjs\` again\n`);
    process.exit(1);
  }
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', STAMP), `${wanted(dir)}\n`);
  process.stdout.write(`done in ${Math.round((Date.now() - started) / 1000)} s${name ? link(dir, name) : ''}\n`);
}
