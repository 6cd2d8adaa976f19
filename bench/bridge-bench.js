// `byhand bridge` in front of a server, against the same calls made direct: byhand's client calls the canned
// server (bench/canned-server.js) itself, through `byhand bridge URL --listen` in a process of its own
// (bench/bridge-child.js), and through a bare node:http relay with no MCP in it (bench/relay-child.js: the floor of
// any hop), the three interleaved. What the bridge adds to a warm tools/call, how many calls 16 callers get through
// it and what each costs the bridge's process, and whether its heap stays flat over many calls.

import { BYHAND_CLIENT, fig, fileUrl, int, kb, median, ms, startChild, times, us } from './lib.js';
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
  /** @type {ReturnType<typeof startChild> | undefined} */
  let relay;
  /** @type {{ close(): Promise<void> }[]} */
  const clients = [];
  try {
    const { urls } = await canned.ready;
    bridge = startChild('bridge-child.js', [urls.simple], { name: 'bridge', execArgv: ['--expose-gc'] });
    const { urls: bridged } = await bridge.ready;
    relay = startChild('relay-child.js', [urls.simple], { name: 'relay' });
    const { urls: relayed } = await relay.ready;
    const { connect } = /** @type {typeof import('@byhand/client')} */ (await import(fileUrl(BYHAND_CLIENT)));
    const direct = await connect(urls.simple, { transport: 'node' });
    clients.push(direct);
    const through = await connect(bridged.simple, { transport: 'node' });
    clients.push(through);
    const floor = await connect(relayed.simple, { transport: 'node' });
    clients.push(floor);
    if (direct.era !== 'modern' || through.era !== 'modern' || floor.era !== 'modern') throw new Error(`all must speak the modern era (direct ${direct.era}, bridged ${through.era}, relayed ${floor.era})`);
    for (const client of [direct, through, floor]) await client.listTools();
    /** @param {import('@byhand/client').Client} client */
    const call = async (client) => {
      const result = await client.callTool('simple_text', {});
      if (result.content[0]?.type !== 'text') throw new Error(`unexpected result ${JSON.stringify(result).slice(0, 200)}`);
    };
    const variants = { direct: () => call(direct), relayed: () => call(floor), bridged: () => call(through) };
    /** The CPU time of the process each variant's calls pass through, besides the server's. */
    const hop = { relayed: relay, bridged: bridge };
    const names = /** @type {(keyof typeof variants)[]} */ (Object.keys(variants));

    // Sequential: blocks per variant, the order rotating.
    for (let i = 0; i < plan.warmup; i++) for (const name of names) await variants[name]();
    /** @type {Record<string, number[]>} */
    const latency = { direct: [], relayed: [], bridged: [] };
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
    /** @type {Record<string, { calls: number, ms: number, hopCpuUs: number }>} */
    const load = { direct: { calls: 0, ms: 0, hopCpuUs: 0 }, relayed: { calls: 0, ms: 0, hopCpuUs: 0 }, bridged: { calls: 0, ms: 0, hopCpuUs: 0 } };
    for (let s = -1; s < plan.slices; s++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(Math.max(s, 0) + k) % names.length];
        const through = name === 'direct' ? undefined : hop[name];
        const cpuBefore = through ? /** @type {number} */ ((await through.call({ type: 'cpu' })).cpuUs) : 0;
        let issued = 0;
        const t = performance.now();
        await Promise.all(Array.from({ length: plan.concurrency }, async () => {
          while (issued < plan.perSlice && performance.now() - t < plan.maxMs) {
            issued++;
            await variants[name]();
          }
        }));
        const ms = performance.now() - t;
        const cpuAfter = through ? /** @type {number} */ ((await through.call({ type: 'cpu' })).cpuUs) : 0;
        if (s >= 0) {
          load[name].calls += issued;
          load[name].ms += ms;
          load[name].hopCpuUs += cpuAfter - cpuBefore;
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

    const p50 = { direct: median(latency.direct), relayed: median(latency.relayed), bridged: median(latency.bridged) };
    const perSec = { direct: (load.direct.calls / load.direct.ms) * 1000, relayed: (load.relayed.calls / load.relayed.ms) * 1000, bridged: (load.bridged.calls / load.bridged.ms) * 1000 };
    const hopCpu = { relayed: load.relayed.hopCpuUs / load.relayed.calls, bridged: load.bridged.hopCpuUs / load.bridged.calls };
        // The targets are against the floor of a hop (issue 45): a relay with no MCP in it already costs most of what a
    // hop costs, on the same two cores as the caller and the server; against the direct call they are shown, not held.
    /** @type {Goal[]} */
    const goals = [
      { label: 'warm tools/call through the bridge / through the bare relay (median), at most 1.15x', figure: fig(p50.bridged / p50.relayed, times), met: (x) => x <= 1.15 },
      { label: '16 concurrent callers through the bridge / through the bare relay, calls/s, at least 0.9x', figure: fig(perSec.bridged / perSec.relayed, times), met: (x) => x >= 0.9 },
      { label: `the bridge's heap growth over ${int(plan.heapCalls)} calls (after gc), under 1 MB`, figure: fig(heapAfter - heapBefore, kb), met: (x) => x < 1024 * 1024 },
    ];
    return {
      title: 'Bridge: byhand bridge --listen in front of a server, against the same calls direct and through a bare relay',
      header: ['measure', 'direct', 'through a bare node:http relay (the floor of a hop)', 'through the bridge'],
      rows: [
        ['warm tools/call, median', fig(p50.direct, ms), fig(p50.relayed, ms), fig(p50.bridged, ms)],
        ['16 concurrent callers, calls/s', fig(perSec.direct, int), fig(perSec.relayed, int), fig(perSec.bridged, int)],
        ['16 concurrent callers, CPU per call of the process in between', '', fig(hopCpu.relayed, us), fig(hopCpu.bridged, us)],
        ['warm tools/call / direct', '', fig(p50.relayed / p50.direct, times), fig(p50.bridged / p50.direct, times)],
        ['16 concurrent callers, calls/s / direct', '', fig(perSec.relayed / perSec.direct, times), fig(perSec.bridged / perSec.direct, times)],
        [`the bridge's heap after gc, before ${int(plan.heapCalls)} calls`, '', '', fig(heapBefore, kb)],
        [`the bridge's heap after gc, after ${int(plan.heapCalls)} calls`, '', '', fig(heapAfter, kb)],
      ],
      goals,
      notes: [
        "The server is the canned server (bench/canned-server.js, modern era, fixed JSON) in a process of its own; the bridge is `byhand bridge URL --listen 127.0.0.1:0` as the CLI runs it, in another (bench/bridge-child.js, with --expose-gc); the bare relay (bench/relay-child.js) reads each POST whole and sends it on with its MCP headers over a keep-alive agent, no MCP in it, in a third; the caller is byhand's client on node:http, one client per way, in the bench process.",
        'A hop is a second HTTP exchange per call, parsed and written on both sides, on the same two cores as the caller and the server: the bare relay shows what that costs at least, so the ratios to it are what the bridge itself adds.',
        `Sequential: blocks of ${plan.block} calls per variant, the order rotating, ${plan.iterations} measured calls each after ${plan.warmup} warm-up calls each. 16 callers: ${plan.slices} slices of up to ${plan.perSlice} calls per variant, rotating, after one unmeasured slice each. Heap: the bridge process's heapUsed after global.gc(), before and after ${int(plan.heapCalls)} calls made 16 at a time (after everything above).`,
      ],
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([bridge?.stop(), relay?.stop(), canned.stop()]);
  }
}
