// Running the official conformance suites (tools/conformance: 0.2.0-alpha.12 and 0.1.16, on the
// Node 22 they need) and reading their checks.json files. Shared by the server and client suites.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const tools = join(repoRoot, 'tools', 'conformance', 'node_modules');
// The suites need Node >= 22 (top-level `import { globSync } from "fs"`); the project itself stays on Node 20.
export const node22 = join(tools, '.bin', 'node');
export const suite2026 = join(tools, 'conformance-2026', 'dist', 'index.js');
export const suiteLegacy = join(tools, 'conformance-legacy', 'dist', 'index.js');

export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

export interface ScenarioResult {
  suite: string;
  scenario: string;
  scored: boolean;
  counts: Record<string, number>;
  failures: string[];
}

export const passed = (r: ScenarioResult) => (r.counts.FAILURE ?? 0) === 0;

export async function conformance(suite: string, args: string[]): Promise<string> {
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
export function listed(output: string, heading: string): string[] {
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

export function collect(dir: string, suite: string, scored: (scenario: string) => boolean, prefix = 'server-'): Map<string, ScenarioResult> {
  const results = new Map<string, ScenarioResult>();
  for (const entry of readdirSync(dir).sort()) {
    const match = new RegExp(`^${prefix}(.+)-\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z$`).exec(entry);
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

/** A markdown table of the results, one row a scenario, for the README. */
export function writeReport(file: string, title: string, intro: string[], results: ScenarioResult[], ok: (r: ScenarioResult) => boolean = passed): void {
  const row = (r: ScenarioResult) => {
    const c = r.counts;
    const tally = ['SUCCESS', 'FAILURE', 'WARNING', 'SKIPPED'].map((k) => c[k] ?? 0).join(' / ');
    const note = r.failures.length > 0 ? r.failures[0]!.replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 160) : '';
    return `| ${r.suite} | ${r.scenario} | ${r.scored ? 'required' : 'reported'} | ${ok(r) ? 'PASS' : 'FAIL'} | ${tally} | ${note} |`;
  };
  const text = [
    `# ${title}`,
    '',
    ...intro,
    '',
    'Checks are SUCCESS / FAILURE / WARNING / SKIPPED. "reported" scenarios (pending, extension) are run but not scored.',
    '',
    '| suite | scenario | status | result | checks | first failure or warning |',
    '|---|---|---|---|---|---|',
    ...results.map(row),
    '',
  ].join('\n');
  mkdirSync(join(repoRoot, 'test', 'results'), { recursive: true });
  writeFileSync(file, text);
}
