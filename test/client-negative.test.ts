// The failures: each trap from docs/wire.md, garbage, hangs, and the modern errors, each ending in
// an McpError whose hint says what to do. Real SDK servers where the SDK can produce the failure,
// scripted ones where only a broken server would.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import {
  BodyError, HttpStatusError, InputLoopError, NetworkError, RoundLimitError, RpcError, StreamClosedError, TimeoutError, AbortedError, connect, type Host,
} from '../packages/client/src/index.js';
import { fixtureHandler, scriptedHandler, serve, type Served } from './fixtures/sdk-server.js';

const host: Host = {
  sample: async () => ({ role: 'assistant', content: { type: 'text', text: 'bread' }, model: 'm', stopReason: 'endTurn' }),
  elicit: async () => ({ action: 'accept', content: { name: 'Ada' } }),
};

/** A fetch that rewrites each outgoing JSON-RPC body, as a broken client would. */
function rewritingFetch(rewrite: (body: { method: string; params: Record<string, unknown> }) => void): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (typeof init?.body === 'string') {
      const body = JSON.parse(init.body);
      if (body.params) rewrite(body);
      init = { ...init, body: JSON.stringify(body) };
    }
    return fetch(input, init);
  });
}

const modernDiscover = (id: unknown) => Response.json({ jsonrpc: '2.0', id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } });

describe('the MRTR traps, against the official SDK server', () => {
  let served: Served;
  before(async () => {
    served = await serve(fixtureHandler('modern-only'));
  });
  after(() => served.close());

  test('responses wrapped as {kind, result}: the server asks again and the detector names the cause', async (t) => {
    const client = await connect(served.url, {
      host,
      fetch: rewritingFetch((body) => {
        const responses = body.params.inputResponses as Record<string, unknown> | undefined;
        if (responses) for (const key of Object.keys(responses)) responses[key] = { kind: 'sampling', result: responses[key] };
      }),
    });
    t.after(() => client.close());
    await assert.rejects(client.callTool('think', { topic: 'rye' }), (e: InputLoopError) => {
      assert.ok(e instanceof InputLoopError);
      assert.match(e.message, /asked again for 'answer'/);
      assert.match(e.hint, /\{kind, result\}/);
      assert.match(e.hint, /_meta/);
      return true;
    });
  });

  test('responses put in _meta: the server asks again and the detector fires', async (t) => {
    const client = await connect(served.url, {
      host,
      fetch: rewritingFetch((body) => {
        if (!body.params.inputResponses) return;
        Object.assign(body.params._meta as object, { inputResponses: body.params.inputResponses, requestState: body.params.requestState });
        delete body.params.inputResponses;
        delete body.params.requestState;
      }),
    });
    t.after(() => client.close());
    await assert.rejects(client.callTool('think', { topic: 'rye' }), InputLoopError);
  });

  test('sampling not declared: -32021 on HTTP 400, and the hint names the capability', async (t) => {
    const client = await connect(served.url, { host: { elicit: host.elicit } });
    t.after(() => client.close());
    await assert.rejects(client.callTool('think', { topic: 'rye' }), (e: RpcError) => {
      assert.equal(e.code, -32021);
      assert.equal(e.status, 400);
      assert.deepEqual(e.data, { requiredCapabilities: { sampling: {} } });
      assert.match(e.hint, /declare sampling/);
      assert.match(e.hint, /sample/);
      return true;
    });
  });

  test('a missing Mcp-Name header: -32020, and the hint says which header and which field', async (t) => {
    const client = await connect(served.url, {
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const headers = { ...(init?.headers as Record<string, string>) };
        delete headers['mcp-name'];
        return fetch(input, { ...init, headers });
      }),
    });
    t.after(() => client.close());
    await assert.rejects(client.callTool('echo', { text: 'x' }), (e: RpcError) => {
      assert.equal(e.code, -32020);
      assert.equal(e.status, 400);
      assert.match(e.hint, /Mcp-Name header \(\(missing\)\); byhand sent 'echo', so something in between changed it must equal params.name or params.uri \(echo\)/);
      return true;
    });
  });

  test('a version header that disagrees with _meta: -32020 naming MCP-Protocol-Version', async () => {
    const client = await connect(served.url, {
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'mcp-protocol-version': '2025-11-25' } })),
      era: 'modern',
    }).catch((e) => e);
    assert.ok(client instanceof RpcError);
    assert.equal(client.code, -32020);
    assert.match(client.hint, /MCP-Protocol-Version header/);
  });
});

describe('bounded loops, against scripted servers', () => {
  test('a server that asks again for an answered key stops at once', async (t) => {
    let calls = 0;
    const served = await serve(
      scriptedHandler(({ id, method }) => {
        if (method === 'server/discover') return modernDiscover(id);
        calls++;
        return Response.json({ jsonrpc: '2.0', id, result: { resultType: 'input_required', inputRequests: { again: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } } } });
      }),
    );
    t.after(() => served.close());
    const client = await connect(served.url, { host });
    t.after(() => client.close());
    await assert.rejects(client.callTool('loop'), InputLoopError);
    assert.equal(calls, 2, 'one answer, one re-ask, then stop');
  });

  test('a server that always wants something new hits the round cap', async (t) => {
    let calls = 0;
    const served = await serve(
      scriptedHandler(({ id, method }) => {
        if (method === 'server/discover') return modernDiscover(id);
        calls++;
        return Response.json({ jsonrpc: '2.0', id, result: { resultType: 'input_required', requestState: `step-${calls}` } });
      }),
    );
    t.after(() => served.close());
    const client = await connect(served.url, { host, maxRounds: 4 });
    t.after(() => client.close());
    await assert.rejects(client.callTool('forever'), (e: RoundLimitError) => e instanceof RoundLimitError && /after 4 rounds/.test(e.message));
    assert.equal(calls, 5, 'the first request and four retries');
  });

  test('input_required on a method that may not return it is a protocol error', async (t) => {
    const cleanup = cleanupAfter(t);
    const served = await serve(
      scriptedHandler(({ id, method }) =>
        method === 'server/discover' ? modernDiscover(id) : Response.json({ jsonrpc: '2.0', id, result: { resultType: 'input_required', requestState: 'x', tools: [] } }),
      ),
    );
    t.after(() => served.close());
    const client = cleanup(await connect(served.url, { host }));
    await assert.rejects(client.listTools(), /tools\/list answered input_required, which only tools\/call, resources\/read and prompts\/get may/);
  });
});

describe('version negotiation edges', () => {
  test('-32022 proves the server modern: one retry with a version it supports, no fallback', async (t) => {
    let first = true;
    const served = await serve(
      scriptedHandler(({ id, method, params }, request) => {
        if (method === 'initialize') throw new Error('must not fall back');
        if (first) {
          first = false;
          const requested = (params?._meta as Record<string, string>)['io.modelcontextprotocol/protocolVersion'];
          return Response.json({ jsonrpc: '2.0', id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested } } }, { status: 400 });
        }
        assert.equal(request.headers.get('mcp-protocol-version'), '2026-07-28');
        return modernDiscover(id);
      }),
    );
    t.after(() => served.close());
    const client = await connect(served.url);
    t.after(() => client.close());
    assert.equal(client.era, 'modern');
    assert.equal(client.verdict.retriedWith, '2026-07-28');
  });

  test('-32022 on a later request: one retry with a version it names, then the answer', async (t) => {
    const cleanup = cleanupAfter(t);
    let refused = 0;
    const served = await serve(
      scriptedHandler(({ id, method }) => {
        if (method === 'server/discover') return modernDiscover(id);
        if (refused++ === 0) return Response.json({ jsonrpc: '2.0', id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2026-07-28' } } }, { status: 400 });
        return Response.json({ jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: 'second time lucky' }] } });
      }),
    );
    t.after(() => served.close());
    const client = cleanup(await connect(served.url));
    assert.deepEqual((await client.callTool('x')).content, [{ type: 'text', text: 'second time lucky' }]);
    assert.equal(refused, 2, 'exactly one retry');
  });

  test('-32022 naming only versions byhand does not speak: a diagnosis, not a fallback', async (t) => {
    const served = await serve(
      scriptedHandler(({ id, method }) => {
        if (method === 'initialize') throw new Error('must not fall back');
        return Response.json({ jsonrpc: '2.0', id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2099-01-01'], requested: '2026-07-28' } } }, { status: 400 });
      }),
    );
    t.after(() => served.close());
    await assert.rejects(connect(served.url), (e: RpcError) => e.code === -32022 && /speaks 2099-01-01/.test(e.hint));
  });

  test('a 404 without a body falls back to initialize', async (t) => {
    const served = await serve(
      scriptedHandler(({ id, method }) => {
        if (method === 'initialize') return Response.json({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'old', version: '1' } } });
        if (method === 'notifications/initialized') return new Response(null, { status: 202 });
        return new Response(null, { status: 404 });
      }),
    );
    t.after(() => served.close());
    const client = await connect(served.url);
    t.after(() => client.close());
    assert.equal(client.era, 'legacy');
    assert.equal(client.protocolVersion, '2025-06-18');
    assert.match(client.verdict.evidence, /HTTP 404/);
  });

  test('a 500 on the probe is an outage, never a legacy verdict', async (t) => {
    const served = await serve(scriptedHandler(() => new Response('boom', { status: 500 })));
    t.after(() => served.close());
    await assert.rejects(connect(served.url), (e: HttpStatusError) => e instanceof HttpStatusError && e.status === 500 && /outage/.test(e.hint));
  });

  test('a 401 says the server needs authorization', async (t) => {
    const served = await serve(scriptedHandler(() => new Response('', { status: 401, headers: { 'www-authenticate': 'Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"' } })));
    t.after(() => served.close());
    await assert.rejects(connect(served.url), (e: HttpStatusError) => e.status === 401 && /needs authorization/.test(e.hint) && /resource_metadata/.test(e.hint));
  });
});

describe('garbage, silence and broken streams', () => {
  test('an HTML page is not an MCP server', async (t) => {
    const served = await serve(scriptedHandler(() => new Response('<html>hello</html>', { headers: { 'content-type': 'text/html' } })));
    t.after(() => served.close());
    await assert.rejects(connect(served.url), (e: BodyError) => e instanceof BodyError && /not JSON/.test(e.message) && /not an MCP server/.test(e.hint));
  });

  test('a JSON Content-Type with a body that is not JSON: said in plain words', { timeout: 30_000 }, async (t) => {
    const served = await serve(scriptedHandler(() => new Response('{"jsonrpc":', { headers: { 'content-type': 'application/json' } })));
    t.after(() => served.close());
    await assert.rejects(connect(served.url), (e: BodyError) => e instanceof BodyError && /got an answer that is not JSON \(Content-Type application\/json\): \{"jsonrpc":/.test(e.message));
  });

  test('JSON that is not JSON-RPC', async (t) => {
    const served = await serve(scriptedHandler(() => Response.json({ hello: 'world' })));
    t.after(() => served.close());
    await assert.rejects(connect(served.url), (e: BodyError) => e instanceof BodyError && /not a JSON-RPC response/.test(e.message));
  });

  test('a hanging server times out with the method named', async (t) => {
    const cleanup = cleanupAfter(t);
    const served = await serve(scriptedHandler(({ id, method }) => (method === 'server/discover' ? modernDiscover(id) : new Promise<Response>(() => undefined))));
    t.after(() => served.close());
    // The call's own deadline, not the client's: the connect keeps the default, which a busy machine needs.
    const client = cleanup(await connect(served.url));
    const started = Date.now();
    await assert.rejects(client.callTool('slow', {}, { timeoutMs: 300 }), (e: TimeoutError) => e instanceof TimeoutError && /tools\/call got no answer within 300 ms/.test(e.message));
    assert.ok(Date.now() - started < 10_000);
  });

  test('an AbortSignal cancels a call', async (t) => {
    const cleanup = cleanupAfter(t);
    const served = await serve(scriptedHandler(({ id, method }) => (method === 'server/discover' ? modernDiscover(id) : new Promise<Response>(() => undefined))));
    t.after(() => served.close());
    const client = cleanup(await connect(served.url));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(client.callTool('slow', {}, { signal: controller.signal }), AbortedError);
  });

  test('an event stream that ends before the answer', async (t) => {
    const cleanup = cleanupAfter(t);
    const served = await serve(
      scriptedHandler(({ id, method }) =>
        method === 'server/discover'
          ? modernDiscover(id)
          : new Response('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n', { headers: { 'content-type': 'text/event-stream' } }),
      ),
    );
    t.after(() => served.close());
    const client = cleanup(await connect(served.url));
    await assert.rejects(client.callTool('x'), (e: StreamClosedError) => e instanceof StreamClosedError && /closed the event stream before it answered tools\/call/.test(e.message));
  });

  test('nothing listening', async () => {
    await assert.rejects(connect('http://127.0.0.1:9/mcp'), (e: NetworkError) => e instanceof NetworkError && /cannot reach/.test(e.message));
  });
});

describe('Mcp-Param headers', () => {
  test('an Mcp-Param mismatch (-32020) after the schema changed: the tools are listed again, once, and the call goes out with the new headers', async (t) => {
    let lists = 0;
    const sent: (string | null)[][] = [];
    const served = await serve(
      scriptedHandler(({ id, method }, request) => {
        if (method === 'server/discover') return modernDiscover(id);
        if (method === 'tools/list') {
          const header = lists++ === 0 ? 'Region' : 'Zone';
          return Response.json({ jsonrpc: '2.0', id, result: { tools: [{ name: 'where', inputSchema: { type: 'object', properties: { place: { type: 'string', 'x-mcp-header': header } } } }] } });
        }
        sent.push([request.headers.get('mcp-param-region'), request.headers.get('mcp-param-zone')]);
        if (request.headers.get('mcp-param-zone') === null) return Response.json({ jsonrpc: '2.0', id, error: { code: -32020, message: 'Header mismatch: Mcp-Param-Zone is required' } }, { status: 400 });
        return Response.json({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'found' }] } });
      }),
    );
    t.after(() => served.close());
    const client = await connect(served.url);
    t.after(() => client.close());
    await client.listTools();
    assert.deepEqual((await client.callTool('where', { place: 'eu' })).content, [{ type: 'text', text: 'found' }]);
    assert.equal(lists, 2, 'listed again once');
    assert.deepEqual(sent, [['eu', null], [null, 'eu']], 'the second call carries the header the new schema names');
  });
});
