// The bridge's side-by-side table in README.md is the one test/bridge-peers.test.ts last wrote to
// test/results/bridge-peers.md (which that test fails on when stale), not typed: a hand-edited outcome fails here.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from './support/node-test.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

/** The text between `<!-- NAME -->` and `<!-- /NAME -->`, once. */
function block(text: string, name: string, where: string): string {
  const found = [...text.matchAll(new RegExp(`<!-- ${name} -->\\n([\\s\\S]*?)\\n<!-- /${name} -->`, 'g'))];
  assert.equal(found.length, 1, `${where} has one ${name} block`);
  return found[0][1];
}

test('README.md\'s table of the bridge beside mcp-remote is the generated one, as written', { timeout: 5_000 }, () => {
  const generated = block(read('test/results/bridge-peers.md'), 'table', 'test/results/bridge-peers.md');
  assert.match(generated, /^\| case \| `byhand bridge URL` \| mcp-remote /, 'the generated table has both columns');
  assert.equal(block(read('README.md'), 'bridge-peers', 'README.md'), generated);
});
