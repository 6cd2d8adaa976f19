// One cold start of one client, in a fresh process: import, connect (era negotiation), one tools/call.
// `node bench/cold-child.js byhand|byhand-node|sdk URL CLIENT_PATH` prints {importMs, connectMs, callMs} as JSON.
// byhand-node is the experiment of bench/node-fetch.js: byhand with a node:http `fetch`.

import { pathToFileURL } from 'node:url';

const [kind, url, clientPath] = process.argv.slice(2);

const t0 = performance.now();
const mod = await import(pathToFileURL(clientPath).href);
const nodeFetch = kind === 'byhand-node' ? (await import('./node-fetch.js')).nodeFetch : undefined;
const importMs = performance.now() - t0;

const t1 = performance.now();
let client;
let callTool;
if (kind === 'byhand' || kind === 'byhand-node') {
  client = await mod.connect(url, nodeFetch ? { fetch: nodeFetch } : {});
  callTool = () => client.callTool('simple_text', {});
} else {
  client = new mod.Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new mod.StreamableHTTPClientTransport(new URL(url)));
  callTool = () => client.callTool({ name: 'simple_text', arguments: {} });
}
const connectMs = performance.now() - t1;

const t2 = performance.now();
const result = await callTool();
const callMs = performance.now() - t2;
await client.close();
if (typeof result.content?.[0]?.text !== 'string') throw new Error(`unexpected result ${JSON.stringify(result)}`);
process.stdout.write(JSON.stringify({ importMs, connectMs, callMs }));
