// One cold start, in a fresh process: import, connect (era negotiation), one tools/call, exit.
// `node bench/cold-child.js KIND URL CLIENT_PATH` prints {importMs, connectMs, callMs} as JSON. KIND:
//   byhand        byhand's client as shipped (transport 'auto': node:http on Node)
//   byhand-fetch  byhand's client with transport 'fetch'
//   sdk           @modelcontextprotocol/client (versionNegotiation 'auto')
//   node-http     no MCP library: the same two requests (server/discover, tools/call) over raw node:http

import { pathToFileURL } from 'node:url';

const [kind, url, clientPath] = process.argv.slice(2);

const t0 = performance.now();
const mod = kind === 'node-http' ? await import('./floors.js') : await import(pathToFileURL(clientPath).href);
const importMs = performance.now() - t0;

const t1 = performance.now();
/** @type {{ close(): Promise<void> | void }} */
let client;
/** @type {() => Promise<{ content?: { type: string, text?: unknown }[] }>} */
let callTool;
if (kind === 'byhand' || kind === 'byhand-fetch') {
  const byhand = await /** @type {typeof import('@byhand/client')} */ (mod).connect(url, kind === 'byhand-fetch' ? { transport: 'fetch' } : {});
  client = byhand;
  callTool = () => byhand.callTool('simple_text', {});
} else if (kind === 'sdk') {
  const sdkModule = /** @type {typeof import('@modelcontextprotocol/client')} */ (mod);
  const sdk = new sdkModule.Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  client = sdk;
  await sdk.connect(new sdkModule.StreamableHTTPClientTransport(new URL(url)));
  callTool = () => sdk.callTool({ name: 'simple_text', arguments: {} });
} else if (kind === 'node-http') {
  const floor = /** @type {typeof import('./floors.js')} */ (mod).nodeFloor(url);
  client = floor;
  const discovered = await floor.discover();
  if (!discovered.supportedVersions?.includes('2026-07-28')) throw new Error('node-http: not a modern server');
  callTool = () => floor.simple();
} else {
  throw new Error(`usage: cold-child.js byhand|byhand-fetch|sdk|node-http URL CLIENT_PATH (got ${kind})`);
}
const connectMs = performance.now() - t1;

const t2 = performance.now();
const result = await callTool();
const callMs = performance.now() - t2;
await client.close();
if (typeof result.content?.[0]?.text !== 'string') throw new Error(`unexpected result ${JSON.stringify(result)}`);
process.stdout.write(JSON.stringify({ importMs, connectMs, callMs }));
