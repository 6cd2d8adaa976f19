// Packing the workspaces and installing them as an npm user would: shared by `npm run pack` (tools/packaging/pack.mjs),
// the tarball test (test/package-install.test.ts) and the install-cost report (tools/packaging/install-cost.mjs).

import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
export const root = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** @typedef {{ path: string, files: string[] }} Pack */

/**
 * `npm pack` of every workspace (built first by the caller) into `dest`, a folder that exists: package name ->
 * tarball path and packed files.
 * @param {string} dest
 * @returns {Promise<Record<string, Pack>>}
 */
export async function packAll(dest) {
  const { stdout } = await run(npm, ['pack', '--workspaces', '--json', '--pack-destination', dest], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  /** @type {{ name: string, filename: string, files: { path: string }[] }[]} */
  const packs = JSON.parse(stdout);
  return Object.fromEntries(packs.map((p) => [p.name, { path: join(dest, p.filename), files: p.files.map((f) => f.path) }]));
}

/**
 * An empty project in `dir` with only these installed (tarball paths or registry specs), production dependencies only.
 * `registry` replaces the user's npm registry for the install.
 * @param {string[]} specs @param {{ dir: string, registry?: string }} where
 */
export async function installInto(specs, { dir, registry }) {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const started = Date.now();
  await npmInstall(['--omit=dev', '--prefer-offline', ...registryFlag(registry), ...specs], dir);
  return { dir, seconds: (Date.now() - started) / 1000 };
}

/**
 * `npm install -g` into `prefix` (its own bin/ and lib/node_modules), as the README's Install section does with the
 * user's global prefix.
 * @param {string[]} specs @param {string} prefix @param {string} [registry]
 */
export async function installGlobal(specs, prefix, registry) {
  await npmInstall(['--global', '--prefix', prefix, ...registryFlag(registry), ...specs], prefix);
}

/** @param {string | undefined} registry */
const registryFlag = (registry) => (registry === undefined ? [] : ['--registry', registry]);

/** @param {string[]} args @param {string} cwd */
async function npmInstall(args, cwd) {
  await run(npm, ['install', '--no-audit', '--no-fund', ...args], { cwd, maxBuffer: 16 * 1024 * 1024, timeout: 10 * 60_000 });
}

/** @param {string} path @returns {number} */
function bytesUnder(path) {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const entry of readdirSync(path)) total += bytesUnder(join(path, entry));
  return total;
}

/** What landed in node_modules: packages, bytes on disk (file sizes), and which packages build native code. */
/** @param {string} dir */
export function measure(dir) {
  const modules = join(dir, 'node_modules');
  /** @type {string[]} */
  const packages = [];
  /** @param {string} folder */
  const visit = (folder) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder)) {
      if (entry.startsWith('.')) continue;
      const path = join(folder, entry);
      if (entry.startsWith('@')) visit(path);
      else if (existsSync(join(path, 'package.json'))) {
        packages.push(path);
        visit(join(path, 'node_modules'));
      }
    }
  };
  visit(modules);
  const native = packages.filter((p) => {
    const manifest = JSON.parse(readFileSync(join(p, 'package.json'), 'utf8'));
    const scripts = manifest.scripts ?? {};
    // npm builds a package with binding.gyp and no install script by running node-gyp itself.
    return existsSync(join(p, 'binding.gyp')) || manifest.gypfile === true || ['preinstall', 'install', 'postinstall'].some((s) => s in scripts);
  });
  return {
    packages: packages.map((p) => p.slice(modules.length + 1)),
    bytes: existsSync(modules) ? bytesUnder(modules) - (existsSync(join(modules, '.package-lock.json')) ? lstatSync(join(modules, '.package-lock.json')).size : 0) : 0,
    native: native.map((p) => p.slice(modules.length + 1)),
  };
}
