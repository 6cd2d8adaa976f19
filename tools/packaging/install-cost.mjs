#!/usr/bin/env node
// `npm run install-cost`: what each byhand package costs an npm user (packages, MB on disk, native builds, install
// time), installed from freshly packed tarballs, next to the official SDK client's. Needs the npm registry for the
// dependencies; prints the Markdown table, writes it to bench/install-cost.md and to its generated block of
// docs/performance.md ("Install cost").

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGenerated } from '../../bench/generated-docs.js';
import { installInto, measure, packAll } from './packaging.mjs';

const lines = [
  `Measured ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} with \`npm run install-cost\`: Node ${process.version}, one run, the npm cache warm.`,
  '',
  '| install | packages | on disk | native builds | install time |',
  '|---|---:|---:|---|---:|',
];
process.stdout.write(`${lines.join('\n')}\n`);
const scratch = mkdtempSync(join(tmpdir(), 'byhand-install-cost-'));
try {
  const packs = await packAll(scratch);
  /** @type {[string, string[]][]} */
  const rows = [
    ['@byhand/client', [packs['@byhand/client'].path]],
    ['@byhand/host', [packs['@byhand/client'].path, packs['@byhand/host'].path]],
    ['@byhand/servers', [packs['@byhand/servers'].path]],
    ['byhand (CLI, all of the above)', Object.values(packs).map((p) => p.path)],
    ['@modelcontextprotocol/client 2.4.0 (the SDK client)', ['@modelcontextprotocol/client@2.4.0']],
  ];
  for (const [i, [name, specs]] of rows.entries()) {
    const { dir, seconds } = await installInto(specs, { dir: mkdtempSync(join(scratch, `${i}-`)) });
    const m = measure(dir);
    const mb = m.bytes / 1e6;
    const line = `| ${name} | ${m.packages.length} | ${mb < 1 ? `${Math.round(m.bytes / 1e3)} KB` : `${mb.toFixed(1)} MB`} | ${m.native.length === 0 ? 'none' : m.native.join(', ')} | ${seconds.toFixed(1)} s |`;
    lines.push(line);
    process.stdout.write(`${line}\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const at = (/** @type {string} */ path) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
writeFileSync(at('bench/install-cost.md'), `# Install cost\n\n${lines.join('\n')}\n`);
writeGenerated(at('docs/performance.md'), { install: lines.join('\n') });
process.stdout.write('wrote bench/install-cost.md and docs/performance.md\n');
