// Loaded into each test process by the runner: at exit, how long the process ran, for the next run's order.
// The runner collects the lines (order.mjs); a process that crashes before its exit handler is simply not timed.

import { appendFileSync } from 'node:fs';

const log = process.env.BYHAND_TEST_TIMES_LOG;
if (log !== undefined) {
  process.once('exit', () => appendFileSync(log, `${JSON.stringify({ file: process.argv[1], ms: Math.round(performance.now()) })}\n`));
}
