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

async function startByhandEdge() {
  const { mountToolbox } = await import(fileUrl(dist('servers', 'toolbox.js')));
  const { toWebRequest, writeWebResponse } = await import(fileUrl(dist('servers', 'node-adapter.js')));
  const { defaultStateKey } = await import(fileUrl(dist('servers', 'state.js')));
  const info = { name: 'bench', title: 'Bench', description: 'the reference tools behind byhand\'s edge', path: '/mcp', legacy: 'stateless', legacyReason: 'bench' };
  const toolbox = mountToolbox({ info, register: (server) => registerReferenceTools(server) }, { stateKey: defaultStateKey() });
  let origin = 'http://127.0.0.1';
  const http = createServer((req, res) => {
    toolbox
      .fetch(toWebRequest(req, res, origin))
      .catch(() => Response.json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }, { status: 500 }))
      .then((response) => writeWebResponse(response, res))
      .catch(() => res.destroy());
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${http.address().port}`;
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
const counts = {};
let server;
if (kind === 'sdk') {
  server = await startReferenceServer({
    onRequest: (method, mcpMethod) => {
      const key = method === 'POST' ? String(mcpMethod ?? '(no Mcp-Method)') : method;
      counts[key] = (counts[key] ?? 0) + 1;
    },
  });
  server.urls = { simple: server.url, mrtr: server.url };
} else if (kind === 'byhand') {
  const { startServer } = await import(fileUrl(BYHAND_SERVE));
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

process.on('message', async (message) => {
  if (message.type === 'stats') {
    process.send({ id: message.id, cpuUs: cpu(), counts: { ...counts }, rss: process.memoryUsage().rss });
  } else if (message.type === 'reset') {
    for (const key of Object.keys(counts)) delete counts[key];
    process.send({ id: message.id });
  } else if (message.type === 'stop') {
    await Promise.race([server.close(), new Promise((r) => setTimeout(r, 2000))]);
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready', urls: server.urls });
