#!/usr/bin/env node
// `npm run test:matrix`: the whole test suite again on Node 22 and Node 24 (tools/runtimes, from the npm `node`
// package, so the system Node is untouched). `npm test` covers the machine's own Node (20 here). Each version runs
// with its own `node` first on PATH, so every child a test spawns runs on that version too.

import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const versions = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['22', '24'];
const results = [];

for (const version of versions) {
  const node = join(root, 'tools', 'runtimes', 'node_modules', `node${version}`, 'bin', 'node');
  const started = Date.now();
  const run = spawnSync(node, [join('tools', 'run-tests.mjs'), '--reporter', 'dot'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` },
    timeout: 20 * 60_000,
  });
  const actual = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  results.push({ version: actual || `node${version} (did not start: ${run.error?.message})`, ok: run.status === 0, seconds: Math.round((Date.now() - started) / 1000) });
}

for (const r of results) process.stdout.write(`${r.ok ? 'pass' : 'FAIL'}  ${r.version}  ${r.seconds} s\n`);
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
