// `npm run bench` (= `npm run build && node bench/run.js`): every benchmark in one run, loopback only,
// bounded in count and in time. Prints plain tables and writes bench/results.md.
//
//   node bench/run.js                 all benchmarks
//   node bench/run.js client server   only these (ids below)
//   node bench/run.js --quick         fewer iterations (a smoke test, not figures to quote)
//   node bench/run.js --no-write      do not overwrite bench/results.md

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { clientBenchmark } from './client-bench.js';
import { BENCH_DIR, markdownTable, requireDist, textTable } from './lib.js';
import { serverBenchmark } from './server-bench.js';
import { checkpointBenchmark } from './checkpoint-bench.js';
/** @import { BenchOptions, Section } from './lib.js' */

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
];

/** The whole run must stay well under this; each benchmark also bounds its own loops. */
const RUN_BUDGET_MS = 420_000;

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

async function main() {
  const args = process.argv.slice(2);
  /** @type {BenchOptions} */
  const options = { quick: args.includes('--quick') };
  const wanted = args.filter((a) => !a.startsWith('--'));
  const unknown = wanted.filter((id) => !BENCHMARKS.some((b) => b.id === id));
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.id).join(', ')}\n`);
    process.exit(2);
  }
  requireDist();
  const env = machine();
  const budget = setTimeout(() => {
    process.stderr.write(`bench: over the ${RUN_BUDGET_MS / 1000} s budget, giving up\n`);
    process.exit(1);
  }, RUN_BUDGET_MS);
  budget.unref();

  process.stdout.write(`byhand bench — ${env.date}, Node ${env.node}, ${env.nproc} CPUs (${env.cpu}), ${env.platform}${options.quick ? ', QUICK' : ''}\n`);
  const loadBefore = loadavg()[0].toFixed(2);
  /** @type {Section[]} */
  const sections = [];
  /** @type {string[]} */
  const failed = [];
  const started = performance.now();
  for (const bench of BENCHMARKS) {
    if (wanted.length > 0 && !wanted.includes(bench.id)) continue;
    process.stderr.write(`bench: ${bench.id}…\n`);
    /** @type {Section} */
    let section;
    try {
      section = await bench.run(options);
    } catch (error) {
      // One broken benchmark does not cost the others their figures: it is reported, and the run fails at the end.
      failed.push(bench.id);
      const failure = /** @type {Error} */ (error);
      process.stderr.write(`bench: ${bench.id} failed: ${failure.stack ?? failure}\n`);
      section = { title: `${bench.id}: FAILED`, header: ['error'], rows: [[String(failure.message ?? failure).split('\n')[0]]], seconds: 0 };
    }
    sections.push(section);
    process.stdout.write(`\n## ${section.title} (${section.seconds.toFixed(1)} s)\n\n${textTable(section.header, section.rows)}\n`);
    if (section.targets?.length) process.stdout.write(`\nTargets:\n${section.targets.map((t) => `  - ${t}`).join('\n')}\n`);
  }
  const total = (performance.now() - started) / 1000;
  const load = `load average ${loadBefore} at the start, ${loadavg()[0].toFixed(2)} at the end (1 min)`;
  process.stdout.write(`\n${load}\n`);
  process.stdout.write(`\ntotal ${total.toFixed(1)} s\n`);

  if (!args.includes('--no-write')) {
    const md = [
      '# byhand benchmarks',
      '',
      `Measured ${env.date} with \`npm run bench\`${options.quick ? ' --quick (smoke test: too few iterations to quote)' : ''}: Node ${env.node}, ${env.platform}, ${env.nproc} CPUs (\`nproc\`), CPU \`${env.cpu}\`. Loopback only; total ${total.toFixed(0)} s; ${load}: other work on the machine makes every figure noisier, so compare ratios from one run.`,
      '',
      ...sections.flatMap((s) => [
        `## ${s.title}`,
        '',
        markdownTable(s.header, s.rows),
        '',
        ...(s.targets?.length ? ['Targets:', '', ...s.targets.map((t) => `- ${t}`), ''] : []),
        ...(s.notes?.length ? ['How it was measured:', '', ...s.notes.map((n) => `- ${n}`), ''] : []),
      ]),
    ].join('\n');
    writeFileSync(join(BENCH_DIR, 'results.md'), md);
    process.stdout.write(`wrote bench/results.md\n`);
  }
  if (failed.length > 0) {
    process.stderr.write(`bench: failed: ${failed.join(', ')}\n`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  process.stderr.write(`bench: ${error.stack ?? error}\n`);
  process.exit(1);
});
