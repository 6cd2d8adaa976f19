// `byhand bridge` in front of a server, against the same calls made direct: byhand's client calls the canned
// server (bench/canned-server.js) itself, and through `byhand bridge URL --listen` in a process of its own
// (bench/bridge-child.js), the two interleaved. What the bridge adds to a warm tools/call, how many calls 16
// callers get through it, and whether its heap stays flat over many calls.

import { BYHAND_CLIENT, fig, fileUrl, int, kb, median, ms, startChild, times } from './lib.js';
/** @import { BenchOptions, Goal, Section } from './lib.js' */

const PLAN = {
  full: { iterations: 600, warmup: 300, block: 20, concurrency: 16, perSlice: 1500, slices: 3, maxMs: 15_000, heapCalls: 10_000 },
  quick: { iterations: 60, warmup: 30, block: 10, concurrency: 16, perSlice: 100, slices: 1, maxMs: 3000, heapCalls: 500 },
};

/**
 * @param {BenchOptions} options
 * @returns {Promise<Section>}
 */
export async function bridgeBenchmark(options) {
  const plan = options.quick ? PLAN.quick : PLAN.full;
  const started = performance.now();
  const canned = startChild('canned-server.js', [], { name: 'canned server' });
  /** @type {ReturnType<typeof startChild> | undefined} */
  let bridge;
  /** @type {{ close(): Promise<void> }[]} */
  const clients = [];
  try {
    const { urls } = await canned.ready;
    bridge = startChild('bridge-child.js', [urls.simple], { name: 'bridge', execArgv: ['--expose-gc'] });
    const { urls: bridged } = await bridge.ready;
    const { connect } = /** @type {typeof import('@byhand/client')} */ (await import(fileUrl(BYHAND_CLIENT)));
    const direct = await connect(urls.simple, { transport: 'node' });
    clients.push(direct);
    const through = await connect(bridged.simple, { transport: 'node' });
    clients.push(through);
    if (direct.era !== 'modern' || through.era !== 'modern') throw new Error(`both must speak the modern era (direct ${direct.era}, bridged ${through.era})`);
    await direct.listTools();
    await through.listTools();
    /** @param {import('@byhand/client').Client} client */
    const call = async (client) => {
      const result = await client.callTool('simple_text', {});
      if (result.content[0]?.type !== 'text') throw new Error(`unexpected result ${JSON.stringify(result).slice(0, 200)}`);
    };
    const variants = { direct: () => call(direct), bridged: () => call(through) };
    const names = /** @type {(keyof typeof variants)[]} */ (Object.keys(variants));

    // Sequential: blocks per variant, the order rotating.
    for (let i = 0; i < plan.warmup; i++) for (const name of names) await variants[name]();
    /** @type {Record<string, number[]>} */
    const latency = { direct: [], bridged: [] };
    const sequentialStart = performance.now();
    for (let round = 0; round * plan.block < plan.iterations && performance.now() - sequentialStart < plan.maxMs; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(round + k) % names.length];
        for (let i = 0; i < plan.block; i++) {
          const t = performance.now();
          await variants[name]();
          latency[name].push(performance.now() - t);
        }
      }
    }

    // 16 callers: slices per variant, rotating, after one unmeasured slice each.
    /** @type {Record<string, { calls: number, ms: number }>} */
    const load = { direct: { calls: 0, ms: 0 }, bridged: { calls: 0, ms: 0 } };
    for (let s = -1; s < plan.slices; s++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(Math.max(s, 0) + k) % names.length];
        let issued = 0;
        const t = performance.now();
        await Promise.all(Array.from({ length: plan.concurrency }, async () => {
          while (issued < plan.perSlice && performance.now() - t < plan.maxMs) {
            issued++;
            await variants[name]();
          }
        }));
        if (s >= 0) {
          load[name].calls += issued;
          load[name].ms += performance.now() - t;
        }
      }
    }

    // The bridge's heap after a full collection, before and after many calls, 16 at a time.
    const heapBefore = /** @type {number} */ ((await bridge.call({ type: 'stats' })).heapUsed);
    let issued = 0;
    await Promise.all(Array.from({ length: plan.concurrency }, async () => {
      while (issued < plan.heapCalls) {
        issued++;
        await variants.bridged();
      }
    }));
    const heapAfter = /** @type {number} */ ((await bridge.call({ type: 'stats' })).heapUsed);

    const p50 = { direct: median(latency.direct), bridged: median(latency.bridged) };
    const perSec = { direct: (load.direct.calls / load.direct.ms) * 1000, bridged: (load.bridged.calls / load.bridged.ms) * 1000 };
    /** @type {Goal[]} */
    const goals = [
      { label: 'warm tools/call through the bridge / direct (median), at most 1.15x', figure: fig(p50.bridged / p50.direct, times), met: (x) => x <= 1.15 },
      { label: 'what the bridge adds to a warm tools/call (median), under 1 ms', figure: fig(p50.bridged - p50.direct, ms), met: (x) => x < 1 },
      { label: '16 concurrent callers through the bridge / direct, calls/s, at least 0.85x', figure: fig(perSec.bridged / perSec.direct, times), met: (x) => x >= 0.85 },
      { label: `the bridge's heap growth over ${int(plan.heapCalls)} calls (after gc), under 1 MB`, figure: fig(heapAfter - heapBefore, kb), met: (x) => x < 1024 * 1024 },
    ];
    return {
      title: 'Bridge: byhand bridge --listen in front of a server, against the same calls direct',
      header: ['measure', 'direct', 'through the bridge'],
      rows: [
        ['warm tools/call, median', fig(p50.direct, ms), fig(p50.bridged, ms)],
        ['16 concurrent callers, calls/s', fig(perSec.direct, int), fig(perSec.bridged, int)],
        [`the bridge's heap after gc, before and after ${int(plan.heapCalls)} calls`, fig(heapBefore, kb), fig(heapAfter, kb)],
      ],
      goals,
      notes: [
        "The server is the canned server (bench/canned-server.js, modern era, fixed JSON) in a process of its own; the bridge is `byhand bridge URL --listen 127.0.0.1:0` as the CLI runs it, in another (bench/bridge-child.js, with --expose-gc); the caller is byhand's client on node:http, one client direct and one through the bridge, in the bench process.",
        `Sequential: blocks of ${plan.block} calls per variant, the order rotating, ${plan.iterations} measured calls each after ${plan.warmup} warm-up calls each. 16 callers: ${plan.slices} slices of up to ${plan.perSlice} calls per variant, rotating, after one unmeasured slice each. Heap: the bridge process's heapUsed after global.gc(), before and after ${int(plan.heapCalls)} calls made 16 at a time (after everything above).`,
      ],
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([bridge?.stop(), canned.stop()]);
  }
}
