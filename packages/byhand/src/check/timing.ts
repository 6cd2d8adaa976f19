// Timing: the cold start (connect, the era negotiated) and every exchange check made, slowest first.

import { add, type CheckContext } from './context.js';

/** Cold start and per-request times, slowest first. */
export function checkTiming(ctx: CheckContext, coldStartMs: number | undefined): void {
  if (coldStartMs !== undefined) add(ctx, { area: 'timing', id: 'timing.cold-start', status: 'pass', title: `connect (cold start, era negotiated): ${coldStartMs} ms` });
  if (ctx.timings.length === 0) return;
  const sorted = [...ctx.timings].sort((a, b) => b.ms - a.ms);
  const median = sorted[Math.floor(sorted.length / 2)].ms;
  add(ctx, { area: 'timing', id: 'timing.requests', status: 'pass', title: `${ctx.timings.length} requests, median ${median} ms; slowest: ${sorted.slice(0, 3).map((t) => `${t.what} ${t.ms} ms`).join(', ')}` });
}
