// The load generator, in its own process: plain fetch and JSON (no MCP library), bounded concurrency,
// bounded by a count AND a time. One "call" is a full tools/call: for an MRTR tool, round 1, the
// scripted sampling answer (or a declined elicitation), and round 2. Told what to do over IPC: {type: 'run', ...plan}.

/** @import { ChildMessage } from './lib.js' */
/**
 * What to load: one tool on one server, `args` its arguments.
 * @typedef {{ url: string, tool: string, args: Record<string, unknown> }} Target
 */
/**
 * A run: `concurrency` workers sharing `calls`, none starting one after `maxMs`.
 * @typedef {Target & { concurrency: number, calls: number, maxMs: number }} LoadPlan
 */

// Only over IPC: every answer goes back to the parent (lib.js startChild).
if (!process.send) throw new Error('loadgen.js runs as a child of the benchmark (lib.js startChild), with an IPC channel');
const send = process.send.bind(process);

const ANSWER = { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'bench', stopReason: 'endTurn' };
/** Every elicitation is declined: the Cookie Jar's forget_note then keeps its note, so the call can repeat. */
const DECLINE = { action: 'decline' };
const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'bench-loadgen', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { sampling: {}, elicitation: {} },
};

let nextId = 0;

/**
 * One tools/call request; resolves with the `result` of its JSON-RPC answer, as parsed.
 * @param {string} url
 * @param {string} tool
 * @param {Record<string, unknown>} params
 * @returns {Promise<any>}
 */
async function post(url, tool, params) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method: 'tools/call', params: { ...params, _meta: META } });
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': tool,
    },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (!type.includes('application/json')) throw new Error(`HTTP ${response.status} ${type}: ${text.slice(0, 200)}`);
  const message = JSON.parse(text);
  if (message.error) throw new Error(`HTTP ${response.status} error ${JSON.stringify(message.error).slice(0, 200)}`);
  return message.result;
}

/**
 * One full call; resolves with the number of HTTP requests it took. At most 4 rounds.
 * @param {string} url
 * @param {string} tool
 * @param {Record<string, unknown>} args
 */
async function call(url, tool, args) {
  const params = { name: tool, arguments: args };
  let result = await post(url, tool, params);
  let requests = 1;
  while (result.resultType === 'input_required') {
    if (requests >= 4) throw new Error('more than 4 rounds');
    /** @type {Record<string, unknown>} */
    const inputResponses = {};
    for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
      if (request.method === 'sampling/createMessage') inputResponses[key] = ANSWER;
      else if (request.method === 'elicitation/create') inputResponses[key] = DECLINE;
      else throw new Error(`unexpected input request ${request.method}`);
    }
    /** @type {Record<string, unknown>} */
    const retry = { ...params, inputResponses };
    if (result.requestState !== undefined) retry.requestState = result.requestState;
    result = await post(url, tool, retry);
    requests++;
  }
  if (result.isError || !Array.isArray(result.content)) throw new Error(`tool error: ${JSON.stringify(result).slice(0, 200)}`);
  return requests;
}

/** What a run measured, sent back to the parent. @typedef {Awaited<ReturnType<typeof load>>} LoadResult */

/**
 * `concurrency` workers share one budget of `calls`; none starts a call after `maxMs`.
 * @param {LoadPlan} plan
 */
async function load({ url, tool, args, concurrency, calls, maxMs }) {
  /** @type {number[]} */
  const latencies = [];
  let issued = 0;
  let requests = 0;
  let errors = 0;
  /** @type {string | undefined} */
  let firstError;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const worker = async () => {
    while (issued < calls && performance.now() - started < maxMs) {
      issued++;
      const t = performance.now();
      try {
        const used = await call(url, tool, args);
        requests += used;
        latencies.push(performance.now() - t);
      } catch (error) {
        errors++;
        const failure = /** @type {Error & { cause?: { code?: string, message?: string } }} */ (error);
        firstError ??= failure.cause ? `${failure.message}: ${failure.cause.code ?? failure.cause.message}` : failure.message;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  return {
    calls: latencies.length,
    requests,
    errors,
    firstError,
    elapsedMs,
    latencies,
    loadgenCpu: (cpu.user + cpu.system) / 1000 / elapsedMs,
  };
}

process.on('message', async (data) => {
  const message = /** @type {ChildMessage} */ (data);
  if (message.type === 'stop') process.exit(0);
  if (message.type !== 'run') return;
  try {
    const result = await load(/** @type {ChildMessage & LoadPlan} */ (message));
    send({ id: message.id, ...result });
  } catch (error) {
    send({ id: message.id, error: /** @type {Error} */ (error).message });
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
