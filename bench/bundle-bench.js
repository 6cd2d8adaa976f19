// What ships: the client for an HTTP-only caller of `connect`, and a Cloudflare Worker serving two toolboxes
// (examples/worker.ts), each beside the official SDK bundled the same way, on the same platform (browser for
// the clients, a Worker for the servers), minified and gzipped. For the Worker, byhand's own share is the
// part of the minified bundle that comes from byhand's packages; the rest is the SDK and zod.

import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { modernPathBundle } from './bundle-size.js';
import { ROOT, fig, int } from './lib.js';
/** @import { BenchOptions, Section } from './lib.js' */

const bytes = (/** @type {number} */ b) => `${int(b)} B`;
const share = (/** @type {number} */ x) => `${(x * 100).toFixed(0)}%`;

/**
 * One file, minified, its gzip size and the share of its minified bytes from byhand's packages.
 * @param {import('esbuild').BuildOptions} options
 */
async function bundleOne(options) {
  const result = await build({ bundle: true, minify: true, format: 'esm', write: false, metafile: true, logLevel: 'silent', absWorkingDir: ROOT, ...options });
  // write: false and metafile: true, so both are there.
  const code = /** @type {import('esbuild').OutputFile[]} */ (result.outputFiles)[0].contents;
  const inputs = Object.values(/** @type {import('esbuild').Metafile} */ (result.metafile).outputs)[0].inputs;
  const total = Object.values(inputs).reduce((sum, input) => sum + input.bytesInOutput, 0);
  const ours = Object.entries(inputs).filter(([file]) => file.startsWith('packages/')).reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
  return { gzip: gzipSync(code, { level: 9 }).length, min: code.length, ours: ours / Math.max(1, total) };
}

const WORKER = { platform: /** @type {const} */ ('browser'), conditions: ['workerd', 'worker', 'browser'], external: ['node:*', 'cloudflare:*'] };

const SDK_WORKER = `
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'one-tool', version: '1' });
  server.registerTool('echo', { description: 'Echoes', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
});
export default { fetch: (request) => handler(request) };
`;

/**
 * @param {BenchOptions} _options
 * @returns {Promise<Section>}
 */
export async function bundleBenchmark(_options) {
  const started = performance.now();
  const client = await modernPathBundle();
  const sdkClient = await bundleOne({ stdin: { contents: "export { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';", resolveDir: ROOT, loader: 'js' }, platform: 'browser' });
  const worker = await bundleOne({ entryPoints: ['examples/worker.ts'], ...WORKER });
  const sdkWorker = await bundleOne({ stdin: { contents: SDK_WORKER, resolveDir: ROOT, loader: 'js' }, ...WORKER });
  return {
    title: 'Bundles: what ships, min+gzip, beside the SDK on the same platform',
    header: ['bundle', 'byhand', 'SDK', 'byhand / SDK', "byhand's own share (min bytes)"],
    rows: [
      ['a browser caller of `connect` (modern HTTP path) / the SDK Client + StreamableHTTPClientTransport', fig(client.modern, bytes), fig(sdkClient.gzip, bytes), fig(client.modern / sdkClient.gzip, (x) => `${x.toFixed(2)}x`), '100%'],
      ['a Worker: examples/worker.ts (Kitchen and Probe) / an SDK server with one tool', fig(worker.gzip, bytes), fig(sdkWorker.gzip, bytes), fig(worker.gzip / sdkWorker.gzip, (x) => `${x.toFixed(2)}x`), fig(worker.ours, share)],
    ],
    notes: [
      `Client: ${client.method} The SDK client: the same esbuild settings, one file.`,
      "Worker: esbuild of examples/worker.ts and of a one-tool createMcpHandler server (bundle, minify, format esm, platform browser with the workerd and worker conditions, node:* left external as Workers provide them), gzip level 9. byhand's share: the minified bytes that come from packages/ over the whole (the rest is the SDK, zod and their dependencies).",
    ],
    seconds: (performance.now() - started) / 1000,
  };
}
