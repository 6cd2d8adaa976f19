// The official conformance suites against the Everything toolbox, over real loopback HTTP:
// 2026-07-28 (@modelcontextprotocol/conformance 0.2.0-alpha.12, --requirements 2026-07-28) and the 2025 suite (0.1.16).
// Every required scenario must pass; pending and extension scenarios are run and reported, not asserted.
// A per-scenario table is written to test/results/conformance-server.md.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { startServer, type RunningServer } from '../src/servers/serve.js';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const tools = join(repoRoot, 'tools', 'conformance', 'node_modules');
// The suites need Node >= 22 (top-level `import { globSync } from "fs"`); the project itself stays on Node 20.
const node22 = join(tools, '.bin', 'node');
const suite2026 = join(tools, 'conformance-2026', 'dist', 'index.js');
const suiteLegacy = join(tools, 'conformance-legacy', 'dist', 'index.js');
const resultsFile = join(repoRoot, 'test', 'results', 'conformance-server.md');
// 0.1.16's `pending` suite (its `active` default excludes them); see /work/shared/reference/conformance-0.1.16.md §1.
const LEGACY_PENDING = new Set(['json-schema-2020-12', 'server-sse-polling']);
const REPORTED_PENDING_2026 = ['http-header-validation', 'http-custom-header-server-validation'];

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

interface ScenarioResult {
  suite: string;
  scenario: string;
  scored: boolean;
  counts: Record<string, number>;
  failures: string[];
}

const passed = (r: ScenarioResult) => (r.counts.FAILURE ?? 0) === 0;

let server: RunningServer;
let target: string;
const scratch = mkdtempSync(join(tmpdir(), 'byhand-conformance-'));

before(async () => {
  for (const file of [node22, suite2026, suiteLegacy]) {
    assert.ok(existsSync(file), `missing ${file}: run \`npm ci --prefix tools/conformance\` first`);
  }
  server = await startServer({ port: 0, host: '127.0.0.1', toolboxes: ['everything'] });
  target = server.urls.everything!;
});
after(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function conformance(suite: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(node22, [suite, ...args], { cwd: repoRoot, timeout: 90_000, maxBuffer: 32 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    // The suite exits 1 whenever any scenario (scored or not) has a FAILURE; the checks files are what we judge by.
    const failed = error as { stdout?: string; killed?: boolean; message: string };
    if (failed.killed === true || failed.stdout === undefined) throw error;
    return failed.stdout;
  }
}

/** `list` prints sections of `  - name [...]` lines; returns the names under the heading that starts with `heading`. */
function listed(output: string, heading: string): string[] {
  const lines = output.split('\n');
  const start = lines.findIndex((l) => l.trim().startsWith(heading));
  if (start < 0) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^\s+- ([\w/.-]+)/.exec(line);
    if (match) names.push(match[1]!);
    else if (line.trim() === '' || !line.startsWith(' ')) break;
  }
  return names;
}

function collect(dir: string, suite: string, scored: (scenario: string) => boolean): Map<string, ScenarioResult> {
  const results = new Map<string, ScenarioResult>();
  for (const entry of readdirSync(dir).sort()) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry);
    const file = join(dir, entry, 'checks.json');
    if (!match || !existsSync(file)) continue;
    const scenario = match[1]!;
    const checks = JSON.parse(readFileSync(file, 'utf8')) as Check[];
    const counts: Record<string, number> = {};
    for (const c of checks) counts[c.status] = (counts[c.status] ?? 0) + 1;
    const failures = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => `${c.id}: ${c.errorMessage ?? c.status}`);
    results.set(scenario, { suite, scenario, scored: scored(scenario), counts, failures });
  }
  return results;
}

const all: ScenarioResult[] = [];

function writeReport(): void {
  const row = (r: ScenarioResult) => {
    const c = r.counts;
    const tally = ['SUCCESS', 'FAILURE', 'WARNING', 'SKIPPED'].map((k) => c[k] ?? 0).join(' / ');
    const note = r.failures.length > 0 ? r.failures[0]!.replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 160) : '';
    return `| ${r.suite} | ${r.scenario} | ${r.scored ? 'required' : 'reported'} | ${passed(r) ? 'PASS' : 'FAIL'} | ${tally} | ${note} |`;
  };
  const summary = (suite: string) => {
    const scored = all.filter((r) => r.suite === suite && r.scored);
    return `${scored.filter(passed).length}/${scored.length} required scenarios passed`;
  };
  const text = [
    '# Conformance: the Everything toolbox (`/api/everything`)',
    '',
    `Generated by \`test/conformance-server.test.ts\` on ${new Date().toISOString()} (server: \`startServer\` on Node ${process.version}; suites on the Node 22 from tools/conformance).`,
    '',
    `- 2026-07-28 (0.2.0-alpha.12, \`--requirements 2026-07-28\`): ${summary('2026-07-28')}`,
    `- 2025 (0.1.16, active suite): ${summary('0.1.16')}`,
    '',
    'Checks are SUCCESS / FAILURE / WARNING / SKIPPED. "reported" scenarios (pending, extension) are run but not scored.',
    '',
    '| suite | scenario | status | result | checks | first failure or warning |',
    '|---|---|---|---|---|---|',
    ...all.map(row),
    '',
  ].join('\n');
  mkdirSync(join(repoRoot, 'test', 'results'), { recursive: true });
  writeFileSync(resultsFile, text);
}

test('2026-07-28 server suite: every required scenario passes', { timeout: 100_000 }, async (t) => {
  const list = await conformance(suite2026, ['list', '--requirements', '2026-07-28']);
  const required = listed(list, 'Server scenarios');
  assert.ok(required.length >= 37, `expected the 37 required server scenarios, parsed ${required.length}`);
  const out = join(scratch, '2026');
  await conformance(suite2026, ['server', '--url', target, '--requirements', '2026-07-28', '-o', out]);
  const results = collect(out, '2026-07-28', (s) => required.includes(s));

  for (const scenario of REPORTED_PENDING_2026) {
    if (results.has(scenario)) continue;
    const extra = join(scratch, `2026-${scenario}`);
    await conformance(suite2026, ['server', '--url', target, '--scenario', scenario, '-o', extra]);
    for (const [name, r] of collect(extra, '2026-07-28', () => false)) results.set(name, r);
  }
  const ordered = [...required.map((s) => results.get(s)).filter((r) => r !== undefined), ...[...results.values()].filter((r) => !r.scored)];
  all.push(...ordered);
  writeReport();

  const missing = required.filter((s) => !results.has(s));
  assert.deepEqual(missing, [], 'required scenarios that produced no checks');
  const failing = ordered.filter((r) => r.scored && !passed(r)).map((r) => `${r.scenario}: ${r.failures.join('; ')}`);
  assert.deepEqual(failing, []);
  for (const scenario of REPORTED_PENDING_2026) {
    const r = results.get(scenario);
    t.diagnostic(`pending ${scenario}: ${r === undefined ? 'not run' : passed(r) ? 'PASS' : `FAIL (${r.failures.length})`}`);
  }
});

test('2025 server suite (0.1.16, active): every scenario passes', { timeout: 100_000 }, async () => {
  const list = await conformance(suiteLegacy, ['list', '--server']);
  const required = listed(list, 'Server scenarios').filter((s) => !LEGACY_PENDING.has(s));
  assert.ok(required.length >= 30, `expected the 30 active server scenarios, parsed ${required.length}`);
  const out = join(scratch, 'legacy');
  await conformance(suiteLegacy, ['server', '--url', target, '-o', out]);
  const results = collect(out, '0.1.16', (s) => required.includes(s));
  all.push(...required.map((s) => results.get(s)).filter((r) => r !== undefined));
  writeReport();

  assert.deepEqual(required.filter((s) => !results.has(s)), [], 'active scenarios that produced no checks');
  const failing = [...results.values()].filter((r) => r.scored && !passed(r)).map((r) => `${r.scenario}: ${r.failures.join('; ')}`);
  assert.deepEqual(failing, []);
});
