// The floor under the bridge's pipe face: a bare stdio-to-HTTP relay with no MCP in it, run as a host runs a stdio
// server. Each line on stdin is POSTed as it is, with the headers a 2026 request carries (read off the body, as the
// bridge makes them), over a keep-alive agent; each answer goes back as one line on stdout (each event's data, for an
// event stream). What any process between a pipe host and an HTTP server costs at least.

import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
/** @import { IncomingMessage } from 'node:http' */

const target = new URL(process.argv[2] ?? '');
const agent = new Agent({ keepAlive: true });
const NAMED = new Set(['tools/call', 'resources/read', 'prompts/get']);

/** @param {IncomingMessage} stream */
async function whole(stream) {
  /** @type {Buffer[]} */
  const chunks = [];
  for await (const chunk of stream) chunks.push(/** @type {Buffer} */ (chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** @param {string} line */
async function relay(line) {
  const message = JSON.parse(line);
  const meta = message.params?._meta ?? {};
  /** @type {Record<string, string>} */
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(Buffer.byteLength(line)) };
  const version = meta['io.modelcontextprotocol/protocolVersion'];
  if (typeof version === 'string') headers['mcp-protocol-version'] = version;
  if (typeof message.method === 'string') headers['mcp-method'] = message.method;
  const name = message.params?.name ?? message.params?.uri;
  if (NAMED.has(message.method) && typeof name === 'string') headers['mcp-name'] = name;
  const answer = await new Promise((resolve, reject) => {
    const out = request(target, { method: 'POST', agent, headers }, resolve);
    out.once('error', reject);
    out.end(line);
  });
  const text = await whole(/** @type {IncomingMessage} */ (answer));
  if (message.id === undefined || text === '') return;
  const lines = String(/** @type {IncomingMessage} */ (answer).headers['content-type']).startsWith('text/event-stream')
    ? text.split('\n').filter((l) => l.startsWith('data: ') && l.length > 6).map((l) => l.slice(6))
    : [text];
  for (const out of lines) process.stdout.write(`${out}\n`);
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === '') return;
  relay(line).catch((error) => process.stderr.write(`stdio-relay: ${String(error)}\n`));
}).once('close', () => {
  agent.destroy();
  process.exit(0);
});
