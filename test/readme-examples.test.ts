// What the README shows is what the tests run: the Worker example in README.md is examples/worker.ts, verbatim.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from './support/node-test.js';

test('the README Worker example is examples/worker.ts, which test/servers-worker.test.ts runs on workerd', { timeout: 5_000 }, () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const example = readFileSync(new URL('../examples/worker.ts', import.meta.url), 'utf8');
  assert.ok(readme.includes('```ts\n' + example + '```'), 'README.md must embed examples/worker.ts unchanged');
});
