// `npm run bench` (= `npm run build && node bench/run.js`): every benchmark, loopback only, bounded in
// count and in time, repeated and interleaved (run 1 of each, then run 2 of each, the order rotating), so
// a figure is a median over the runs with the spread beside it. Prints plain tables, writes
// bench/results.md and the generated tables of docs/performance.md.
//
//   node bench/run.js                 all benchmarks, 3 runs each
//   node bench/run.js client bridge   only these (ids below)
//   node bench/run.js --runs 5        more runs
//   node bench/run.js --quick         one run, fewer iterations (a smoke test, not figures to quote)
//   node bench/run.js --no-write      write neither results.md nor docs/performance.md

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { clientBenchmark } from './client-bench.js';
import { combineRuns } from './combine.js';
import { writeGenerated } from './generated-docs.js';
import { BENCH_DIR, ROOT, markdownTable, requireDist, textTable } from './lib.js';
import { serverBenchmark } from './server-bench.js';
import { checkpointBenchmark } from './checkpoint-bench.js';
import { bundleBenchmark } from './bundle-bench.js';
import { bridgeBenchmark } from './bridge-bench.js';
import { bridgePipeBenchmark } from './bridge-pipe-bench.js';
/** @import { BenchOptions, Section } from './lib.js' */
/** @import { Combined } from './combine.js' */

/**
 * The benchmarks, in run order. Each is `async (options) => section`, where a section is
 * `{title, header: string[], rows: string[][], targets?: string[], notes?: string[], seconds}`.
 * To add one, write bench/<name>-bench.js exporting such a function and add an entry; run.js
 * prints it and puts it in results.md like the others.
 * @type {{ id: string, run: (options: BenchOptions) => Promise<Section> }[]}
 */
export const BENCHMARKS = [
  { id: 'client', run: clientBenchmark },
  { id: 'server', run: serverBenchmark },
  { id: 'checkpoint', run: checkpointBenchmark },
  { id: 'bundle', run: bundleBenchmark },
  { id: 'bridge', run: bridgeBenchmark },
  { id: 'bridge-pipe', run: bridgePipeBenchmark },
];

/** Each run of every benchmark must stay well under this; each benchmark also bounds its own loops. */
const RUN_BUDGET_MS = 420_000;
const DEFAULT_RUNS = 3;

function machine() {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
    if (line) cpu = line.split(':').slice(1).join(':').trim();
  } catch {
    // not Linux: os.cpus() it is
  }
  let nproc = String(cpus().length);
  try {
    nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    // no nproc: os.cpus() it is
  }
  return { date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), node: process.version, nproc, cpu, platform: `${process.platform} ${process.arch}` };
}

/** @param {string[]} args */
function runsWanted(args) {
  const at = args.indexOf('--runs');
  if (at < 0) return args.includes('--quick') ? 1 : DEFAULT_RUNS;
  const runs = Number(args[at + 1]);
  if (!Number.isInteger(runs) || runs < 1 || runs > 20) {
    process.stderr.write('bench: --runs takes a whole number from 1 to 20\n');
    process.exit(2);
  }
  return runs;
}

/** @param {Combined} c */
function markdownSection(c) {
  return [
    `## ${c.title}`,
    '',
    markdownTable(c.header, c.rows),
    '',
    ...(c.targets.length ? ['Targets:', '', ...c.targets.map((t) => `- ${t}`), ''] : []),
    ...(c.notes.length ? ['How it was measured:', '', ...c.notes.map((n) => `- ${n}`), ''] : []),
  ].join('\n');
}

async function main() {
  const args = process.argv.slice(2);
  /** @type {BenchOptions} */
  const options = { quick: args.includes('--quick') };
  const runs = runsWanted(args);
  const wanted = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs');
  const unknown = wanted.filter((id) => !BENCHMARKS.some((b) => b.id === id));
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.id).join(', ')}\n`);
    process.exit(2);
  }
  requireDist();
  const env = machine();
  const chosen = BENCHMARKS.filter((b) => wanted.length === 0 || wanted.includes(b.id));
  const budgetMs = RUN_BUDGET_MS * runs;
  const budget = setTimeout(() => {
    process.stderr.write(`bench: over the ${budgetMs / 1000} s budget, giving up\n`);
    process.exit(1);
  }, budgetMs);
  budget.unref();

  process.stdout.write(`byhand bench — ${env.date}, Node ${env.node}, ${env.nproc} CPUs (${env.cpu}), ${env.platform}, ${runs} run${runs > 1 ? 's' : ''} of each${options.quick ? ', QUICK' : ''}\n`);
  const loadBefore = loadavg()[0].toFixed(2);
  /** @type {Map<string, Section[]>} */
  const sections = new Map(chosen.map((b) => [b.id, []]));
  /** @type {Set<string>} */
  const failed = new Set();
  const started = performance.now();
  for (let run = 0; run < runs; run++) {
    for (let k = 0; k < chosen.length; k++) {
      const bench = chosen[(run + k) % chosen.length];
      if (failed.has(bench.id)) continue;
      process.stderr.write(`bench: ${bench.id}, run ${run + 1} of ${runs}…\n`);
      try {
        /** @type {Section[]} */ (sections.get(bench.id)).push(await bench.run(options));
      } catch (error) {
        // One broken benchmark does not cost the others their figures: it is reported, and the run fails at the end.
        failed.add(bench.id);
        const failure = /** @type {Error} */ (error);
        process.stderr.write(`bench: ${bench.id} failed: ${failure.stack ?? failure}\n`);
      }
    }
  }
  /** @type {Combined[]} */
  const combined = chosen.map((bench) =>
    failed.has(bench.id)
      ? { title: `${bench.id}: FAILED`, header: ['error'], rows: [['see the output of npm run bench']], targets: [], notes: [], seconds: 0, runs: 0 }
      : combineRuns(/** @type {Section[]} */ (sections.get(bench.id))),
  );
  for (const c of combined) {
    process.stdout.write(`\n## ${c.title} (${c.runs} runs, ${c.seconds.toFixed(1)} s)\n\n${textTable(c.header, c.rows)}\n`);
    if (c.targets.length) process.stdout.write(`\nTargets:\n${c.targets.map((t) => `  - ${t}`).join('\n')}\n`);
  }
  const total = (performance.now() - started) / 1000;
  const load = `load average ${loadBefore} at the start, ${loadavg()[0].toFixed(2)} at the end (1 min)`;
  process.stdout.write(`\n${load}\n`);
  process.stdout.write(`\ntotal ${total.toFixed(1)} s\n`);

  if (!args.includes('--no-write')) {
    const stamp = `Measured ${env.date} with \`npm run bench\`${options.quick ? ' --quick (smoke test: too few iterations to quote)' : ''}: Node ${env.node}, ${env.platform}, ${env.nproc} CPUs (\`nproc\`), CPU \`${env.cpu}\`. Loopback only; ${runs} run${runs > 1 ? 's' : ''} of each benchmark, interleaved; each figure is the median over the runs, the lowest and highest in brackets; total ${total.toFixed(0)} s; ${load}.`;
    const md = ['# byhand benchmarks', '', stamp, '', ...combined.map(markdownSection)].join('\n');
    writeFileSync(join(BENCH_DIR, 'results.md'), md);
    process.stdout.write('wrote bench/results.md\n');
    const ids = chosen.map((b) => b.id);
    const blocks = Object.fromEntries(combined.map((c, i) => [ids[i], [stamp, '', markdownTable(c.header, c.rows), '', ...c.targets.map((t) => `- ${t}`)].join('\n')]));
    const updated = writeGenerated(join(ROOT, 'docs', 'performance.md'), blocks);
    process.stdout.write(`updated docs/performance.md: ${updated.join(', ') || 'no generated block for these benchmarks'}\n`);
  }
  if (failed.size > 0) {
    process.stderr.write(`bench: failed: ${[...failed].join(', ')}\n`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  process.stderr.write(`bench: ${error.stack ?? error}\n`);
  process.exit(1);
});
