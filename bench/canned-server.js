// The canned server: node:http answering the few requests the client benchmark makes with fixed JSON
// (the bodies the SDK reference server sends, bench/sdk-server.js), so that the server costs next to
// nothing and a client's own cost shows. Modern era only; a request it does not know gets -32601.
// `startCannedServer()` in-process, or `node bench/canned-server.js` as a child over IPC (lib.js startChild).

import { createServer } from 'node:http';
/** @import { AddressInfo } from 'node:net' */
/** @import { ChildMessage } from './lib.js' */

const META = { 'io.modelcontextprotocol/serverInfo': { name: 'canned', version: '1' } };
/** @type {Record<string, object>} */
const RESULTS = {
  'server/discover': { supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true } }, resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: META },
  'tools/list': {
    tools: [
      { name: 'simple_text', description: 'Returns one text block', inputSchema: { type: 'object', properties: {} } },
      { name: 'probe_sampling', description: 'Asks for sampling by returning input_required', inputSchema: { type: 'object', properties: { topic: { default: 'soup', type: 'string', maxLength: 200 } } } },
    ],
    resultType: 'complete',
    ttlMs: 0,
    cacheScope: 'private',
    _meta: META,
  },
  simple_text: { content: [{ type: 'text', text: 'This is a simple text response for testing.' }], resultType: 'complete', _meta: META },
  ask: {
    resultType: 'input_required',
    inputRequests: { think: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'In one sentence: what is worth knowing about tea?' } }], maxTokens: 100 } } },
    _meta: META,
  },
  sampled: { content: [{ type: 'text', text: 'model said: ok' }], structuredContent: { topic: 'tea', answer: 'ok' }, resultType: 'complete', _meta: META },
};
// A request body is bounded like any server's: past this the connection is cut.
const MAX_BODY = 1 << 20;

/**
 * The answer to one parsed JSON-RPC request.
 * @param {{ id?: string | number | null, method: string, params?: { name?: string, inputResponses?: Record<string, unknown> } }} message
 */
function answer(message) {
  const { id, method, params } = message;
  let result;
  if (method === 'tools/call') {
    if (params?.name === 'simple_text') result = RESULTS.simple_text;
    else if (params?.name === 'probe_sampling') result = params.inputResponses?.think ? RESULTS.sampled : RESULTS.ask;
  } else {
    result = RESULTS[method];
  }
  if (result === undefined) return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } };
  return { jsonrpc: '2.0', id, result };
}

/**
 * `onRequest(method, mcpMethod)` sees every HTTP request (for counting).
 * @param {{ onRequest?: (method: string | undefined, mcpMethod: string | string[] | undefined) => void }} [options]
 */
export async function startCannedServer({ onRequest } = {}) {
  const http = createServer((req, res) => {
    onRequest?.(req.method, req.headers['mcp-method']);
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      let body;
      try {
        body = JSON.stringify(answer(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      } catch {
        body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
  await /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', resolve);
  }));
  const url = `http://127.0.0.1:${/** @type {AddressInfo} */ (http.address()).port}/mcp`;
  return {
    url,
    async close() {
      const closed = new Promise((resolve) => http.close(resolve));
      http.closeAllConnections();
      await closed;
    },
  };
}

// As a child (lib.js startChild): 'ready' with the URL, 'stats' with its CPU time, 'stop'.
if (process.send && process.argv[1] && import.meta.url.endsWith(/** @type {string} */ (process.argv[1].split('/').pop()))) {
  const send = process.send.bind(process);
  const server = await startCannedServer();
  process.on('message', async (data) => {
    const message = /** @type {ChildMessage} */ (data);
    if (message.type === 'stats') {
      const used = process.cpuUsage();
      send({ id: message.id, cpuUs: used.user + used.system });
    } else if (message.type === 'stop') {
      await Promise.race([server.close(), new Promise((r) => setTimeout(r, 2000))]);
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', urls: { simple: server.url, mrtr: server.url } });
}
