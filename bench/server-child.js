// A server in its own process, so its CPU is not the client's: `node bench/server-child.js KIND`, KIND:
//   sdk          the SDK reference server (bench/sdk-server.js)
//   byhand       byhand's startServer with every toolbox (Probe, Everything, Kitchen, Cookie Jar in memory)
//   byhand-edge  byhand's toolbox edge (mountToolbox + its node adapter, wired as serve.ts wires them)
//                serving the reference server's two tools: the edge's cost without a toolbox's
// Speaks to the parent over IPC: 'ready' with the URLs; 'stats' gives its CPU time and the requests it
// saw by Mcp-Method (reference server only); 'stop' closes it and exits.

import { createServer } from 'node:http';
import { BYHAND_SERVE, dist, fileUrl } from './lib.js';
import { registerReferenceTools, startReferenceServer } from './sdk-server.js';
/** @import { AddressInfo } from 'node:net' */
/** @import { ChildMessage } from './lib.js' */

// Only over IPC: every answer goes back to the parent (lib.js startChild).
if (!process.send) throw new Error('server-child.js runs as a child of the benchmark (lib.js startChild), with an IPC channel');
const send = process.send.bind(process);

async function startByhandEdge() {
  const { mountToolbox } = /** @type {typeof import('../packages/servers/src/edge/toolbox.ts')} */ (await import(fileUrl(dist('servers', 'edge', 'toolbox.js'))));
  const { toWebRequest, writeWebResponse } = /** @type {typeof import('../packages/servers/src/edge/node-adapter.ts')} */ (await import(fileUrl(dist('servers', 'edge', 'node-adapter.js'))));
  const { defaultStateKey } = /** @type {typeof import('../packages/servers/src/edge/state.ts')} */ (await import(fileUrl(dist('servers', 'edge', 'state.js'))));
  /** @type {import('@byhand/servers').ToolboxInfo} */
  const info = { name: 'bench', title: 'Bench', description: 'the reference tools behind byhand\'s edge', path: '/mcp', legacy: 'stateless', legacyReason: 'bench' };
  const toolbox = mountToolbox(info, Promise.resolve({ register: (server) => registerReferenceTools(server) }), { stateKey: defaultStateKey() });
  let origin = 'http://127.0.0.1';
  const http = createServer((req, res) => {
    toolbox
      .fetch(toWebRequest(req, res, origin))
      .catch(() => Response.json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }, { status: 500 }))
      .then((response) => writeWebResponse(response, res))
      .catch(() => res.destroy());
  });
  await /** @type {Promise<void>} */ (new Promise((resolve) => http.listen(0, '127.0.0.1', resolve)));
  origin = `http://127.0.0.1:${/** @type {AddressInfo} */ (http.address()).port}`;
  return {
    urls: { simple: `${origin}/mcp`, mrtr: `${origin}/mcp` },
    async close() {
      const closed = new Promise((resolve) => http.close(resolve));
      http.closeAllConnections();
      await toolbox.close();
      await closed;
    },
  };
}

const kind = process.argv[2];
/** @type {Record<string, number>} */
const counts = {};
/** @type {{ urls: Record<string, string>, close(): Promise<void> }} */
let server;
if (kind === 'sdk') {
  const reference = await startReferenceServer({
    onRequest: (method, mcpMethod) => {
      const key = method === 'POST' ? String(mcpMethod ?? '(no Mcp-Method)') : String(method);
      counts[key] = (counts[key] ?? 0) + 1;
    },
  });
  server = Object.assign(reference, { urls: { simple: reference.url, mrtr: reference.url } });
} else if (kind === 'byhand') {
  const { startServer } = /** @type {typeof import('@byhand/servers/node')} */ (await import(fileUrl(BYHAND_SERVE)));
  server = await startServer({ port: 0, toolboxes: ['probe', 'everything', 'kitchen', 'cookie-jar'], onerror: () => undefined });
  server.urls = { simple: server.urls.everything, mrtr: server.urls.probe, kitchen: server.urls.kitchen, jar: server.urls['cookie-jar'] };
} else if (kind === 'byhand-edge') {
  server = await startByhandEdge();
} else {
  throw new Error(`usage: server-child.js sdk|byhand|byhand-edge (got ${kind})`);
}

const cpu = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

process.on('message', async (data) => {
  const message = /** @type {ChildMessage} */ (data);
  if (message.type === 'stats') {
    send({ id: message.id, cpuUs: cpu(), counts: { ...counts }, rss: process.memoryUsage().rss });
  } else if (message.type === 'reset') {
    for (const key of Object.keys(counts)) delete counts[key];
    send({ id: message.id });
  } else if (message.type === 'stop') {
    await Promise.race([server.close(), new Promise((r) => setTimeout(r, 2000))]);
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready', urls: server.urls });
