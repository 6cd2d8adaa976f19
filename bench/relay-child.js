// The floor under a bridge: a bare node:http relay with no MCP in it, in a process of its own. It reads each POST
// whole, sends the same body and the MCP headers to the server over a keep-alive agent, reads the answer whole and
// writes it back. What any HTTP hop between a host and a server costs at least. Over IPC: 'ready' with its URL,
// 'stats' with its CPU time and heap, 'stop'.

import { Agent, createServer, request } from 'node:http';
/** @import { AddressInfo } from 'node:net' */
/** @import { IncomingMessage } from 'node:http' */
/** @import { ChildMessage } from './lib.js' */

if (!process.send) throw new Error('relay-child.js runs as a child of the benchmark (lib.js startChild), with an IPC channel');
const send = process.send.bind(process);
const target = new URL(process.argv[2] ?? '');
const agent = new Agent({ keepAlive: true });
const FORWARDED = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name'];

/** @param {IncomingMessage} stream */
async function whole(stream) {
  /** @type {Buffer[]} */
  const chunks = [];
  for await (const chunk of stream) chunks.push(/** @type {Buffer} */ (chunk));
  return Buffer.concat(chunks);
}

const server = createServer(async (req, res) => {
  try {
    const body = await whole(req);
    /** @type {Record<string, string>} */
    const headers = { 'content-length': String(body.length) };
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await new Promise((resolve, reject) => {
      const out = request(target, { method: 'POST', agent, headers }, resolve);
      out.once('error', reject);
      out.end(body);
    });
    const text = await whole(/** @type {IncomingMessage} */ (answer));
    res.writeHead(/** @type {IncomingMessage} */ (answer).statusCode ?? 502, { 'content-type': /** @type {IncomingMessage} */ (answer).headers['content-type'] ?? 'application/json', 'content-length': text.length }).end(text);
  } catch (error) {
    res.writeHead(502).end(String(error));
  }
});

server.listen(0, '127.0.0.1', () => {
  const { port } = /** @type {AddressInfo} */ (server.address());
  send({ type: 'ready', urls: { simple: `http://127.0.0.1:${port}/mcp` } });
});

process.on('message', (data) => {
  const message = /** @type {ChildMessage} */ (data);
  if (message.type === 'stats') {
    const used = process.cpuUsage();
    send({ id: message.id, cpuUs: used.user + used.system, heapUsed: process.memoryUsage().heapUsed });
  } else if (message.type === 'cpu') {
    const used = process.cpuUsage();
    send({ id: message.id, cpuUs: used.user + used.system });
  } else if (message.type === 'stop') {
    server.close();
    server.closeAllConnections();
    agent.destroy();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
