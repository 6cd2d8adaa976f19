// Memory after many calls, in a fresh process run with --expose-gc:
// `node --expose-gc bench/memory-child.js KIND URL CLIENT_PATH CALLS` (KIND as in cold-child.js, or
// node-http). Connects, makes 200 warm-up calls, collects garbage and reads the heap, makes CALLS
// more calls 16 at a time (bounded by 60 s), collects again and prints {calls, heapBefore, heapAfter, rss} in bytes.

import { pathToFileURL } from 'node:url';

const [kind, url, clientPath, callsArg] = process.argv.slice(2);
const CALLS = Number(callsArg);
const CONCURRENCY = 16;
const gc = globalThis.gc;
if (typeof gc !== 'function') throw new Error('run with --expose-gc');

/** @type {{ close(): Promise<void> | void }} */
let client;
/** @type {() => Promise<{ content?: { type: string, text?: unknown }[] }>} */
let call;
if (kind === 'node-http') {
  const floor = (await import('./floors.js')).nodeFloor(url);
  client = floor;
  call = () => floor.simple();
} else if (kind === 'sdk') {
  /** @type {typeof import('@modelcontextprotocol/client')} */
  const mod = await import(pathToFileURL(clientPath).href);
  const sdk = new mod.Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  client = sdk;
  await sdk.connect(new mod.StreamableHTTPClientTransport(new URL(url)));
  call = () => sdk.callTool({ name: 'simple_text', arguments: {} });
} else {
  /** @type {typeof import('@byhand/client')} */
  const mod = await import(pathToFileURL(clientPath).href);
  const byhand = await mod.connect(url, { transport: kind === 'byhand-fetch' ? 'fetch' : 'node' });
  client = byhand;
  call = () => byhand.callTool('simple_text', {});
}

/**
 * @param {number} count
 * @param {number} maxMs
 */
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
    gc();
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
