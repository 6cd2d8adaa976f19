// The figures in docs/performance.md are the bench's, not typed: every table between `<!-- bench:ID -->`
// markers must be what `npm run bench` last wrote to bench/results.md (or `npm run install-cost` to
// bench/install-cost.md), line for line.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from './support/node-test.js';
import { generatedBlocks } from '../bench/generated-docs.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

test('every generated block of docs/performance.md is in the report of the script that measured it, as written', { timeout: 5_000 }, () => {
  const blocks = generatedBlocks(read('docs/performance.md'));
  assert.deepEqual([...blocks.keys()].sort(), ['bridge', 'bundle', 'checkpoint', 'client', 'install', 'server'], 'one block per benchmark and the install cost');
  const bench = new Set(read('bench/results.md').split('\n'));
  const install = new Set(read('bench/install-cost.md').split('\n'));
  for (const [id, block] of blocks) {
    const results = id === 'install' ? install : bench;
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    assert.ok(lines.some((line) => line.startsWith('|')), `the ${id} block has a table`);
    for (const line of lines) assert.ok(results.has(line), `docs/performance.md, ${id}: a line its report does not have:\n${line}`);
  }
});
