// Client benchmark: byhand's client against @modelcontextprotocol/client 2.4.0 (versionNegotiation
// 'auto', so both speak 2026-07-28), on the same local SDK server in a child process.

import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import {
  BYHAND_CLIENT, SDK_CLIENT, ROOT, cpuSince, fileUrl, int, kb, median, ms, p95, ratio, runNode, startChild, us,
} from './lib.js';

const ANSWER = { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'bench', stopReason: 'endTurn' };

// ---- start-up ---------------------------------------------------------------------

function importScript(path) {
  const target = path ? `await import(${JSON.stringify(fileUrl(path))});` : '';
  return `const t = performance.now(); ${target} process.stdout.write(String(performance.now() - t));`;
}

async function startup({ runs }) {
  const variants = { baseline: null, byhand: BYHAND_CLIENT, sdk: SDK_CLIENT };
  const wall = { baseline: [], byhand: [], sdk: [] };
  const inside = { baseline: [], byhand: [], sdk: [] };
  const names = Object.keys(variants);
  // One warm-up each (file system cache), then rounds in rotating order.
  for (const name of names) await runNode(['--input-type=module', '-e', importScript(variants[name])]);
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length];
      const { ms: elapsed, stdout } = await runNode(['--input-type=module', '-e', importScript(variants[name])]);
      wall[name].push(elapsed);
      inside[name].push(Number(stdout));
    }
  }
  const base = median(wall.baseline);
  const result = {};
  for (const name of ['byhand', 'sdk']) {
    result[name] = { wall: median(wall[name]), net: median(wall[name]) - base, inside: median(inside[name]), insideP95: p95(inside[name]) };
  }
  return { base, ...result };
}

async function coldCall(url, { runs }) {
  const variants = { byhand: BYHAND_CLIENT, sdk: SDK_CLIENT, 'byhand-node': BYHAND_CLIENT };
  const names = Object.keys(variants);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      const started = performance.now();
      const { stdout } = await runNode(['bench/cold-child.js', name, url, variants[name]]);
      samples[name].push({ ...JSON.parse(stdout), wallMs: performance.now() - started });
    }
  }
  const out = {};
  for (const name of names) {
    const pick = (key) => median(samples[name].map((s) => s[key]));
    out[name] = { importMs: pick('importMs'), connectMs: pick('connectMs'), callMs: pick('callMs'), wallMs: pick('wallMs') };
  }
  return out;
}

// ---- warm latency -------------------------------------------------------------------

/** The floor: the same requests as hand-built bodies over bare fetch, no client library at all. */
function rawCalls(url) {
  const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } };
  let id = 0;
  const post = async (name, params) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, ...params, _meta: META } }),
    });
    return (await response.json()).result;
  };
  return {
    simple: () => post('simple_text', { arguments: {} }),
    mrtr: async () => {
      const first = await post('probe_sampling', { arguments: { topic: 'tea' } });
      if (first.resultType !== 'input_required') throw new Error('floor: expected input_required');
      return post('probe_sampling', { arguments: { topic: 'tea' }, inputResponses: { think: ANSWER } });
    },
  };
}

async function makeClients(url) {
  const { connect } = await import(fileUrl(BYHAND_CLIENT));
  const { Client, StreamableHTTPClientTransport } = await import(fileUrl(SDK_CLIENT));
  const { nodeFetch } = await import('./node-fetch.js');
  const host = { sample: async () => ANSWER };
  const byhand = await connect(url, { host });
  const byhandNode = await connect(url, { host, fetch: nodeFetch });
  const sdk = new Client({ name: 'bench', version: '1' }, { capabilities: { sampling: {} }, versionNegotiation: { mode: 'auto' } });
  sdk.setRequestHandler('sampling/createMessage', async () => ANSWER);
  await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
  if (byhand.era !== 'modern' || byhandNode.era !== 'modern' || sdk.getProtocolEra() !== 'modern') {
    throw new Error(`every client must negotiate the modern era (byhand: ${byhand.era}, sdk: ${sdk.getProtocolEra()})`);
  }
  // What a host does first; it also primes each client's tool cache (byhand's Mcp-Param headers, the SDK's output checks).
  await byhand.listTools();
  await byhandNode.listTools();
  await sdk.listTools();
  const check = (expected) => (result) => {
    const text = result.content?.[0]?.text;
    if (text !== expected) throw new Error(`unexpected result ${JSON.stringify(result).slice(0, 200)}`);
  };
  const simple = check('This is a simple text response for testing.');
  const sampled = check('model said: ok');
  const raw = rawCalls(url);
  return {
    close: () => Promise.all([byhand.close(), byhandNode.close(), sdk.close()]),
    calls: {
      simple: {
        byhand: () => byhand.callTool('simple_text', {}).then(simple),
        sdk: () => sdk.callTool({ name: 'simple_text', arguments: {} }).then(simple),
        floor: () => raw.simple().then(simple),
        byhandNode: () => byhandNode.callTool('simple_text', {}).then(simple),
      },
      mrtr: {
        byhand: () => byhand.callTool('probe_sampling', { topic: 'tea' }).then(sampled),
        sdk: () => sdk.callTool({ name: 'probe_sampling', arguments: { topic: 'tea' } }).then(sampled),
        floor: () => raw.mrtr().then(sampled),
        byhandNode: () => byhandNode.callTool('probe_sampling', { topic: 'tea' }).then(sampled),
      },
    },
  };
}

/**
 * Blocks of `block` calls per variant, the order rotating every round so none always goes first,
 * `iterations` measured calls per variant after `warmup` each. Bounded by maxMs.
 */
async function latency(calls, { iterations, warmup, block, maxMs }) {
  const names = Object.keys(calls);
  const warming = performance.now();
  for (let i = 0; i < warmup && performance.now() - warming < maxMs; i++) for (const name of names) await calls[name]();
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
  const out = {};
  for (const name of names) out[name] = { n: lat[name].length, median: median(lat[name]), p95: p95(lat[name]), cpuPerCall: cpu[name] / lat[name].length };
  return out;
}

/** HTTP requests each client puts on the wire per call, as the server counted them. */
async function wireCounts(server, calls) {
  const out = {};
  for (const name of ['byhand', 'sdk']) {
    await server.call({ type: 'reset' });
    for (let i = 0; i < 5; i++) await calls[name]();
    const { counts } = await server.call({ type: 'stats' });
    out[name] = Object.values(counts).reduce((a, b) => a + b, 0) / 5;
  }
  return out;
}

// ---- bundle size -------------------------------------------------------------------------

async function bundleSize(entry) {
  const result = await build({
    ...entry,
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: ROOT,
  });
  const code = result.outputFiles[0].contents;
  const inputs = Object.keys(result.metafile.inputs);
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length, inputs: inputs.length };
}

async function bundles() {
  const used = (contents) => ({ stdin: { contents, resolveDir: ROOT, loader: 'js' } });
  return {
    byhand: await bundleSize({ entryPoints: [BYHAND_CLIENT] }),
    sdk: await bundleSize({ entryPoints: [SDK_CLIENT] }),
    byhandUsed: await bundleSize(used(`export { connect } from ${JSON.stringify(BYHAND_CLIENT)};`)),
    sdkUsed: await bundleSize(used(`export { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';`)),
  };
}

// ---- the section ----------------------------------------------------------------------------

// JIT settles slowly: per-call CPU keeps dropping for the first few hundred calls (measured), hence the long warm-up.
const ITERATIONS = 300;
const STARTUP_RUNS = 11;
const COLD_RUNS = 5;
const WARMUP = 300;

export async function clientBenchmark(options) {
  const { quick } = options;
  const started = performance.now();
  const start = await startup({ runs: quick ? 3 : STARTUP_RUNS });
  const size = await bundles();

  const server = startChild('server-child.js', ['sdk'], { name: 'reference server' });
  let warm;
  let cold;
  let wire;
  try {
    const { urls } = await server.ready;
    cold = await coldCall(urls.simple, { runs: quick ? 2 : COLD_RUNS });
    const clients = await makeClients(urls.simple);
    try {
      const plan = { iterations: quick ? 40 : ITERATIONS, warmup: quick ? 20 : WARMUP, block: 10, maxMs: 15_000 };
      warm = { simple: await latency(clients.calls.simple, plan), mrtr: await latency(clients.calls.mrtr, plan) };
      wire = { simple: await wireCounts(server, clients.calls.simple), mrtr: await wireCounts(server, clients.calls.mrtr) };
    } finally {
      await clients.close();
    }
  } finally {
    await server.stop();
  }

  const rows = [
    ['import, fresh node process (wall, raw)', ms(start.byhand.wall), ms(start.sdk.wall), ratio(start.sdk.wall, start.byhand.wall)],
    [`import, net of bare node (${ms(start.base)})`, ms(start.byhand.net), ms(start.sdk.net), ratio(start.sdk.net, start.byhand.net)],
    ['import, timed inside the process', ms(start.byhand.inside), ms(start.sdk.inside), ratio(start.sdk.inside, start.byhand.inside)],
    ...[
      ['connectMs', 'cold: connect (era probe) in a fresh process'],
      ['callMs', 'cold: first tools/call in a fresh process'],
      ['wallMs', 'cold: whole process (import+connect+call+exit)'],
    ].map(([key, label]) => [label, ms(cold.byhand[key]), ms(cold.sdk[key]), ratio(cold.sdk[key], cold.byhand[key]), '', ms(cold['byhand-node'][key])]),
  ];
  for (const [key, label] of [['simple', 'tools/call simple_text'], ['mrtr', 'tools/call probe_sampling (2-round MRTR)']]) {
    const w = warm[key];
    const row = (what, f, fmt) => rows.push([`${label}: ${what}`, fmt(f(w.byhand)), fmt(f(w.sdk)), ratio(f(w.sdk), f(w.byhand)), fmt(f(w.floor)), fmt(f(w.byhandNode))]);
    row('median', (r) => r.median, ms);
    row('p95', (r) => r.p95, ms);
    row('client CPU per call', (r) => r.cpuPerCall, us);
    rows.push([`${label}: HTTP requests per call`, String(wire[key].byhand), String(wire[key].sdk), '', '', '']);
  }
  rows.push(['bundle, whole entry: min', kb(size.byhand.min), kb(size.sdk.min), ratio(size.sdk.min, size.byhand.min)]);
  rows.push(['bundle, whole entry: min+gzip', `${kb(size.byhand.gzip)} (${int(size.byhand.gzip)} B)`, `${kb(size.sdk.gzip)} (${int(size.sdk.gzip)} B)`, ratio(size.sdk.gzip, size.byhand.gzip)]);
  rows.push(['bundle, what a caller imports: min+gzip', kb(size.byhandUsed.gzip), kb(size.sdkUsed.gzip), ratio(size.sdkUsed.gzip, size.byhandUsed.gzip)]);
  rows.push(['bundle: source files pulled in', String(size.byhand.inputs), String(size.sdk.inputs), '']);

  const startRatio = start.sdk.net / start.byhand.net;
  const callRatios = [warm.simple.sdk.median / warm.simple.byhand.median, warm.mrtr.sdk.median / warm.mrtr.byhand.median];
  const cpuRatios = [warm.simple.sdk.cpuPerCall / warm.simple.byhand.cpuPerCall, warm.mrtr.sdk.cpuPerCall / warm.mrtr.byhand.cpuPerCall];
  const verdict = (ok) => (ok ? 'met' : 'NOT met');
  const targets = [
    `start-up at least 2x faster (net import): ${verdict(startRatio >= 2)} (${startRatio.toFixed(2)}x)`,
    `tools/call at least 2x faster (warm median latency): ${verdict(Math.min(...callRatios) >= 2)} (simple ${callRatios[0].toFixed(2)}x, MRTR ${callRatios[1].toFixed(2)}x); client CPU per call: simple ${cpuRatios[0].toFixed(2)}x, MRTR ${cpuRatios[1].toFixed(2)}x`,
    `under 10 KB min+gzip: ${verdict(size.byhand.gzip < 10 * 1024)} (${int(size.byhand.gzip)} B whole entry, ${int(size.byhandUsed.gzip)} B for connect alone)`,
  ];
  return {
    title: 'Client: byhand vs @modelcontextprotocol/client 2.4.0',
    header: ['measure', 'byhand', 'SDK client', 'SDK / byhand', 'floor: bare fetch', 'byhand on node:http (experiment)'],
    rows,
    targets,
    notes: [
      `Both clients negotiate 2026-07-28 against the same SDK reference server (createMcpHandler, bench/sdk-server.js) running in a child process; the clients run in the bench process, taking turns in blocks of 10 calls with the order rotating every round, ${warm.simple.byhand.n} measured calls each after ${quick ? 20 : WARMUP} warm-up calls each; the host answers sampling at once.`,
      `Start-up: ${quick ? 3 : STARTUP_RUNS} fresh \`node --input-type=module -e "await import(...)"\` processes per client in rotating order, medians; "net" subtracts a bare node doing nothing. Cold rows: ${quick ? 2 : COLD_RUNS} fresh processes each (bench/cold-child.js).`,
      'Client CPU per call: user+system CPU of the bench process (where only the client runs) over the measured calls, divided by the calls; latency also contains the server\'s time, which is the same for both.',
      'floor: the same requests hand-built over bare fetch with no client library (what any fetch-based client pays at least). byhand on node:http (experiment): byhand with `connect(url, {fetch})` given bench/node-fetch.js, a node:http keep-alive request answering with a minimal Response-like object; an experiment, not something byhand ships.',
      'Bundles: esbuild 0.28, bundle+minify, platform node, format esm, gzip level 9 (node:zlib). "Whole entry" bundles the package entry (dist/client/index.js; @modelcontextprotocol/client dist/index.mjs); "what a caller imports" bundles only `connect` / `Client` + `StreamableHTTPClientTransport`.',
    ],
    seconds: (performance.now() - started) / 1000,
    raw: { start, cold, warm, wire, size },
  };
}
