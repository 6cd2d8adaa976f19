#!/usr/bin/env node
// Installs the tools only the tests need, on the first `npm test` or `npm run test:matrix`, so that a newcomer's
// `npm ci` installs only what `byhand` itself needs. Each folder is installed from its own lockfile with `npm ci`
// and stamped with a hash of its package.json and lockfile; a folder whose stamp matches is left alone, so a second
// run does nothing. One line per step. npm's own output is shown only when it fails: its EBADENGINE warnings are
// expected here (these packages want Node 22 or later and run on the Node 22 installed beside them). better-sqlite3
// is a test tool too (a native build, for the Cookie Jar's SQLite tests on Node 20): it is linked into the root
// node_modules, where the servers package finds it as its optional peer; a Node that has node:sqlite needs none.
//
// A folder that fails to install does not stop the others, nor the tests: its reason is kept in its node_modules
// (FAILED), and the tests that need it fail with that reason (test/support/test-tools.ts); the rest run.
//
// A native build needs the headers of the Node it builds for. Unless the user set npm's `nodedir`, npm fetches them
// from nodejs.org; the Node running this script usually ships them beside it (PREFIX/include/node), so npm is
// pointed there when they are this Node's own.

import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = '.byhand-installed';
const FAILED = '.byhand-install-failed';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** @typedef {{ folder: string, what: string, link?: string, native?: boolean, builtIn?: string }} Tool */
/** @type {Tool[]} */
const TOOLS = [
  { folder: 'tools/conformance', what: 'the official MCP conformance suites and their Node 22' },
  { folder: 'tools/runtimes', what: 'Node 22 and 24 for the version matrix, workerd through miniflare' },
  { folder: 'tools/peers', what: 'the real peers: the MCP Inspector CLI and mcp-remote beside the bridge, and the reference servers byhand check runs on' },
  { folder: 'tools/sqlite', what: 'better-sqlite3 for the SQLite tests on Node 20, a native build', link: 'better-sqlite3', native: true, builtIn: 'node:sqlite' },
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

/** Whether this Node has the module built in (node:sqlite from Node 22.5). @param {string} specifier */
async function hasBuiltIn(specifier) {
  try {
    await import(specifier);
    return true;
  } catch {
    return false;
  }
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

/**
 * npm's nodedir for a native build: nothing when the user set one, else this Node's prefix when the headers there
 * are this Node's version. @param {string} dir @returns {Promise<string | undefined>}
 */
async function localNodedir(dir) {
  if (process.env.npm_config_nodedir) return undefined;
  const { stdout } = await promisify(execFile)(npm, ['config', 'get', 'nodedir'], { cwd: dir });
  if (!['', 'undefined', 'null'].includes(stdout.trim())) return undefined;
  const prefix = dirname(dirname(process.execPath));
  const header = join(prefix, 'include', 'node', 'node_version.h');
  if (!existsSync(header)) return undefined;
  const text = readFileSync(header, 'utf8');
  const part = (/** @type {string} */ name) => /\d+/.exec(text.slice(text.indexOf(`#define NODE_${name}_VERSION `)))?.[0];
  return `${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}` === process.versions.node ? prefix : undefined;
}

/** @param {string} dir @param {Record<string, string>} env @returns {Promise<{ code: number | null, output: string }>} */
function npmCi(dir, env) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: -1, output: error.message }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The line of npm's output that says why, for the one-line reason (not the command it ran, which may say Error too). */
function cause(/** @type {string} */ output) {
  const lines = output.split('\n').map((line) => line.replace(/^npm error /, '').trim()).filter((line) => line !== '' && !/^(command|code|path) /.test(line));
  return lines.find((line) => /\bError: /.test(line)) ?? lines[0] ?? 'no output';
}

let failures = 0;
for (const [i, { folder, what, link: name, native, builtIn }] of TOOLS.entries()) {
  const dir = join(root, folder);
  const step = `test tools ${i + 1}/${TOOLS.length}: ${folder}`;
  if (installed(dir)) {
    process.stdout.write(`${step}: installed, lockfile unchanged${name ? link(dir, name) : ''}\n`);
    continue;
  }
  // BYHAND_TEST_TOOLS_BUILD_ALL=1 installs it all the same: to try the build on any Node (this script's own tests do).
  if (builtIn !== undefined && process.env.BYHAND_TEST_TOOLS_BUILD_ALL !== '1' && (await hasBuiltIn(builtIn))) {
    process.stdout.write(`${step}: not needed, this Node has ${builtIn}\n`);
    continue;
  }
  const nodedir = native ? await localNodedir(dir) : undefined;
  process.stdout.write(`${step}: installing ${what} (npm ci, once${nodedir ? `; built against ${join(nodedir, 'include', 'node')}` : ''}) ... `);
  const started = Date.now();
  const { code, output } = await npmCi(dir, nodedir ? { npm_config_nodedir: nodedir } : {});
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  if (code !== 0) {
    failures++;
    const reason = `npm ci exited ${code}: ${cause(output)}`;
    writeFileSync(join(dir, 'node_modules', FAILED), `${reason}\n\n${output}`);
    process.stdout.write('failed\n');
    process.stderr.write(`${output.trimEnd()}\n✗ installing ${folder}: ${reason}\n`);
    continue;
  }
  rmSync(join(dir, 'node_modules', FAILED), { force: true });
  writeFileSync(join(dir, 'node_modules', STAMP), `${wanted(dir)}\n`);
  process.stdout.write(`done in ${Math.round((Date.now() - started) / 1000)} s${name ? link(dir, name) : ''}\n`);
}
if (failures > 0) {
  process.stderr.write(`hint: the tests that need ${failures === 1 ? 'that folder fail' : 'those folders fail'} with the reason above and the rest run; fix what npm says, then run \`node tools/ensure-test-tools.mjs\` again\n`);
}
