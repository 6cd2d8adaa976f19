// What the docs show is what the tests run: the Worker example in docs/deploying.md is examples/worker.ts, verbatim.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from './support/node-test.js';

test('the Worker example in docs/deploying.md is examples/worker.ts, which test/servers-worker.test.ts runs on workerd', { timeout: 5_000 }, () => {
  const doc = readFileSync(new URL('../docs/deploying.md', import.meta.url), 'utf8');
  const example = readFileSync(new URL('../examples/worker.ts', import.meta.url), 'utf8');
  assert.ok(doc.includes('```ts\n' + example + '```'), 'docs/deploying.md must embed examples/worker.ts unchanged');
});
