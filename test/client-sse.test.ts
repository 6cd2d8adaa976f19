// The deprecated HTTP+SSE transport (2024-11-05), spoken: against the official v1 SDK's
// SSEServerTransport over loopback (found by the fallback the 2025-03-26 spec describes, or asked for),
// and against hand-scripted servers for what must be refused or bounded: an endpoint on another
// origin, a stream that ends, a request never answered.

import assert from 'node:assert/strict';
import { describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { HttpStatusError, LimitError, ProtocolError, StreamClosedError, TimeoutError, connect } from '../packages/client/src/index.js';
import { arrival, listen } from './fixtures/loopback.js';
import { serveSse } from './fixtures/sse-server.js';

const host = {
  sample: async () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: 'forty-two' }, model: 'test' }),
};

describe('HTTP+SSE against the v1 SDK', () => {
  test('the server ending its one stream tells the host why (eventsEnded), once; the client closing it does not', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const ending = cleanup(await serveSse());
    const staying = cleanup(await serveSse());
    const told: Record<string, string[]> = { ending: [], staying: [] };
    const ended = cleanup(await connect(ending.url, { host: { eventsEnded: (reason) => void told.ending.push(reason) }, timeoutMs: 5000 }));
    const closed = cleanup(await connect(staying.url, { host: { eventsEnded: (reason) => void told.staying.push(reason) }, timeoutMs: 5000 }));
    await closed.close();
    await ending.close();
    for (const started = Date.now(); told.ending.length === 0 && Date.now() - started < 20_000; ) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(told.ending.length, 1, told.ending.join('\n'));
    assert.match(told.ending[0], /^the (server closed the HTTP\+SSE event stream|HTTP\+SSE event stream broke off: .*): list changes, resource updates and the server's own requests between calls will not arrive in this session$/);
    await assert.rejects(ended.listTools(), (e: unknown) => e instanceof StreamClosedError);
    assert.deepEqual(told.staying, []);
  });

  test('found by the fallback: POST refused 405, then GET names the endpoint; list, call, read, prompt, sampling', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await serveSse());
    const client = cleanup(await connect(server.url, { host, timeoutMs: 5000 }));
    assert.equal(client.era, 'legacy');
    assert.equal(client.transportName, 'sse');
    assert.equal(client.serverInfo?.name, 'sse-fixture');
    assert.deepEqual((await client.listTools()).map((t) => t.name), ['echo', 'broken', 'think']);
    assert.deepEqual((await client.callTool('echo', { text: 'hi' })).content, [{ type: 'text', text: 'echo: hi' }]);
    assert.equal((await client.callTool('broken')).isError, true);
    // The server's request comes down the one stream and is answered by a POST to the endpoint.
    assert.deepEqual((await client.callTool('think', { topic: 'life' })).content, [{ type: 'text', text: 'model said: forty-two' }]);
    assert.equal((await client.readResource('note://one', { meta: { 'example.com/k': 1 } })).contents[0].text, 'a note');
    assert.deepEqual(server.metas.at(-1), { method: 'resources/read', meta: { 'example.com/k': 1 } });
    // The caller's meta may not replace the protocol's keys.
    await assert.rejects(client.readResource('note://one', { meta: { 'io.modelcontextprotocol/protocolVersion': 'x' } }), (e: unknown) => e instanceof ProtocolError && /protocol's own/.test(e.message));
    assert.equal(server.metas.length, 2, 'the refused request was not sent');
    assert.deepEqual((await client.getPrompt('greet', { who: 'Ada' })).messages[0].content, { type: 'text', text: 'hello Ada' });
  });

  test("asked for by name ({url, transport: 'sse'}): no Streamable probe, the legacy handshake at once", { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await serveSse());
    const client = cleanup(await connect({ url: server.url, transport: 'sse' }, { timeoutMs: 5000 }));
    assert.equal(client.transportName, 'sse');
    assert.equal(client.verdict.era, 'legacy');
    assert.match(client.verdict.evidence, /HTTP\+SSE/);
    assert.deepEqual((await client.callTool('echo', { text: 'forced' })).content, [{ type: 'text', text: 'echo: forced' }]);
    await assert.rejects(connect({ url: server.url, transport: 'sse' }, { era: 'modern', timeoutMs: 5000 }), (e: unknown) => e instanceof ProtocolError && /carries only the legacy era/.test(e.message));
  });
});

describe('HTTP+SSE: where messages may go, and for how long', () => {
  test('an endpoint on another origin is refused, and nothing (no header, no message) reaches it', { timeout: 15_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const elsewhere = cleanup(await listen((_request, res) => void res.writeHead(202).end()));
    const server = cleanup(await listen((request, res) => {
      if (request.method !== 'GET') return void res.writeHead(405).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: endpoint\ndata: ${elsewhere.origin}/messages?sessionId=abc\n\n`);
    }));
    await assert.rejects(
      connect({ url: server.url, headers: { Authorization: 'Bearer secret-token' } }, { timeoutMs: 3000 }),
      (e: unknown) => e instanceof ProtocolError && /another origin/.test(e.message) && /nothing was sent there/.test(e.hint) && !/secret-token/.test(e.message),
    );
    await assert.rejects(connect({ url: server.url, transport: 'sse' }, { timeoutMs: 3000 }), ProtocolError);
    assert.equal(elsewhere.requests.length, 0);
  });

  test('a GET whose first event is not `endpoint` keeps the POST error', { timeout: 15_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await listen((request, res) => {
      if (request.method !== 'GET') return void res.writeHead(404).end('Not Found');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message\ndata: {}\n\n');
    }));
    await assert.rejects(connect(server.url, { timeoutMs: 3000 }), (e: unknown) => e instanceof HttpStatusError && e.status === 404);
  });

  /** An SSE server whose GET stream the test holds: `respond` decides what each POSTed request gets. */
  async function scripted(respond: (message: { id?: number; method?: string }, stream: import('node:http').ServerResponse) => void) {
    let stream: import('node:http').ServerResponse | undefined;
    const server = await listen((request, res) => {
      if (request.method === 'GET') {
        stream = res;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: endpoint\ndata: /messages\n\n');
        return;
      }
      if (!request.path.startsWith('/messages')) return void res.writeHead(405).end();
      res.writeHead(202).end('Accepted');
      const message = request.json as { id?: number; method?: string };
      if (message.method === 'initialize') {
        stream!.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '1' } } })}\n\n`);
      } else if (message.id !== undefined) respond(message, stream!);
    });
    return server;
  }

  test('a request never answered on the stream times out on its own deadline, and says so', { timeout: 15_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = await scripted(() => undefined);
    try {
      const client = cleanup(await connect({ url: server.url, transport: 'sse' }));
      await assert.rejects(client.listTools({ timeoutMs: 400 }), TimeoutError);
      // notifications/cancelled tells the server the request was given up.
      await arrival(server, (r) => r.json?.method === 'notifications/cancelled', 5000);
    } finally {
      await server.close();
    }
  });

  test('a stream the server ends fails the request in flight at once, and every later one', { timeout: 15_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = await scripted((_message, stream) => void stream.end());
    try {
      const client = cleanup(await connect({ url: server.url, transport: 'sse' }, { timeoutMs: 10_000 }));
      const started = performance.now();
      await assert.rejects(client.listTools(), (e: unknown) => e instanceof StreamClosedError && /closed the HTTP\+SSE event stream/.test(e.message));
      assert.ok(performance.now() - started < 5000);
      await assert.rejects(client.listPrompts(), StreamClosedError);
    } finally {
      await server.close();
    }
  });

  test('an event larger than limits.maxMessageBytes ends the stream with a LimitError, not unbounded memory', { timeout: 15_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = await scripted((message, stream) => void stream.write(`event: message\ndata: {"jsonrpc":"2.0","id":${message.id},"result":{"tools":[],"pad":"${'x'.repeat(64 * 1024)}"}}\n\n`));
    try {
      const client = cleanup(await connect({ url: server.url, transport: 'sse' }, { timeoutMs: 5000, limits: { maxMessageBytes: 16 * 1024 } }));
      await assert.rejects(client.listTools(), LimitError);
    } finally {
      await server.close();
    }
  });
});
