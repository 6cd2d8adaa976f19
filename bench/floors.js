// The floors: the benchmark's requests hand-built, with no MCP library at all, over bare fetch and
// over raw node:http with a keep-alive agent. What any client pays at least on each way out.
// Each request is byte for byte the one byhand sends in this benchmark, its id aside: the same body (the envelope
// byhand makes with its default clientInfo, sampling and the tasks extension declared; the same members in the same
// order) and the same headers in the same order, node:http adding Host, Connection and Content-Length to both. So a
// server reads the same bytes from a floor as from byhand, and what differs per call is the client's own work.
// test/bench-floors.test.ts records both on one server and holds them to it.

import { Agent, request } from 'node:http';
/** @import { CreateMessageResult } from '@byhand/client' */

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': { sampling: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'byhand', version: '0.2.0' },
};
/** A sampling answer, for byhand's host, the SDK client and the floors alike. @satisfies {CreateMessageResult} */
export const ANSWER = { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'bench', stopReason: 'endTurn' };

/**
 * A request's parameters: `name` (a tool's) also goes in the Mcp-Name header.
 * @typedef {{ name?: string, [key: string]: unknown }} Params
 */
/**
 * Sends one request and resolves with the `result` of its JSON-RPC answer, as parsed.
 * @typedef {(method: string, params: Params) => Promise<any>} Post
 */

/**
 * @param {string} method
 * @param {string} [name]
 */
function headersFor(method, name) {
  /** @type {Record<string, string>} */
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': method };
  if (name) headers['mcp-name'] = name;
  return headers;
}

/**
 * @param {number} id
 * @param {string} method
 * @param {Params} params
 */
const bodyFor = (id, method, params) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });

/** @param {Post} post */
function calls(post) {
  return {
    discover: () => post('server/discover', {}),
    simple: () => post('tools/call', { name: 'simple_text', arguments: {} }),
    mrtr: async () => {
      const params = { name: 'probe_sampling', arguments: { topic: 'tea' } };
      const first = await post('tools/call', params);
      if (first.resultType !== 'input_required') throw new Error('floor: expected input_required');
      return post('tools/call', { ...params, inputResponses: { think: ANSWER } });
    },
  };
}

/**
 * Bare fetch (undici on Node).
 * @param {string} url
 */
export function fetchFloor(url) {
  let id = 0;
  return {
    ...calls(async (method, params) => {
      const response = await fetch(url, { method: 'POST', headers: headersFor(method, params.name), body: bodyFor(++id, method, params) });
      return (await response.json()).result;
    }),
    close: () => undefined,
  };
}

/**
 * Raw node:http, one keep-alive agent, the body collected and parsed.
 * @param {string | URL} url
 */
export function nodeFloor(url) {
  // A keep-alive agent as people write one, with no idle timeout: that option costs a timer per socket,
  // refreshed on every read and write, which byhand's requester does without (requester-node.ts).
  const agent = new Agent({ keepAlive: true });
  let id = 0;
  /** @type {Post} */
  const post = (method, params) =>
    new Promise((resolve, reject) => {
      const body = bodyFor(++id, method, params);
      // No Content-Length of ours: node:http counts a body given whole to end(), as it does for byhand.
      const req = request(url, { method: 'POST', agent, headers: headersFor(method, params.name) }, (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')).result);
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  return { ...calls(post), close: () => agent.destroy() };
}
