// The checkpoint's pools: every item once, results in input order, never more than the bound in flight, and the
// workers started one per event-loop turn (so the first probe's request leaves before the last probe is set up); the
// probes follow the command's interrupt through one listener.

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, test } from './support/node-test.js';
import { mapBounded, mapByKind } from '../packages/byhand/src/checkpoint/bounded.ts';
import { followAbort } from '../packages/byhand/src/shared/follow-abort.ts';

describe('checkpoint pools', () => {
  test('mapBounded keeps the order, does every item once and holds the bound', { timeout: 10_000 }, async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    const results = await mapBounded(Array.from({ length: 40 }, (_, i) => i), 7, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      seen.push(n);
      await new Promise((resolve) => setTimeout(resolve, (n * 7) % 5));
      inFlight--;
      return n * 2;
    });
    assert.deepEqual(results, Array.from({ length: 40 }, (_, i) => i * 2));
    assert.deepEqual([...seen].sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i));
    assert.equal(peak, 7);
  });

  test('a worker starts only after the event loop has turned, so I/O started by the one before it runs first', { timeout: 10_000 }, async () => {
    const order: string[] = [];
    // No item finishes before all three have started (a timer here could fire before the next check phase on a
    // loaded machine and let worker 0 take item 2 first): the last item's callback opens the gate.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    await mapBounded([0, 1, 2], 3, async (n) => {
      order.push(`start ${n}`);
      // An I/O-phase callback queued by this item: it must run before the next item starts.
      setImmediate(() => {
        order.push(`io ${n}`);
        if (n === 2) open();
      });
      await gate;
    });
    assert.deepEqual(order, ['start 0', 'io 0', 'start 1', 'io 1', 'start 2', 'io 2']);
  });

  test('mapByKind runs each kind in its own pool and puts the results back in input order', { timeout: 10_000 }, async () => {
    const peaks = { http: 0, stdio: 0 };
    const live = { http: 0, stdio: 0 };
    const items = Array.from({ length: 30 }, (_, i) => ({ i, kind: i % 3 === 0 ? ('stdio' as const) : ('http' as const) }));
    const results = await mapByKind(items, (item) => item.kind, { http: 5, stdio: 2 }, async (item) => {
      live[item.kind]++;
      peaks[item.kind] = Math.max(peaks[item.kind], live[item.kind]);
      await new Promise((resolve) => setTimeout(resolve, 2));
      live[item.kind]--;
      return item.i;
    });
    assert.deepEqual(results, items.map((item) => item.i));
    assert.deepEqual(peaks, { http: 5, stdio: 2 });
  });
});

describe('probes under one interrupt', () => {
  test('followAbort: one listener on the signal for any number of followers, each called once, none after unfollowing', { timeout: 10_000 }, () => {
    const interrupt = new AbortController();
    const other = new AbortController();
    const calls: number[] = [];
    const unfollows = Array.from({ length: 300 }, (_, i) => followAbort(interrupt.signal, () => calls.push(i)));
    followAbort(other.signal, () => calls.push(-1));
    assert.equal(getEventListeners(interrupt.signal, 'abort').length, 1);
    for (const unfollow of unfollows.filter((_, i) => i % 2 === 1)) unfollow();
    interrupt.abort();
    interrupt.abort();
    assert.deepEqual(calls, Array.from({ length: 150 }, (_, i) => 2 * i));
    assert.equal(getEventListeners(interrupt.signal, 'abort').length, 0);
    other.abort();
    assert.equal(calls.at(-1), -1);
  });
});
