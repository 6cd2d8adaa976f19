// The bench's floors (bench/floors.js) send what byhand sends, byte for byte but for the id: the same body and the
// same headers in the same order, on node:http and on fetch alike, recorded as they reach one loopback server. A
// floor that sent fewer bytes, or other headers, would make byhand look slower than it is (or faster). And
// docs/performance.md lists those requests as byhand sends them on node:http. The checkpoint's floor
// (bench/checkpoint-floor.js) sends what `byhand checkpoint` sends, the same way.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { byhandIn } from './support/cli.js';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from './support/node-test.js';
import { connect, VerdictCache } from '../packages/client/src/index.js';
import { ANSWER, fetchFloor, nodeFloor } from '../bench/floors.js';

interface Seen {
  rawHeaders: string[];
  body: string;
}

const TOOLS = [
  { name: 'simple_text', inputSchema: { type: 'object', properties: {} } },
  { name: 'probe_sampling', inputSchema: { type: 'object', properties: { topic: { type: 'string' } } } },
];

function result(body: { method: string; params?: { name?: string; inputResponses?: unknown } }): unknown {
  if (body.method === 'server/discover') return { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } };
  if (body.method === 'tools/list') return { tools: TOOLS };
  if (body.params?.name === 'probe_sampling' && body.params.inputResponses === undefined) {
    return { resultType: 'input_required', inputRequests: { think: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } } } };
  }
  return { content: [{ type: 'text', text: body.params?.name === 'probe_sampling' ? 'model said: ok' : 'simple' }] };
}

/** A server that answers as the canned one does, and keeps each POST's headers as they came, in order, with its body. */
async function recording(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    seen.push({ rawHeaders: req.rawHeaders, body: text });
    const body = JSON.parse(text) as { id: number; method: string; params?: { name?: string; inputResponses?: unknown } };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: result(body) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    seen,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A request with its id (and so its length) made the same: what two clients may differ in. */
function sameId({ rawHeaders, body }: Seen): Seen {
  const normal = body.replace(/^\{"jsonrpc":"2\.0","id":\d+,/, '{"jsonrpc":"2.0","id":1,');
  const headers = rawHeaders.map((value, i) => (i % 2 === 1 && /^content-length$/i.test(rawHeaders[i - 1]) ? String(Buffer.byteLength(normal)) : value));
  return { rawHeaders: headers, body: normal };
}

for (const transport of ['node', 'fetch'] as const) {
  test(`the ${transport === 'node' ? 'raw node:http' : 'bare fetch'} floor sends byhand's bytes, its id aside: server/discover, tools/call, both MRTR rounds`, { timeout: 20_000 }, async (t) => {
    const server = await recording();
    t.after(() => server.close());
    const byhand = await connect(server.url, { host: { sample: async () => ANSWER }, transport, verdicts: new VerdictCache() });
    t.after(() => byhand.close());
    await byhand.listTools();
    await byhand.callTool('simple_text', {});
    await byhand.callTool('probe_sampling', { topic: 'tea' });
    const fromByhand = server.seen.splice(0).filter((s) => !s.body.includes('"method":"tools/list"'));

    const floor = transport === 'node' ? nodeFloor(server.url) : fetchFloor(server.url);
    t.after(() => floor.close());
    await floor.discover();
    await floor.simple();
    await floor.mrtr();
    const fromFloor = server.seen.splice(0);

    assert.equal(fromFloor.length, 4);
    assert.deepEqual(fromFloor.map(sameId), fromByhand.map(sameId));
    if (transport === 'node') assert.equal(listed(), fromByhand.map(asListed).join('\n\n'), 'docs/performance.md lists the requests byhand sends');
  });
}

const LABELS = ['server/discover, on connect', 'tools/call simple_text', 'tools/call probe_sampling, its first round', 'tools/call probe_sampling, its second round, with the answer'];

/** One request as docs/performance.md lists it: the port, the id and the length as words. */
function asListed({ rawHeaders, body }: Seen, at: number): string {
  const lines = ['POST /mcp HTTP/1.1'];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const value = /^host$/i.test(rawHeaders[i]) ? '127.0.0.1:PORT' : /^content-length$/i.test(rawHeaders[i]) ? '(counted by node:http)' : rawHeaders[i + 1];
    lines.push(`${rawHeaders[i]}: ${value}`);
  }
  return `${LABELS[at]}:\n\n\`\`\`http\n${lines.join('\n')}\n\n${body.replace(/"id":\d+/, '"id":N')}\n\`\`\``;
}

function listed(): string {
  const doc = readFileSync(new URL('../docs/performance.md', import.meta.url), 'utf8');
  return doc.slice(doc.indexOf('<!-- floors:requests -->\n') + '<!-- floors:requests -->\n'.length, doc.indexOf('\n<!-- /floors:requests -->'));
}

test('the checkpoint\'s floor sends what byhand checkpoint sends, its id aside: server/discover, then the lists', { timeout: 30_000 }, async (t) => {
  const server = await recording();
  const scratch = mkdtempSync(join(tmpdir(), 'byhand-bench-floors-'));
  t.after(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await server.close();
  });
  await byhandIn({ cwd: scratch, env: { HOME: scratch, XDG_CONFIG_HOME: join(scratch, '.config') } }, 'checkpoint', server.url);
  const fromByhand = server.seen.splice(0);
  const config = join(scratch, 'config.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { one: { url: server.url } } }));
  const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(new URL('../bench/checkpoint-floor.js', import.meta.url)), config], { timeout: 20_000 });
  assert.equal(stdout, '1\n');
  const fromFloor = server.seen.splice(0);
  assert.deepEqual(fromFloor.map((r) => r.body.match(/"method":"([^"]+)"/)?.[1]), ['server/discover', 'tools/list']);
  assert.deepEqual(fromFloor.map(sameId), fromByhand.map(sameId));
});
