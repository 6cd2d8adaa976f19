// The official conformance suites' client scenarios against byhand's client (test/conformance/client-under-test.mjs),
// every one of both suites: 0.2.0-alpha.12's `--requirements 2026-07-28` and `--requirements 2025-11-25` sets (scored
// and unscored), its remaining client scenarios, and the whole 0.1.16 client suite; auth/basic-cimd also with a CIMD URL.
// A requirement set runs each scenario at the set's wire with --force (what `--requirements` does per scenario,
// tools/conformance/node_modules/conformance-2026/dist/index.js, the `client` command); they are run one by one, a few
// at a time, so the timing scenarios (sse-retry) are not starved on a two-core machine.
// Allowed-error auth scenarios (resource-mismatch, iss-*, scope-retry-limit) expect the client to refuse and exit
// non-zero; they are judged by their checks like the rest. Every scenario must pass (no FAILURE, no WARNING) unless
// test/conformance/scope.ts lists it with a reason (and then it must not pass).
// A per-scenario table is written to test/results/conformance-client.md when every run has passed.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from './support/node-test.js';
import { resultsFile } from './support/results-file.js';
import { CLIENT_DEFAULT_WARNINGS, CLIENT_OUT_OF_SCOPE, outOfScope } from './conformance/scope.js';
import { bounded, collect, conformance, requirementSet, repoRoot, suite2026, suiteLegacy, summarise, tagged, reportText, type ScenarioResult } from './conformance/suite.js';

const command = `${process.execPath} ${join(repoRoot, 'test', 'conformance', 'client-under-test.mjs')}`;
const scratch = mkdtempSync(join(tmpdir(), 'byhand-conformance-client-'));
const all: ScenarioResult[] = [];
/** Scenarios at a time: each is a client process and a mock server on two cores. */
const LANES = 3;
/** What the client printed in each run (stdout and stderr), for the refusal and secrecy checks. */
const printed = new Map<string, string>();

// The scenarios where the client must refuse (auth, and a tampered skill), and the words its one-line error must
// carry, so a crash for another reason cannot pass for a refusal.
const REFUSALS: Record<string, RegExp> = {
  'auth/resource-mismatch': /^byhand-conformance: auth: .*another resource/m,
  'auth/scope-retry-limit': /^byhand-conformance: auth: .*insufficient_scope/m,
  'auth/iss-supported-missing': /^byhand-conformance: auth: .*carries no iss/m,
  'auth/iss-wrong-issuer': /^byhand-conformance: auth: .*names issuer "https:\/\/evil\.example\.com"/m,
  'auth/iss-unexpected': /^byhand-conformance: auth: .*names issuer "https:\/\/evil\.example\.com"/m,
  'auth/iss-normalized': /^byhand-conformance: auth: .*names issuer "http:\/\/localhost:\d+\/"/m,
  'auth/metadata-issuer-mismatch': /^byhand-conformance: auth: .*claims issuer "https:\/\/attacker\.example\.com"/m,
  'sep-2640-client-verify-digest': /^byhand-conformance: protocol: refused skill:\/\/pdf-processing\/SKILL\.md: its SHA-256 is/m,
  'sep-2640-client-verify-size': /^byhand-conformance: protocol: refused skill:\/\/pdf-processing\/SKILL\.md: it is \d+ bytes/m,
  'sep-2640-client-verify-frontmatter': /^byhand-conformance: protocol: refused skill:\/\/pdf-processing\/SKILL\.md: its frontmatter field "description"/m,
};
// Every token, code and secret the mock authorization servers hand out: none may ever be printed.
const SECRETS = /test-token|test-auth-code|pre-registered-secret|test-client-secret|test-secret-|as1-client-secret|as2-client-secret/;
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Warnings this run may carry (byhand's default configuration), by check id. */
const allowedWarnings = (r: ScenarioResult) => (r.suite.includes('CIMD URL set') ? undefined : CLIENT_DEFAULT_WARNINGS[r.scenario]?.check);

// A client scenario fails on a WARNING too (the suite's own rule for client runs), bar a warning listed in scope.ts.
function clean(r: ScenarioResult): boolean {
  const allowed = allowedWarnings(r);
  return (r.counts.FAILURE ?? 0) === 0 && r.warnings.every((id) => id === allowed) && r.exercised > 0;
}

interface Run {
  suite: string;
  label: string;
  scenario: string;
  args: string[];
  scored: boolean;
  category?: string;
  env?: Record<string, string>;
}

async function runOne(run: Run): Promise<ScenarioResult> {
  const out = join(scratch, run.label.replace(/\W+/g, '_'), run.scenario.replace(/\//g, '_'));
  await conformance(run.suite, ['client', '--command', command, '--scenario', run.scenario, ...run.args, '-o', out, '--timeout', '30000'], run.env);
  const dir = run.scenario.includes('/') ? join(out, run.scenario.split('/')[0]) : out;
  const name = run.scenario.split('/').at(-1)!;
  const found = collect(dir, run.label, () => run.scored, '').get(name);
  const entry = existsSync(dir) ? readdirSync(dir).find((e) => e.startsWith(`${name}-`)) : undefined;
  const output = (file: string) => (entry && existsSync(join(dir, entry, file)) ? readFileSync(join(dir, entry, file), 'utf8') : '');
  printed.set(`${run.label} ${run.scenario}`, output('stdout.txt') + output('stderr.txt'));
  const result: ScenarioResult = found
    ? { ...found, scenario: run.scenario }
    : { suite: run.label, scenario: run.scenario, scored: run.scored, counts: {}, exercised: 0, warnings: [], failures: ['produced no checks'] };
  return run.category !== undefined ? { ...result, category: run.category } : result;
}

function report(): string {
  const summary = (suite: string) => summarise(all.filter((r) => r.suite === suite), clean);
  const suites = [...new Set(all.map((r) => r.suite))];
  return reportText(
    "Conformance: byhand's client",
    [
      'Generated by `test/conformance-client.test.ts` (client: `test/conformance/client-under-test.mjs`, era negotiated, never pinned).',
      '',
      ...suites.map((s) => `- ${s}: ${summary(s)}`),
    ],
    all,
    clean,
    CLIENT_OUT_OF_SCOPE,
  );
}
// Written once all the runs below have passed.
const table = resultsFile(join(repoRoot, 'test', 'results', 'conformance-client.md'), report);

function judge(results: ScenarioResult[]): void {
  const failing = results
    .filter((r) => !clean(r) && outOfScope(CLIENT_OUT_OF_SCOPE, r.suite, r.scenario) === undefined)
    .map((r) => `${r.suite} ${r.scenario}: ${r.failures.join('; ') || 'no checks of its own'}`);
  assert.deepEqual(failing, []);
  const stale = results.filter((r) => clean(r) && outOfScope(CLIENT_OUT_OF_SCOPE, r.suite, r.scenario) !== undefined).map((r) => `${r.suite} ${r.scenario}`);
  assert.deepEqual(stale, [], 'listed out of scope in test/conformance/scope.ts, but they pass: take them off the list');
  for (const r of results.filter((x) => (x.scenario.startsWith('auth/') || x.scenario in REFUSALS) && outOfScope(CLIENT_OUT_OF_SCOPE, x.suite, x.scenario) === undefined)) {
    const out = printed.get(`${r.suite} ${r.scenario}`) ?? '';
    assert.doesNotMatch(out, SECRETS, `${r.suite} ${r.scenario}: the client printed a token, code or secret`);
    const refusal = REFUSALS[r.scenario];
    if (refusal) assert.match(out, refusal, `${r.suite} ${r.scenario}: the client should have refused with its own error`);
    else assert.doesNotMatch(out, /byhand-conformance:/, `${r.suite} ${r.scenario}: the client failed`);
  }
}

async function runAll(runs: Run[]): Promise<ScenarioResult[]> {
  const results = await bounded(runs, LANES, runOne);
  all.push(...results);
  return results;
}

const covered = new Set<string>();

async function requirementRuns(revision: string): Promise<Run[]> {
  const set = requirementSet(await conformance(suite2026, ['list', '--requirements', revision]));
  const args = ['--spec-version', revision, '--force'];
  const runs: Run[] = [
    ...set.client.map((scenario) => ({ suite: suite2026, label: revision, scenario, args, scored: true })),
    ...set.unscored.filter((u) => u.side === 'client').map((u) => ({ suite: suite2026, label: revision, scenario: u.name, args, scored: false, category: u.category })),
  ];
  for (const r of runs) covered.add(r.scenario);
  return runs;
}

table.test('0.2.0-alpha.12 --requirements 2026-07-28: the 32 required client scenarios (25 auth) and the unscored ones', { timeout: 420_000 }, async () => {
  const runs = await requirementRuns('2026-07-28');
  assert.equal(runs.filter((r) => r.scored).length, 32, 'expected the 32 required client scenarios');
  assert.equal(runs.filter((r) => r.scored && r.scenario.startsWith('auth/')).length, 25);
  const cimd: Run = { suite: suite2026, label: '2026-07-28, CIMD URL set', scenario: 'auth/basic-cimd', args: ['--spec-version', '2026-07-28', '--force'], scored: true, env: { BYHAND_CONFORMANCE_CIMD: '1' } };
  judge(await runAll([...runs, cimd]));
});

table.test('0.2.0-alpha.12 --requirements 2025-11-25: the 18 required client scenarios and the unscored ones', { timeout: 300_000 }, async () => {
  const runs = await requirementRuns('2025-11-25');
  assert.equal(runs.filter((r) => r.scored).length, 18, 'expected the 18 required client scenarios');
  judge(await runAll(runs));
});

table.test('0.2.0-alpha.12: the client scenarios in neither requirement set', { timeout: 180_000 }, async () => {
  const rest = tagged(await conformance(suite2026, ['list', '--client'])).filter((s) => !covered.has(s.name));
  // A dated scenario runs at its own (latest) version; an extension at the suite's default.
  const runs = rest.map(({ name, tag }) => {
    const version = /^\d{4}-\d{2}-\d{2}/.test(tag) ? tag.split(',').at(-1)! : undefined;
    return { suite: suite2026, label: '0.2.0-alpha.12', scenario: name, args: version ? ['--spec-version', version, '--force'] : [], scored: false, category: version ? `${version} only` : tag };
  });
  judge(await runAll(runs));
});

table.test('0.1.16: the whole client suite (26 scenarios)', { timeout: 300_000 }, async () => {
  const listing = tagged(await conformance(suiteLegacy, ['list', '--client']));
  assert.equal(listing.length, 26, `expected the 26 client scenarios of 0.1.16, parsed ${listing.length}`);
  const runs = listing.map(({ name, tag }) => ({ suite: suiteLegacy, label: '0.1.16', scenario: name, args: [], scored: /\d{4}-\d{2}-\d{2}/.test(tag), category: tag }));
  judge(await runAll(runs));
});
