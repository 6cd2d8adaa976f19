// Memory after many calls, in a fresh process run with --expose-gc:
// `node --expose-gc bench/memory-child.js KIND URL CLIENT_PATH CALLS` (KIND as in cold-child.js, or
// node-http). Connects, makes 200 warm-up calls, collects garbage and reads the heap, makes CALLS
// more calls 16 at a time (bounded by 60 s), collects again and prints {calls, heapBefore, heapAfter, rss} in bytes.

import { pathToFileURL } from 'node:url';

const [kind, url, clientPath, callsArg] = process.argv.slice(2);
const CALLS = Number(callsArg);
const CONCURRENCY = 16;
if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');

let client;
let call;
if (kind === 'node-http') {
  client = (await import('./floors.js')).nodeFloor(url);
  call = () => client.simple();
} else if (kind === 'sdk') {
  const mod = await import(pathToFileURL(clientPath).href);
  client = new mod.Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new mod.StreamableHTTPClientTransport(new URL(url)));
  call = () => client.callTool({ name: 'simple_text', arguments: {} });
} else {
  const mod = await import(pathToFileURL(clientPath).href);
  client = await mod.connect(url, { transport: kind === 'byhand-fetch' ? 'fetch' : 'node' });
  call = () => client.callTool('simple_text', {});
}

async function run(count, maxMs) {
  let issued = 0;
  let done = 0;
  const started = performance.now();
  const worker = async () => {
    while (issued < count && performance.now() - started < maxMs) {
      issued++;
      const result = await call();
      if (typeof result.content?.[0]?.text !== 'string') throw new Error(`unexpected result ${JSON.stringify(result)}`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done;
}

const settle = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage();
};

await run(200, 10_000);
const before = await settle();
const calls = await run(CALLS, 60_000);
const after = await settle();
await client.close();
process.stdout.write(JSON.stringify({ calls, heapBefore: before.heapUsed, heapAfter: after.heapUsed, rss: after.rss }));
