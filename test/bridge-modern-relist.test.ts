// The 2026 face checks a tool call's Mcp-Param-* headers against the tool's schema, from a listing of the server's
// tools. A call naming a tool the listing lacks lists again (the tool may be new), but a caller with made-up names
// must not make the server list its tools on every call: again only once the listing is RELIST_AFTER_MS old, on an
// injected clock.

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { connect } from '../packages/client/src/index.js';
import { ModernFace, RELIST_AFTER_MS } from '../packages/switchboard/src/modern-face.js';
import { PendingCalls } from '../packages/switchboard/src/pending-calls.js';
import { createStateCodec } from '../packages/servers/src/edge/state-codec.js';
import { json, listen, modern } from './fixtures/loopback.js';

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

test('a call naming an unknown tool lists the tools again at most once per RELIST_AFTER_MS', async () => {
  const server = await listen(modern((request, res) => {
    const id = request.json?.id;
    if (request.json?.method === 'tools/list') return json(res, { jsonrpc: '2.0', id, result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'private' } });
    return json(res, { jsonrpc: '2.0', id, error: { code: -32602, message: 'Unknown tool' } });
  }));
  const client = await connect(server.url);
  let now = 1_000_000;
  const back = { client, scope: '', group: '', quiet: new AbortController().signal };
  const face = new ModernFace({ client: () => Promise.resolve(back), lease: () => Promise.resolve({ back, release: () => undefined }) }, new PendingCalls({ codec: createStateCodec(new Uint8Array(32).fill(3), 600) }), { now: () => now });
  const lists = () => server.requests.filter((r) => r.json?.method === 'tools/list').length;
  const check = (name: string) => {
    const headers: Record<string, string> = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name };
    return face.check({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {}, _meta: ENVELOPE } }, (h) => headers[h]);
  };
  try {
    await check('echo');
    assert.equal(lists(), 1, 'listed once for the first call');
    for (let i = 0; i < 20; i++) await check(`made-up-${i}`);
    assert.equal(lists(), 1, 'twenty made-up names within the interval: no listing again');
    now += RELIST_AFTER_MS;
    await check('made-up-late');
    assert.equal(lists(), 2, 'once the listing is old, an unknown name lists again');
    await check('made-up-later');
    assert.equal(lists(), 2, 'and that new listing holds for the interval');
  } finally {
    await client.close();
    await server.close();
  }
});
