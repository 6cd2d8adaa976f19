// README.md's summary of the server suites through the bridge is the one test/conformance-bridge.test.ts last wrote to
// test/results/conformance-bridge.md, not typed: a hand-edited figure fails here.

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

test('README.md\'s summary of the suites through the bridge is the generated one, as written', { timeout: 5_000 }, () => {
  const generated = block(read('test/results/conformance-bridge.md'), 'summary', 'test/results/conformance-bridge.md');
  assert.match(generated, /--requirements 2026-07-28`.*: \d+\/\d+ required passed/, 'the generated summary has the 2026-07-28 run');
  assert.match(generated, /0\.1\.16 `--suite all`.*: \d+\/\d+ required passed/, 'the generated summary has the 0.1.16 run');
  assert.equal(block(read('README.md'), 'conformance:bridge', 'README.md'), generated);
});
