#!/usr/bin/env node
// `npm test` and `npm run test:unit`: the test files bundled (test-runner/bundle.mjs), then run by node:test, one
// more at a time than there are cores, longest first (test-runner/order.mjs). A failure's stack names the TypeScript
// sources (test-runner/stacks.mjs).
//
// usage: node tools/run-tests.mjs [--unit] [--reporter spec|tap|dot] [--timeout MS] [FILE ...]
//   --unit   leaves out the official conformance suites and the real peers (the fast loop)
//   FILE     test/NAME.test.ts files to run instead of all of them

import { readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { run } from 'node:test';
import { dot, spec, tap } from 'node:test/reporters';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleTests } from './test-runner/bundle.mjs';
import { keepTimes, longestFirst } from './test-runner/order.mjs';
import { failureMapper } from './test-runner/stacks.mjs';
import { runTempFolder } from './test-runner/temp-folder.mjs';

/** The slow suites that need the official suites' own tools or the real peers' installs. */
const NOT_UNIT = /^test\/(conformance-|bridge-peers)/;
/** spec is a stream class; tap and dot are generator functions. */
const REPORTERS = { spec: () => new spec(), tap, dot };

const root = fileURLToPath(new URL('..', import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    unit: { type: 'boolean', default: false },
    reporter: { type: 'string', default: process.stdout.isTTY ? 'spec' : 'tap' },
    timeout: { type: 'string', default: '1200000' },
    concurrency: { type: 'string', default: String(availableParallelism() + 1) },
  },
});
/** @param {string} message */
function usageError(message) {
  process.stderr.write(`✗ ${message}\n`);
  process.exit(2);
}

const reporter = REPORTERS[/** @type {keyof typeof REPORTERS} */ (values.reporter)];
if (reporter === undefined) usageError(`--reporter ${values.reporter}: one of ${Object.keys(REPORTERS).join(', ')}`);
for (const name of /** @type {const} */ (['timeout', 'concurrency'])) {
  if (!(Number(values[name]) > 0)) usageError(`--${name} ${values[name]}: a positive number`);
}

const all = readdirSync(join(root, 'test')).filter((f) => f.endsWith('.test.ts')).map((f) => `test/${f}`);
const chosen = positionals.length > 0 ? positionals.map((f) => f.replace(/^\.\//, '')) : all.filter((f) => !(values.unit && NOT_UNIT.test(f)));
const unknown = chosen.filter((f) => !all.includes(f));
if (unknown.length > 0) usageError(`not a test file: ${unknown.join(', ')} (test/NAME.test.ts)`);

// A folder of this run's own, so two runs at once (the matrix beside the fast loop) do not replace each other's files.
const outdir = join(root, 'node_modules', '.cache', 'byhand-tests', `run-${process.pid}`);
const bundles = await bundleTests(root, chosen, outdir);
const sourceOf = new Map([...bundles].map(([source, bundle]) => [bundle, source]));

// What a test leaves in the run's temporary folder fails the run, named (test-runner/temp-folder.mjs).
const temp = runTempFolder(process.env);

// Each test process (node:test starts them with this process's execArgv) reports its own time at exit.
const timesLog = join(root, 'node_modules', '.cache', `byhand-test-times-${process.pid}.log`);
process.env.BYHAND_TEST_TIMES_LOG = timesLog;
process.execArgv.push('--import', pathToFileURL(join(root, 'tools', 'test-runner', 'time-file.mjs')).href);

let failed = false;
const stream = run({ files: longestFirst(root, chosen).map((f) => /** @type {string} */ (bundles.get(f))), concurrency: Number(values.concurrency), timeout: Number(values.timeout) });
const mapFailure = failureMapper(outdir);
// The listener runs as the event is emitted, before the reporter reads it from the stream.
stream.on('test:fail', (event) => {
  try {
    mapFailure(event);
  } catch (error) {
    // An error that cannot be mapped is reported as it came; the run goes on.
    process.stderr.write(`(a stack was left unmapped: ${/** @type {Error} */ (error).message})\n`);
  }
  if (event.nesting === 0) failed = true;
});
stream.compose(reporter).pipe(process.stdout);
await new Promise((resolve) => stream.once('end', resolve));
keepTimes(root, timesLog, sourceOf);
rmSync(outdir, { recursive: true, force: true });
const leftBehind = temp.close();
if (leftBehind !== undefined) {
  failed = true;
  process.stderr.write(`✗ ${leftBehind}\n`);
}
process.exitCode = failed ? 1 : 0;
