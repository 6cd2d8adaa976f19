// The conformance reports (test/results/*.md, summarised in docs/conformance.md) never call a scenario that the
// tests accepted with a WARNING a pass: auth/basic-cimd without a metadata URL is counted apart.

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { passed, summarise, reportText, type ScenarioResult } from './conformance/suite.js';

const result = (scenario: string, scored: boolean, counts: Record<string, number>, warnings: string[] = []): ScenarioResult => ({
  suite: '2026-07-28',
  scenario,
  scored,
  counts,
  exercised: counts.SUCCESS ?? 0,
  warnings,
  failures: warnings.map((id) => `${id}: WARNING`),
});

const results = [
  result('tools_call', true, { SUCCESS: 3 }),
  result('auth/basic-cimd', true, { SUCCESS: 13, WARNING: 1 }, ['cimd-client-id-used']),
  result('auth/dpop', false, { SUCCESS: 5 }),
];

test('a scenario accepted with a warning is counted apart from the passes', { timeout: 5_000 }, () => {
  assert.equal(summarise(results, passed), '1/2 required passed (+1 with a warning), 1/1 unscored passed');
  assert.equal(summarise(results.slice(0, 1), passed), '1/1 required passed, 0/0 unscored passed');
});

test('the report marks it WARNING, not PASS', { timeout: 5_000 }, () => {
  const text = reportText('title', [], results);
  assert.match(text, /^\| 2026-07-28 \| auth\/basic-cimd \| required \| WARNING \| 13 \/ 0 \/ 1 \/ 0 \| cimd-client-id-used: WARNING \|$/m);
  assert.match(text, /^\| 2026-07-28 \| tools_call \| required \| PASS \|/m);
});
