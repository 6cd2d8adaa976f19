// Client benchmark, one run, everything side by side: byhand's client on node:http (the default on
// Node) and on fetch, @modelcontextprotocol/client 2.4.0 (versionNegotiation 'auto', so every client
// speaks 2026-07-28), and the two floors with no MCP library (bare fetch, raw node:http keep-alive;
// bench/floors.js). Against two servers in a child process each: the SDK reference server and a canned
// node:http server that costs next to nothing (bench/canned-server.js), so a client's own cost shows.

import { fetchFloor, nodeFloor, ANSWER } from './floors.js';
import {
  BYHAND_CLIENT, BYHAND_CLIENT_MODULES, SDK_CLIENT, cpuSince, fig, fileUrl, int, kb, mb, median, ms, p95, runNode, startChild, times, us,
} from './lib.js';
/** @import { BenchOptions, Cell, Child, Goal, Section } from './lib.js' */
/** @typedef {'byhand' | 'byhandFetch' | 'sdk' | 'fetch' | 'node'} Variant */
/** What a benchmark checks of a tool's result, whichever client returned it. @typedef {{ content?: { type: string, text?: unknown }[] }} ToolResult */
/** One call by each variant (its result checked). @typedef {Record<string, () => Promise<void>>} Calls */
/** @typedef {typeof PLAN.full} Plan */

/** @type {Variant[]} */
const VARIANTS = ['byhand', 'byhandFetch', 'sdk', 'fetch', 'node'];
/** @type {Record<Variant, string>} */
const LABELS = { byhand: 'byhand (node:http)', byhandFetch: 'byhand (fetch)', sdk: 'SDK client', fetch: 'bare fetch', node: 'raw node:http' };

// ---- start-up ---------------------------------------------------------------------

/** @param {string | null} path a module to import, or none (bare node) */
function importScript(path) {
  const target = path ? `await import(${JSON.stringify(fileUrl(path))});` : '';
  return `const t = performance.now(); ${target} process.stdout.write(String(performance.now() - t));`;
}

/**
 * @param {{ runs: number }} options
 * @returns {Promise<{ base: number } & Partial<Record<Variant, number>>>}
 */
async function startup({ runs }) {
  /** @type {Record<string, string | null>} */
  const variants = { baseline: null, byhand: BYHAND_CLIENT, sdk: SDK_CLIENT };
  /** @type {Record<string, number[]>} */
  const wall = { baseline: [], byhand: [], sdk: [] };
  const names = Object.keys(variants);
  // One warm-up each (file system cache), then rounds in rotating order.
  for (const name of names) await runNode(['--input-type=module', '-e', importScript(variants[name])]);
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length];
      wall[name].push((await runNode(['--input-type=module', '-e', importScript(variants[name])])).ms);
    }
  }
  const base = median(wall.baseline);
  return { base, byhand: median(wall.byhand) - base, sdk: median(wall.sdk) - base };
}

/**
 * Whole fresh processes (import, connect, one call, exit), wall time from spawn to exit, rotating order.
 * @param {string} url
 * @param {{ runs: number }} options
 */
async function coldProcess(url, { runs }) {
  /** @type {Record<string, [kind: string, client: string]>} */
  const kinds = {
    byhand: ['byhand', BYHAND_CLIENT],
    byhandFetch: ['byhand-fetch', BYHAND_CLIENT],
    sdk: ['sdk', SDK_CLIENT],
    node: ['node-http', ''],
    byhandModules: ['byhand', BYHAND_CLIENT_MODULES],
  };
  const names = Object.keys(kinds);
  /** @type {Record<string, number[]>} */
  const wall = Object.fromEntries(names.map((n) => [n, []]));
  /** @param {string} name */
  const once = (name) => runNode(['bench/cold-child.js', kinds[name][0], url, kinds[name][1]]);
  for (const name of names) await once(name);
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      wall[name].push((await once(name)).ms);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(wall[n])]));
}

/**
 * Heap growth over `calls` calls, each client in its own fresh process (bench/memory-child.js).
 * @param {string} url
 * @param {{ calls: number }} options
 */
async function memory(url, { calls }) {
  const kinds = { byhand: 'byhand', byhandFetch: 'byhand-fetch', sdk: 'sdk', node: 'node-http' };
  /** @type {Record<string, { calls: number, heapBefore: number, heapAfter: number, rss: number }>} */
  const out = {};
  for (const [name, kind] of Object.entries(kinds)) {
    const { stdout } = await runNode(['--expose-gc', 'bench/memory-child.js', kind, url, name === 'sdk' ? SDK_CLIENT : BYHAND_CLIENT, String(calls)], { timeoutMs: 90_000 });
    out[name] = JSON.parse(stdout);
  }
  return out;
}

// ---- warm calls ---------------------------------------------------------------------

/** @param {string} url */
async function makeClients(url) {
  const { connect } = /** @type {typeof import('@byhand/client')} */ (await import(fileUrl(BYHAND_CLIENT)));
  const { Client, StreamableHTTPClientTransport } = /** @type {typeof import('@modelcontextprotocol/client')} */ (await import(fileUrl(SDK_CLIENT)));
  const host = { sample: async () => ANSWER };
  const byhand = await connect(url, { host, transport: 'node' });
  const byhandFetch = await connect(url, { host, transport: 'fetch' });
  const sdk = new Client({ name: 'bench', version: '1' }, { capabilities: { sampling: {} }, versionNegotiation: { mode: 'auto' } });
  sdk.setRequestHandler('sampling/createMessage', async () => ANSWER);
  await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
  if (byhand.era !== 'modern' || byhandFetch.era !== 'modern' || sdk.getProtocolEra() !== 'modern') {
    throw new Error(`every client must negotiate the modern era (byhand: ${byhand.era}, sdk: ${sdk.getProtocolEra()})`);
  }
  // What a host does first; it also primes each client's tool cache (byhand's Mcp-Param headers, the SDK's output checks).
  await byhand.listTools();
  await byhandFetch.listTools();
  await sdk.listTools();
  /** @param {string} expected */
  const check = (expected) => (/** @type {ToolResult} */ result) => {
    const text = result.content?.[0]?.text;
    if (text !== expected) throw new Error(`unexpected result ${JSON.stringify(result).slice(0, 200)}`);
  };
  const simple = check('This is a simple text response for testing.');
  const sampled = check('model said: ok');
  const floors = { fetch: fetchFloor(url), node: nodeFloor(url) };
  return {
    close: async () => {
      await Promise.all([byhand.close(), byhandFetch.close(), sdk.close()]);
      floors.node.close();
    },
    simple: {
      byhand: () => byhand.callTool('simple_text', {}).then(simple),
      byhandFetch: () => byhandFetch.callTool('simple_text', {}).then(simple),
      sdk: () => sdk.callTool({ name: 'simple_text', arguments: {} }).then(simple),
      fetch: () => floors.fetch.simple().then(simple),
      node: () => floors.node.simple().then(simple),
    },
    mrtr: {
      byhand: () => byhand.callTool('probe_sampling', { topic: 'tea' }).then(sampled),
      byhandFetch: () => byhandFetch.callTool('probe_sampling', { topic: 'tea' }).then(sampled),
      sdk: () => sdk.callTool({ name: 'probe_sampling', arguments: { topic: 'tea' } }).then(sampled),
      fetch: () => floors.fetch.mrtr().then(sampled),
      node: () => floors.node.mrtr().then(sampled),
    },
  };
}

/**
 * Sequential calls: blocks of `block` calls per variant, the order rotating every round so none
 * always goes first, `iterations` measured calls per variant after `warmup` each. Bounded by maxMs.
 * @param {Calls} calls
 * @param {Plan['latency']} plan
 */
async function latency(calls, { iterations, warmup, block, maxMs }) {
  const names = Object.keys(calls);
  const warming = performance.now();
  for (let i = 0; i < warmup && performance.now() - warming < maxMs; i++) for (const name of names) await calls[name]();
  /** @type {Record<string, number[]>} */
  const lat = Object.fromEntries(names.map((n) => [n, []]));
  const cpu = Object.fromEntries(names.map((n) => [n, 0]));
  const started = performance.now();
  for (let round = 0; round * block < iterations; round++) {
    if (performance.now() - started > maxMs) break;
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < block; i++) {
        const t = performance.now();
        await calls[name]();
        lat[name].push(performance.now() - t);
      }
      cpu[name] += cpuSince(cpu0);
    }
  }
  /** @type {Record<string, { n: number, median: number, p95: number, cpuPerCall: number }>} */
  const out = {};
  for (const name of names) out[name] = { n: lat[name].length, median: median(lat[name]), p95: p95(lat[name]), cpuPerCall: cpu[name] / lat[name].length };
  return out;
}

/**
 * `concurrency` callers at once, in slices that rotate between variants; calls per second over all slices, and
 * the client's and the server's CPU per call (the server reports its own, over IPC).
 * @param {Calls} calls
 * @param {Plan['throughput']} plan
 * @param {Child} server
 */
async function throughput(calls, { concurrency, perSlice, slices, maxMs }, server) {
  const names = Object.keys(calls);
  const done = Object.fromEntries(names.map((n) => [n, 0]));
  const elapsed = Object.fromEntries(names.map((n) => [n, 0]));
  const clientCpu = Object.fromEntries(names.map((n) => [n, 0]));
  const serverCpu = Object.fromEntries(names.map((n) => [n, 0]));
  const serverUs = async () => /** @type {number} */ ((await server.call({ type: 'stats' })).cpuUs);
  for (let s = -1; s < slices; s++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(Math.max(s, 0) + k) % names.length];
      let issued = 0;
      let finished = 0;
      const serverBefore = await serverUs();
      const cpu0 = process.cpuUsage();
      const started = performance.now();
      const worker = async () => {
        while (issued < perSlice && performance.now() - started < maxMs) {
          issued++;
          await calls[name]();
          finished++;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      const ended = performance.now();
      const cpu = cpuSince(cpu0);
      // Slice -1 warms every variant up at this concurrency and is not counted.
      if (s >= 0) {
        done[name] += finished;
        elapsed[name] += ended - started;
        clientCpu[name] += cpu;
        serverCpu[name] += (await serverUs()) - serverBefore;
      }
    }
  }
  return Object.fromEntries(names.map((n) => [n, { perSec: (done[n] / elapsed[n]) * 1000, clientCpuPerCall: clientCpu[n] / done[n], serverCpuPerCall: serverCpu[n] / done[n] }]));
}

/**
 * @param {string} url
 * @param {Plan} plan
 * @param {Child} server
 */
async function onServer(url, plan, server) {
  const clients = await makeClients(url);
  try {
    return {
      simple: await latency(clients.simple, plan.latency),
      mrtr: await latency(clients.mrtr, plan.latency),
      concurrent: await throughput(clients.simple, plan.throughput, server),
    };
  } finally {
    await clients.close();
  }
}

// ---- the section ----------------------------------------------------------------------------

const PLAN = {
  full: {
    latency: { iterations: 400, warmup: 300, block: 10, maxMs: 15_000 },
    throughput: { concurrency: 16, perSlice: 1500, slices: 3, maxMs: 1500 },
    startupRuns: 9,
    coldRuns: 11,
    memoryCalls: 10_000,
  },
  quick: {
    latency: { iterations: 40, warmup: 20, block: 10, maxMs: 3000 },
    throughput: { concurrency: 16, perSlice: 100, slices: 1, maxMs: 500 },
    startupRuns: 2,
    coldRuns: 2,
    memoryCalls: 500,
  },
};

/**
 * @param {BenchOptions} options
 * @returns {Promise<Section>}
 */
export async function clientBenchmark(options) {
  const plan = options.quick ? PLAN.quick : PLAN.full;
  const started = performance.now();
  const start = await startup({ runs: plan.startupRuns });

  const canned = startChild('canned-server.js', [], { name: 'canned server' });
  const reference = startChild('server-child.js', ['sdk'], { name: 'reference server' });
  /** @type {Record<string, Awaited<ReturnType<typeof onServer>>>} */
  const results = {};
  /** @type {Awaited<ReturnType<typeof coldProcess>>} */
  let cold;
  /** @type {Awaited<ReturnType<typeof memory>>} */
  let mem;
  try {
    const [{ urls: cannedUrls }, { urls: sdkUrls }] = await Promise.all([canned.ready, reference.ready]);
    results.canned = await onServer(cannedUrls.simple, plan, canned);
    results.sdk = await onServer(sdkUrls.simple, plan, reference);
    cold = await coldProcess(cannedUrls.simple, { runs: plan.coldRuns });
    mem = await memory(cannedUrls.simple, { calls: plan.memoryCalls });
  } finally {
    await Promise.all([canned.stop(), reference.stop()]);
  }

  /** @type {Cell[][]} */
  const rows = [];
  /**
   * @param {string} label
   * @param {(v: Variant) => number | undefined} pick
   * @param {(x: number) => string} format
   */
  const row = (label, pick, format) => rows.push([label, ...VARIANTS.map((v) => fig(pick(v), format))]);
  for (const [server, title] of [['canned', 'canned server'], ['sdk', 'SDK server']]) {
    const r = results[server];
    row(`${title}: tools/call, median`, (v) => r.simple[v].median, ms);
    row(`${title}: tools/call, p95`, (v) => r.simple[v].p95, ms);
    row(`${title}: tools/call, client CPU per call`, (v) => r.simple[v].cpuPerCall, us);
    row(`${title}: two-round MRTR, median`, (v) => r.mrtr[v].median, ms);
    row(`${title}: two-round MRTR / two plain calls`, (v) => r.mrtr[v].median / (2 * r.simple[v].median), times);
    row(`${title}: 16 concurrent callers, calls/s`, (v) => r.concurrent[v].perSec, int);
    row(`${title}: 16 concurrent callers, client CPU per call`, (v) => r.concurrent[v].clientCpuPerCall, us);
    row(`${title}: 16 concurrent callers, server CPU per call`, (v) => r.concurrent[v].serverCpuPerCall, us);
  }
  row('cold process: import, connect, one call, exit (canned server)', (v) => cold[v], ms);
  row("cold process, byhand's unbundled dist/ (about twenty ES modules)", (v) => (v === 'byhand' ? cold.byhandModules : undefined), ms);
  row(`memory: heap growth after ${int(plan.memoryCalls)} calls (after gc)`, (v) => (mem[v] ? mem[v].heapAfter - mem[v].heapBefore : undefined), kb);
  row(`memory: heap after ${int(plan.memoryCalls)} calls (after gc)`, (v) => mem[v]?.heapAfter, mb);
  row('memory: RSS at the end', (v) => mem[v]?.rss, mb);
  row('import, fresh process, net of bare node', (v) => start[v], ms);

  const c = results.canned;
  const s = results.sdk;
  /** @type {Goal[]} */
  const goals = [
    { label: 'warm tools/call, byhand / raw node:http keep-alive (canned server, median), at most 1.05x', figure: fig(c.simple.byhand.median / c.simple.node.median, times), met: (x) => x <= 1.05 },
    { label: 'the same on the SDK server', figure: fig(s.simple.byhand.median / s.simple.node.median, times), met: (x) => x <= 1.15 },
    { label: 'warm tools/call, SDK client / byhand (canned server, median), at least 2.5x', figure: fig(c.simple.sdk.median / c.simple.byhand.median, times), met: (x) => x >= 2.5 },
    { label: 'the same on the SDK server', figure: fig(s.simple.sdk.median / s.simple.byhand.median, times), met: (x) => x >= 2, note: "the SDK server's own time is in both" },
    { label: '16 concurrent callers, byhand / raw node:http calls/s (canned server), at least 0.95x', figure: fig(c.concurrent.byhand.perSec / c.concurrent.node.perSec, times), met: (x) => x >= 0.95 },
    { label: "16 concurrent callers, the canned server's CPU per byhand call / per raw node:http call, at most 1.05x", figure: fig(c.concurrent.byhand.serverCpuPerCall / c.concurrent.node.serverCpuPerCall, times), met: (x) => x <= 1.05 },
    { label: '16 concurrent callers, byhand / raw node:http calls/s (SDK server), at least 0.9x', figure: fig(s.concurrent.byhand.perSec / s.concurrent.node.perSec, times), met: (x) => x >= 0.9 },
    { label: 'cold process, byhand / a bare node:http script doing the same two requests, at most 1.2x', figure: fig(cold.byhand / cold.node, times), met: (x) => x <= 1.2 },
    { label: 'two-round MRTR / two plain calls (SDK server, median), at most 1.1x', figure: fig(s.mrtr.byhand.median / (2 * s.simple.byhand.median), times), met: (x) => x <= 1.1, note: 'on the canned server a second request right after a first costs less than a lone one for every column, the floors too, so there the ratio says nothing about a client' },
    { label: 'byhand on fetch / bare fetch (canned server, median), at most 1.1x', figure: fig(c.simple.byhandFetch.median / c.simple.fetch.median, times), met: (x) => x <= 1.1 },
  ];
  const L = plan.latency;
  return {
    title: 'Client: byhand vs @modelcontextprotocol/client 2.4.0 vs the floors',
    header: ['measure', ...VARIANTS.map((v) => LABELS[v])],
    rows,
    goals,
    notes: [
      'Columns: byhand\'s client with `transport: \'node\'` (node:http with a keep-alive agent, the default on Node) and `transport: \'fetch\'`; the SDK client (`versionNegotiation: {mode: \'auto\'}`); bare fetch and raw node:http (keep-alive agent): byhand\'s own requests, byte for byte but the id, hand-built with no MCP library (bench/floors.js; test/bench-floors.test.ts holds them to it). Every client speaks 2026-07-28 and first lists the tools, as a host does.',
      'Servers, each in its own child process: the canned server (bench/canned-server.js: node:http answering fixed JSON, so the client\'s own cost shows; the targets are read here) and the SDK reference server (bench/sdk-server.js: createMcpHandler, the SDK\'s own example shape).',
      `Sequential rows: blocks of ${L.block} calls per variant, the order rotating every round, ${L.iterations} measured calls each after ${L.warmup} warm-up calls each (bounded by ${L.maxMs / 1000} s per series). Client CPU per call: user+system CPU of the bench process (where only the clients run) over the measured calls. A two-round MRTR call is round 1 (input_required), the host's sampling answer (at once), round 2.`,
      `16 concurrent callers: one client per variant shared by 16 callers, ${plan.throughput.slices} slices of up to ${plan.throughput.perSlice} calls (or ${plan.throughput.maxMs} ms) per variant in rotating order, after one unmeasured slice each. Client CPU per call: the bench process's user+system CPU over the slices; server CPU per call: the server process's own, reported over IPC before and after each slice.`,
      'Cold process: byhand as Node loads it, the "node" condition of @byhand/client (dist/node/, the bundle of packages/client/bundle-node.mjs, a few files); the unbundled dist/ of about twenty ES modules is run the same way, to show what the bundle saves.',
      `Cold process: ${plan.coldRuns} fresh processes per variant in rotating order (bench/cold-child.js), median wall time from spawn to exit: import, connect (byhand and the SDK probe the era with server/discover; the node:http script sends server/discover too), one tools/call, close. Import: ${plan.startupRuns} fresh \`node -e "await import(...)"\` processes, net of a bare node (${ms(start.base)}).`,
      `Memory: each client in a fresh \`node --expose-gc\` process (bench/memory-child.js): 200 warm-up calls, gc, heap; ${int(plan.memoryCalls)} calls 16 at a time, gc, heap again.`,
    ],
    seconds: (performance.now() - started) / 1000,
    raw: { start, results, cold, mem },
  };
}
