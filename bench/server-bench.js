// Server benchmark: byhand's toolboxes (startServer) against the SDK's example-style server
// (bench/sdk-server.js), each in its own process, loaded by bench/loadgen.js in a third.

import { fig, int, median, ms, p95, startChild, times, us } from './lib.js';
/** @import { BenchOptions, Cell, Child, Goal, Section } from './lib.js' */
/** @import { LoadResult, Target } from './loadgen.js' */
/**
 * One slice's figures: the load generator's and the server's CPU and memory over it.
 * @typedef {LoadResult & { serverCpuUs: number, rss: number }} Slice
 */
/** @typedef {ReturnType<typeof summarise>} Summary */
/** @typedef {keyof typeof SERVERS} ServerName */
/**
 * A workload at one concurrency: the summary for each server that has the workload (every workload has byhand and sdk).
 * @typedef {{ id: string, label: string, concurrency: number, byhand: Summary, edge?: Summary, sdk: Summary }} Result
 */

/** The issue asks for every toolbox at 8 and at 64 concurrent callers. */
const CONCURRENCIES = [8, 64];
/** A toolbox / the SDK reference, calls/s, at or above this is the target met: at least as fast as the SDK doing the same. */
const TARGET = 1;
/** The servers take turns in this many slices per workload, so background load on the machine falls on all of them alike. */
const SLICES = 5;

/**
 * Warm-up calls on every server, before any is measured.
 * @param {Child} loadgen
 * @param {Target} target
 * @param {number} calls
 * @param {number} concurrency
 */
async function warm(loadgen, target, calls, concurrency) {
  await loadgen.call({ type: 'run', ...target, concurrency, calls, maxMs: 1500 }, 20_000);
}

/**
 * One slice of the measurement on one server: its share of the calls and of the time.
 * @param {Child} server
 * @param {Child} loadgen
 * @param {Target} target
 * @param {{ calls: number, maxMs: number, concurrency: number }} share
 * @returns {Promise<Slice>}
 */
async function slice(server, loadgen, target, { calls, maxMs, concurrency }) {
  const before = await server.call({ type: 'stats' });
  const result = /** @type {LoadResult} */ (await loadgen.call({ type: 'run', ...target, concurrency, calls, maxMs }, maxMs + 20_000));
  const after = await server.call({ type: 'stats' });
  return { ...result, serverCpuUs: after.cpuUs - before.cpuUs, rss: after.rss };
}

/** @param {Slice[]} slices */
function summarise(slices) {
  /** @param {'calls' | 'elapsedMs' | 'serverCpuUs' | 'requests' | 'errors'} key */
  const sum = (key) => slices.reduce((a, s) => a + s[key], 0);
  const calls = sum('calls');
  const elapsedMs = sum('elapsedMs');
  const serverCpuUs = sum('serverCpuUs');
  const latencies = slices.flatMap((s) => s.latencies);
  return {
    calls,
    requests: sum('requests'),
    errors: sum('errors'),
    firstError: slices.find((s) => s.firstError)?.firstError,
    elapsedMs,
    callsPerSec: (calls / elapsedMs) * 1000,
    requestsPerSec: (sum('requests') / elapsedMs) * 1000,
    median: median(latencies),
    p95: p95(latencies),
    serverCpuPerCall: serverCpuUs / Math.max(1, calls),
    serverBusy: serverCpuUs / 1000 / elapsedMs,
    loadgenCpu: slices.reduce((a, s) => a + s.loadgenCpu * s.elapsedMs, 0) / elapsedMs,
  };
}

const SERVERS = {
  byhand: { script: ['byhand'], label: 'byhand startServer' },
  edge: { script: ['byhand-edge'], label: 'byhand edge, reference tools' },
  sdk: { script: ['sdk'], label: 'SDK reference' },
};

/**
 * @param {BenchOptions} options
 * @returns {Promise<Section>}
 */
export async function serverBenchmark(options) {
  const { quick } = options;
  const started = performance.now();
  const children = Object.fromEntries(Object.entries(SERVERS).map(([name, s]) => [name, startChild('server-child.js', s.script, { name: s.label })]));
  const loadgen = startChild('loadgen.js', [], { name: 'load generator' });
  const warmup = quick ? 50 : 200;
  const maxMs = quick ? 1500 : 4000;
  /** @type {Result[]} */
  const results = [];
  try {
    const ready = await Promise.all([...Object.values(children).map((c) => c.ready), loadgen.ready]);
    const urls = Object.fromEntries(Object.keys(SERVERS).map((name, i) => [name, ready[i].urls]));
    const sdkMrtr = { url: urls.sdk.mrtr, tool: 'probe_sampling', args: { topic: 'tea' } };
    /** @type {{ id: string, label: string, calls: number, setup?: Target, byhand: Target, edge?: Target, sdk: Target }[]} */
    const workloads = [
      {
        id: 'simple',
        label: 'Everything, one-round tools/call',
        calls: quick ? 300 : 2000,
        byhand: { url: urls.byhand.simple, tool: 'test_simple_text', args: {} },
        edge: { url: urls.edge.simple, tool: 'simple_text', args: {} },
        sdk: { url: urls.sdk.simple, tool: 'simple_text', args: {} },
      },
      {
        id: 'mrtr',
        label: 'Probe, 2-round MRTR probe_sampling',
        calls: quick ? 150 : 1000,
        byhand: { url: urls.byhand.mrtr, tool: 'probe_sampling', args: { topic: 'tea' } },
        edge: { url: urls.edge.mrtr, tool: 'probe_sampling', args: { topic: 'tea' } },
        sdk: sdkMrtr,
      },
      {
        id: 'kitchen',
        label: 'Kitchen, 2-round MRTR summarise_week',
        calls: quick ? 150 : 1000,
        byhand: { url: urls.byhand.kitchen, tool: 'summarise_week', args: { depth: 'brief' } },
        sdk: sdkMrtr,
      },
      {
        id: 'jar',
        label: 'Cookie Jar, 2-round forget_note (requestState), declined',
        calls: quick ? 150 : 1000,
        // Note #1, put once below: every call asks to forget it, mints and verifies a requestState, and keeps it.
        setup: { url: urls.byhand.jar, tool: 'put_note', args: { text: 'bench', ttl_seconds: 86_400 } },
        byhand: { url: urls.byhand.jar, tool: 'forget_note', args: { id: 1 } },
        sdk: sdkMrtr,
      },
    ];
    const names = /** @type {ServerName[]} */ (Object.keys(SERVERS));
    for (const workload of workloads) {
      if (workload.setup) await loadgen.call({ type: 'run', ...workload.setup, concurrency: 1, calls: 1, maxMs: 5000 }, 20_000);
    }
    for (const concurrency of CONCURRENCIES) {
      for (const workload of workloads) {
        const present = names.filter((name) => workload[name]);
        // Only the servers with this workload are present: each has its target.
        /** @param {ServerName} name */
        const targetOf = (name) => /** @type {Target} */ (workload[name]);
        for (const name of present) await warm(loadgen, targetOf(name), warmup, concurrency);
        /** @type {Record<string, Slice[]>} */
        const slices = Object.fromEntries(present.map((name) => [name, []]));
        const share = { calls: Math.ceil(workload.calls / SLICES), maxMs: maxMs / SLICES, concurrency };
        for (let round = 0; round < SLICES; round++) {
          for (let k = 0; k < present.length; k++) {
            const name = present[(round + k) % present.length];
            slices[name].push(await slice(children[name], loadgen, targetOf(name), share));
          }
        }
        results.push(/** @type {Result} */ ({ id: workload.id, label: workload.label, concurrency, ...Object.fromEntries(present.map((name) => [name, summarise(slices[name])])) }));
      }
    }
  } finally {
    await Promise.all([...Object.values(children).map((c) => c.stop()), loadgen.stop()]);
  }

  /** @type {Cell[][]} */
  const rows = [];
  const percent = (/** @type {number} */ x) => `${(x * 100).toFixed(0)}%`;
  for (const w of results) {
    /**
     * @param {string} what
     * @param {(r: Summary) => number} f
     * @param {(value: number) => string} format
     */
    const row = (what, f, format, withRatio = true) => {
      /** @param {Summary | undefined} r */
      const cell = (r) => (r ? fig(f(r), format) : '—');
      /** @param {Summary | undefined} r */
      const rel = (r) => (withRatio && r ? fig(f(r) / f(w.sdk), times) : '');
      rows.push([`${w.label}, ${w.concurrency} concurrent: ${what}`, cell(w.byhand), cell(w.edge), cell(w.sdk), rel(w.byhand), rel(w.edge)]);
    };
    row('calls/s', (r) => r.callsPerSec, int);
    row('HTTP requests/s', (r) => r.requestsPerSec, int);
    row('median latency', (r) => r.median, ms);
    row('p95 latency', (r) => r.p95, ms);
    row('server CPU per call', (r) => r.serverCpuPerCall, us);
    row('server CPU busy', (r) => r.serverBusy, percent, false);
    row('load generator CPU busy', (r) => r.loadgenCpu, percent, false);
    row('calls measured', (r) => r.calls, int, false);
    row('errors', (r) => r.errors, int, false);
  }
  const failures = results.flatMap((w) => /** @type {ServerName[]} */ (Object.keys(SERVERS)).flatMap((n) => ((w[n]?.errors ?? 0) > 0 ? [`${SERVERS[n].label}: ${w[n]?.firstError}`] : [])));
  if (failures.length) process.stderr.write(`bench: server: errors during the load: ${failures.join('; ')}\n`);
  /** @type {Goal[]} */
  const goals = results.flatMap((w) => [
    { label: `${w.label}, ${w.concurrency} concurrent: byhand startServer / the SDK reference, calls/s, at least ${TARGET}x`, figure: fig(w.byhand.callsPerSec / w.sdk.callsPerSec, times), met: (x) => x >= TARGET },
    ...(w.edge ? [{ label: `${w.label}, ${w.concurrency} concurrent: byhand's edge with the reference tools / the SDK reference, calls/s, at least ${TARGET}x`, figure: fig(w.edge.callsPerSec / w.sdk.callsPerSec, times), met: (/** @type {number} */ x) => x >= TARGET }] : []),
  ]);
  const errors = results.reduce((sum, w) => sum + w.byhand.errors + (w.edge?.errors ?? 0) + w.sdk.errors, 0);
  goals.push({ label: 'calls that failed under load, on any server', figure: fig(errors, int), met: (x) => x === 0 });
  return {
    title: 'Server: byhand toolboxes (startServer) vs the SDK example-style server, 8 and 64 concurrent',
    header: ['measure', SERVERS.byhand.label, SERVERS.edge.label, SERVERS.sdk.label, 'startServer / SDK', 'edge / SDK'],
    rows,
    goals,
    notes: [
      "byhand startServer: startServer({toolboxes: ['probe', 'everything', 'kitchen', 'cookie-jar']}) from dist/servers/serve.js (the Cookie Jar in memory). Everything: test_simple_text; Probe: probe_sampling; Kitchen: summarise_week; Cookie Jar: forget_note on a note put once before, declined (round 1 mints a requestState, round 2 verifies it). Everything is byhand's conformance toolbox: it registers about 40 tools, resources and prompts, on a fresh McpServer per request (createMcpHandler's factory).",
      "The SDK reference has no Kitchen or Cookie Jar: those two are compared with its 2-round probe_sampling, the same shape of exchange (the Kitchen's round 1 carries a longer prompt; the Jar's rounds carry a signed requestState).",
      "byhand edge, reference tools: byhand's mountToolbox (Host/Origin checks, body cap, era routing, the node adapter of serve.ts) serving bench/sdk-server.js's two tools: the edge's own cost.",
      'SDK reference: createMcpHandler over a minimal buffering node:http adapter, Host/Origin checks as the SDK docs show, tools simple_text and probe_sampling (bench/sdk-server.js).',
      `Load: bench/loadgen.js in its own process, fetch + JSON, ${CONCURRENCIES.join(' and ')} concurrent workers, ${quick ? '300 / 150' : '2000 one-round / 1000 MRTR'} calls or ${maxMs / 1000} s per server, whichever comes first, after ${warmup} warm-up calls on each at that concurrency; one MRTR call = round 1, the scripted answer (sampling: a fixed text; elicitation: decline), round 2 (2 HTTP requests). One server is loaded at a time, in ${SLICES} turns each per workload, the order rotating, so other load on the machine spreads over all of them.`,
      "Each server runs in its own process; server CPU per call = that process's user+system CPU over the measured window / calls (it can pass 100% busy: GC threads). Ratios are byhand / SDK: above 1 is better for calls/s, worse for latency and CPU.",
    ],
    seconds: (performance.now() - started) / 1000,
    raw: results,
  };
}
