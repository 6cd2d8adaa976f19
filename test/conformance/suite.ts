// Running the official conformance suites (tools/conformance: 0.2.0-alpha.12 and 0.1.16, on the
// Node 22 they need) and reading their checks.json files. Shared by the server and client suites.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outOfScope, type Scope } from './scope.js';
import { requireTestTool } from '../support/test-tools.js';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const tools = join(repoRoot, 'tools', 'conformance', 'node_modules');
// The suites need Node >= 22 (top-level `import { globSync } from "fs"`); the project itself stays on Node 20.
export const node22 = join(tools, '.bin', 'node');
export const suite2026 = join(tools, 'conformance-2026', 'dist', 'index.js');
export const suiteLegacy = join(tools, 'conformance-legacy', 'dist', 'index.js');

/** Fails with the command that installs them when a test tool is missing (each test file is run on its own too). */
export function assertInstalled(files: string[]): void {
  requireTestTool('tools/conformance');
  for (const file of files) {
    if (!existsSync(file)) throw new Error(`missing ${file}: run \`node tools/ensure-test-tools.mjs\` (\`npm test\` does) first`);
  }
}

export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

export interface ScenarioResult {
  suite: string;
  scenario: string;
  scored: boolean;
  /** Why an unscored scenario is run: extension, pending, added-after-release, ... */
  category?: string;
  counts: Record<string, number>;
  /** SUCCESS checks other than the harness's own `wire-schema-valid`: zero means the scenario exercised nothing. */
  exercised: number;
  /** The ids of the WARNING checks. */
  warnings: string[];
  failures: string[];
}

/** No FAILURE, and at least one SUCCESS of its own: a scenario whose checks were all skipped has not passed. */
export const passed = (r: ScenarioResult) => (r.counts.FAILURE ?? 0) === 0 && r.exercised > 0;

/**
 * One suite's line in a report: a scenario accepted with a WARNING is counted apart, never as a pass, so
 * "32/32 passed" cannot hide a SHOULD the scenario flagged.
 */
export function summarise(results: ScenarioResult[], ok: (r: ScenarioResult) => boolean): string {
  const count = (rs: ScenarioResult[], label: string) => {
    const clean = rs.filter((r) => ok(r) && r.warnings.length === 0).length;
    const warned = rs.filter((r) => ok(r) && r.warnings.length > 0).length;
    return `${clean}/${rs.length} ${label} passed${warned > 0 ? ` (+${warned} with a warning)` : ''}`;
  };
  return `${count(results.filter((r) => r.scored), 'required')}, ${count(results.filter((r) => !r.scored), 'unscored')}`;
}

export async function conformance(suite: string, args: string[], env?: Record<string, string>): Promise<string> {
  try {
    const { stdout } = await run(node22, [suite, ...args], {
      cwd: repoRoot,
      // The suite's own waits (the tasks scenarios poll and sleep for about a minute in all) under a loaded machine.
      timeout: 180_000,
      maxBuffer: 32 * 1024 * 1024,
      ...(env ? { env: { ...process.env, ...env } } : {}),
    });
    return stdout;
  } catch (error) {
    // The suite exits 1 whenever any scenario (scored or not) has a FAILURE; the checks files are what we judge by.
    const failed = error as { stdout?: string; killed?: boolean; message: string };
    if (failed.killed === true || failed.stdout === undefined) throw error;
    return failed.stdout;
  }
}

/** Runs `work` over `items`, at most `limit` at a time (the machine has two cores, and timing scenarios such as sse-retry suffer under load). */
export async function bounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** What `list --requirements REV` prints: the scored scenarios by side, and the unscored ones with their category. */
export interface RequirementSet {
  server: string[];
  client: string[];
  unscored: { name: string; side: 'client' | 'server'; category: string }[];
}

export function requirementSet(output: string): RequirementSet {
  const set: RequirementSet = { server: listed(output, 'Server scenarios'), client: listed(output, 'Client scenarios'), unscored: [] };
  const lines = output.split('\n');
  const start = lines.findIndex((l) => l.startsWith('Run and reported, but never scored'));
  let category = '';
  for (const line of start < 0 ? [] : lines.slice(start + 1)) {
    const heading = /^\s+([\w-]+) \(\d+\):/.exec(line);
    if (heading) category = heading[1]!;
    const entry = /^\s+- ([\w/.-]+) \[(client|server)\]/.exec(line);
    if (entry) set.unscored.push({ name: entry[1], side: entry[2] as 'client' | 'server', category });
  }
  return set;
}

/** `list --client|--server` without a requirement set: every scenario with the tag in its brackets (versions, `extension`, `draft`). */
export function tagged(output: string): { name: string; tag: string }[] {
  return [...output.matchAll(/^\s+- ([\w/.-]+) \[([^\]]+)\]/gm)].map((m) => ({ name: m[1], tag: m[2] }));
}

/** `list` prints sections of `  - name [...]` lines; returns the names under the heading that starts with `heading`. */
export function listed(output: string, heading: string): string[] {
  const lines = output.split('\n');
  const start = lines.findIndex((l) => l.trim().startsWith(heading));
  if (start < 0) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^\s+- ([\w/.-]+)/.exec(line);
    if (match) names.push(match[1]);
    else if (line.trim() === '' || !line.startsWith(' ')) break;
  }
  return names;
}

export function collect(dir: string, suite: string, scored: (scenario: string) => boolean, prefix = 'server-'): Map<string, ScenarioResult> {
  const results = new Map<string, ScenarioResult>();
  for (const entry of readdirSync(dir).sort()) {
    const match = new RegExp(`^${prefix}(.+)-\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z$`).exec(entry);
    const file = join(dir, entry, 'checks.json');
    if (!match || !existsSync(file)) continue;
    const scenario = match[1];
    const checks = JSON.parse(readFileSync(file, 'utf8')) as Check[];
    const counts: Record<string, number> = {};
    for (const c of checks) counts[c.status] = (counts[c.status] ?? 0) + 1;
    const failures = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => `${c.id}: ${c.errorMessage ?? c.status}`);
    const exercised = checks.filter((c) => c.status === 'SUCCESS' && c.id !== 'wire-schema-valid').length;
    const warnings = checks.filter((c) => c.status === 'WARNING').map((c) => c.id);
    results.set(scenario, { suite, scenario, scored: scored(scenario), counts, exercised, warnings, failures });
  }
  return results;
}

/** A markdown table of the results, one row a scenario (docs/conformance.md links to it). */
export function reportText(
  title: string,
  intro: string[],
  results: ScenarioResult[],
  ok: (r: ScenarioResult) => boolean = passed,
  scope: Scope = {},
): string {
  const row = (r: ScenarioResult) => {
    const c = r.counts;
    const tally = ['SUCCESS', 'FAILURE', 'WARNING', 'SKIPPED'].map((k) => c[k] ?? 0).join(' / ');
    const note = r.failures.length > 0 ? r.failures[0].replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 160) : '';
    const reason = outOfScope(scope, r.suite, r.scenario);
    const verdict = ok(r) ? (r.warnings.length > 0 ? 'WARNING' : 'PASS') : reason !== undefined ? 'out of scope' : 'FAIL';
    const status = r.scored ? 'required' : `unscored (${r.category ?? 'reported'})`;
    const why = (reason ?? note).replace(/\|/g, '\\|');
    return `| ${r.suite} | ${r.scenario} | ${status} | ${verdict} | ${tally} | ${why} |`;
  };
  return [
    `# ${title}`,
    '',
    ...intro,
    '',
    'Checks are SUCCESS / FAILURE / WARNING / SKIPPED. A scenario with no FAILURE but a WARNING the tests accept is WARNING, not PASS, and is counted apart. Unscored scenarios (extension, pending, added after release) are run and asserted like the rest, unless listed out of scope with the reason shown.',
    '',
    '| suite | scenario | status | result | checks | first failure or warning, or why out of scope |',
    '|---|---|---|---|---|---|',
    ...results.map(row),
    '',
  ].join('\n');
}

/**
 * A server scenario run's verdict: every scenario expected produced checks, and each passes unless `scope` lists it;
 * one listed that passes fails too, so the list says what is true. `listName` names the list in that message.
 */
export function judgeServer(results: ScenarioResult[], expected: string[], scope: Scope, listName: string): void {
  const names = new Set(results.map((r) => r.scenario));
  assert.deepEqual(expected.filter((s) => !names.has(s)), [], 'scenarios that produced no checks');
  const failing = results.filter((r) => !passed(r) && outOfScope(scope, r.suite, r.scenario) === undefined).map((r) => `${r.scenario}: ${r.failures.join('; ') || 'no checks of its own'}`);
  assert.deepEqual(failing, []);
  const stale = results.filter((r) => passed(r) && outOfScope(scope, r.suite, r.scenario) !== undefined).map((r) => r.scenario);
  assert.deepEqual(stale, [], `listed out of scope in ${listName}, but they pass: take them off the list`);
}

/**
 * 0.2.0-alpha.12's server scenarios of one `--requirements` revision against `url`: the required ones and their
 * unscored companions (each with its category), in the suite's order, and the names expected to produce checks.
 */
export async function serverRequirementRun(revision: string, url: string, out: string): Promise<{ ordered: ScenarioResult[]; expected: string[] }> {
  const set = requirementSet(await conformance(suite2026, ['list', '--requirements', revision]));
  await conformance(suite2026, ['server', '--url', url, '--requirements', revision, '-o', out]);
  const results = collect(out, revision, (s) => set.server.includes(s));
  const category = new Map(set.unscored.map((u) => [u.name, u.category]));
  const expected = [...set.server, ...set.unscored.filter((u) => u.side === 'server').map((u) => u.name)];
  const ordered = expected
    .map((s) => results.get(s))
    .filter((r) => r !== undefined)
    .map((r) => ({ ...r, ...(category.has(r.scenario) ? { category: category.get(r.scenario)! } : {}) }));
  return { ordered, expected };
}

/** 0.1.16 `--suite all` against `url`: every server scenario it lists, in its order, and those names. */
export async function legacyServerRun(url: string, out: string): Promise<{ ordered: ScenarioResult[]; expected: string[] }> {
  const listing = tagged(await conformance(suiteLegacy, ['list', '--server']));
  assert.ok(listing.length >= 32, `expected the 32 server scenarios of 0.1.16, parsed ${listing.length}`);
  await conformance(suiteLegacy, ['server', '--url', url, '--suite', 'all', '-o', out]);
  // 0.1.16's own `pending` suite (its `active` default excludes them: `conformance server --suite pending` lists them).
  const pending = new Set(['json-schema-2020-12', 'server-sse-polling']);
  const results = collect(out, '0.1.16', (s) => !pending.has(s));
  const ordered = listing.map((s) => results.get(s.name)).filter((r) => r !== undefined).map((r) => (r.scored ? r : { ...r, category: 'pending' }));
  return { ordered, expected: listing.map((s) => s.name) };
}
