// A lost session is a new session (issue 21; spec 2025-11-25, session management: a 404 to a request that
// carried Mcp-Session-Id means the client MUST start a new session). The official SDK's 2025 transport, one
// McpServer per session, whose session map is cleared as a restarted server's or an expired session's would
// be; and two such instances behind round-robin routing, as a load balancer without sticky sessions spreads them.
// Through the library and through the built command (support/cli.ts).

import assert from 'node:assert/strict';
import { describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { connect, McpError, type CallToolResult, type Client, type JsonRpcNotification } from '../packages/client/src/index.js';
import type { McpServer } from '@modelcontextprotocol/server';
import { buildServer, legacySessions, serve, type LegacySessions, type Served } from './fixtures/sdk-server.js';
import { byhand, until } from './support/cli.js';

type Handler = (request: Request) => Promise<Response>;

/** The JSON-RPC method of a POST, read from a copy so the handler still gets the body. */
async function methodOf(request: Request): Promise<string | undefined> {
  if (request.method !== 'POST') return undefined;
  return ((await request.clone().json()) as { method?: string }).method;
}

/** Forgets every session when a tools/call arrives: the first `times` of them, or each one. */
function forgetsAtCall(sessions: LegacySessions, times = Infinity): Handler {
  let forgotten = 0;
  return async (request) => {
    if ((await methodOf(request)) === 'tools/call' && forgotten++ < times) sessions.forget();
    return sessions.handler(request);
  };
}

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

/** The POSTs the server saw, as method and the session each carried. */
function posts(served: Served): { method: string; session: string | undefined }[] {
  return served.requests
    .filter((r) => r.method === 'POST')
    .map((r) => ({ method: (JSON.parse(r.body) as { method?: string }).method ?? 'response', session: r.headers['mcp-session-id'] }));
}

describe('a lost session, through the library', () => {
  test('a 404 to a request with the session starts a new session, once, and sends the request again', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const sessions = legacySessions();
    const served = cleanup(await serve(forgetsAtCall(sessions, 1)));
    const client = cleanup(await connect(served.url, { era: 'legacy' }));
    const first = client.sessionId;
    assert.equal(text(await client.callTool('echo', { text: 'again' })), 'echo: again');
    assert.equal(sessions.opened, 2);
    assert.notEqual(client.sessionId, first);
    const seen = posts(served);
    const refused = seen.findIndex((p) => p.method === 'tools/call');
    assert.equal(seen[refused].session, first);
    assert.deepEqual(seen[refused + 1], { method: 'initialize', session: undefined }, 'the new initialize carries no session');
    assert.deepEqual(seen.slice(refused + 2).map((p) => [p.method, p.session]), [['notifications/initialized', client.sessionId], ['tools/call', client.sessionId]]);
  });

  test('the host is told the session was renewed, once, with what was made again', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const told: string[] = [];
    const served = cleanup(await serve(forgetsAtCall(legacySessions(), 1)));
    const client = cleanup(await connect(served.url, { era: 'legacy', host: { sessionRenewed: (reason) => void told.push(reason) } }));
    assert.deepEqual(told, [], 'nothing to tell before the session is lost');
    await client.callTool('echo', { text: 'again' });
    await client.callTool('echo', { text: 'and again' });
    assert.deepEqual(told, ['the server no longer knew the 2025 session (a 404 to tools/call, which is sent again): a new session was started; what else the old one held on the server is gone']);
  });

  test('when the new session is refused too, the error says the server no longer knows it, with its message', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const sessions = legacySessions();
    const served = cleanup(await serve(forgetsAtCall(sessions)));
    const client = cleanup(await connect(served.url, { era: 'legacy' }));
    await assert.rejects(client.callTool('echo', { text: 'x' }), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, 'session');
      assert.match(error.message, /no longer knows the session/);
      assert.match(error.message, /another instance/);
      assert.match(error.message, /the server said: Session not found/);
      assert.match(error.hint, /sticky/);
      return true;
    });
    assert.equal(posts(served).filter((p) => p.method === 'initialize').length, 2, 'one new session, not more');
  });

  test('the new session is subscribed to what the old one was, before the request goes again; an unsubscribed URI is not', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    // The SDK server with resource subscriptions: each session records what it was asked to subscribe to.
    const subscribed: { session: string | undefined; uri: string }[] = [];
    const sessions = legacySessions(() => {
      const server = buildServer();
      server.server.registerCapabilities({ resources: { subscribe: true } });
      server.server.setRequestHandler('resources/subscribe', async (request, ctx) => {
        subscribed.push({ session: ctx.sessionId, uri: request.params.uri });
        return {};
      });
      server.server.setRequestHandler('resources/unsubscribe', async () => ({}));
      return server;
    });
    const served = cleanup(await serve(forgetsAtCall(sessions, 1)));
    const client = cleanup(await connect(served.url, { era: 'legacy' }));
    for (const uri of ['test://kept', 'test://dropped', 'test://also-kept']) await client.request('resources/subscribe', { uri });
    await client.request('resources/unsubscribe', { uri: 'test://dropped' });
    const first = client.sessionId;
    assert.equal(text(await client.callTool('echo', { text: 'again' })), 'echo: again');
    assert.notEqual(client.sessionId, first);
    assert.deepEqual(subscribed.filter((s) => s.session === client.sessionId).map((s) => s.uri), ['test://kept', 'test://also-kept']);
    const seen = posts(served);
    const renewed = seen.findIndex((p) => p.method === 'initialize' && seen.indexOf(p) > 0);
    assert.deepEqual(seen.slice(renewed).map((p) => p.method), ['initialize', 'notifications/initialized', 'resources/subscribe', 'resources/subscribe', 'tools/call']);
  });

  test('two instances behind round-robin routing: connecting says the session is unknown, not "no MCP endpoint"', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const instances = [legacySessions(), legacySessions()];
    let next = 0;
    const served = cleanup(await serve((request) => instances[next++ % 2].handler(request)));
    await assert.rejects(connect(served.url, { era: 'legacy' }), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, 'session');
      assert.match(error.message, /notifications\/initialized: the server no longer knows the session/);
      assert.doesNotMatch(error.hint, /no MCP endpoint/);
      return true;
    });
  });
});

describe('the standalone GET stream, closed by the server', () => {
  /**
   * The SDK's sessionful server with resource subscriptions; `servers` holds each session's McpServer, newest last.
   * Its standalone stream starts with the priming event SEP-1699 asks for (an id, `retry`, empty data), which the
   * SDK sends on POST streams only; without it byhand waits its default second before opening the stream again.
   */
  function subscribable(): { sessions: LegacySessions; servers: McpServer[]; handler: (request: Request) => Promise<Response> } {
    const servers: McpServer[] = [];
    const sessions = legacySessions(() => {
      const server = buildServer();
      server.server.registerCapabilities({ resources: { subscribe: true } });
      server.server.setRequestHandler('resources/subscribe', async () => ({}));
      servers.push(server);
      return server;
    });
    let primed = 0;
    const handler = async (request: Request) => {
      const response = await sessions.handler(request);
      if (request.method !== 'GET' || !response.ok || response.body === null) return response;
      const priming = new TextEncoder().encode(`id: priming-${++primed}\nretry: 20\ndata: \n\n`);
      const body = response.body;
      const primedBody = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(priming);
          const reader = body.getReader();
          for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) controller.enqueue(chunk.value);
          controller.close();
        },
        cancel: (reason) => body.cancel(reason),
      });
      return new Response(primedBody, { status: response.status, headers: response.headers });
    };
    return { sessions, servers, handler };
  }
  const gets = (served: Served) => served.requests.filter((r) => r.method === 'GET');

  /** Runs `body` with a legacy client of `handler`'s server, its notifications kept in `seen`; both closed after. */
  async function listening(handler: (request: Request) => Promise<Response>, body: (served: Served, client: Client, seen: JsonRpcNotification[]) => Promise<void>): Promise<void> {
    const served = await serve(handler);
    const seen: JsonRpcNotification[] = [];
    let client: Client | undefined;
    try {
      client = await connect(served.url, { era: 'legacy', onNotification: (n) => seen.push(n) });
      await body(served, client, seen);
    } finally {
      await client?.close();
      await served.close();
    }
  }

  /** Sends until `method` arrives: a new stream is registered as its GET is answered, and a notification sent before is lost. */
  const arrives = (seen: JsonRpcNotification[], method: string, send: () => unknown, what: string) =>
    until(() => {
      void send();
      return seen.some((n) => n.method === method);
    }, what);

  test('is opened again after the retry the server gave, with Last-Event-ID, and what the server sends later arrives (SEP-1699 polling)', { timeout: 30_000 }, async () => {
    const { sessions, servers, handler } = subscribable();
    await listening(handler, async (served, client, seen) => {
      await until(() => gets(served).length === 1, 'the first GET');
      sessions.closeStreams();
      await until(() => gets(served).length === 2, 'the GET that opens it again');
      const [first, again] = gets(served);
      assert.equal(first.headers['last-event-id'], undefined);
      assert.equal(again.headers['last-event-id'], 'priming-1', 'the second opening names the last event it saw');
      assert.equal(again.headers['mcp-session-id'], client.sessionId);
      assert.equal(servers.length, 1);
      await arrives(seen, 'notifications/resources/list_changed', () => servers[0].sendResourceListChanged(), 'the notification on the new stream');
    });
  });

  test('a 409 on opening again (the server still holds the stream that was cut) is tried again, later', { timeout: 30_000 }, async () => {
    const { sessions, servers, handler } = subscribable();
    let opening = 0;
    const conflicting = async (request: Request) => {
      if (request.method === 'GET' && ++opening === 2) return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Conflict: Only one SSE stream is allowed per session' } }, { status: 409 });
      return handler(request);
    };
    await listening(conflicting, async (served, _client, seen) => {
      await until(() => gets(served).length === 1, 'the first GET');
      sessions.closeStreams();
      await until(() => gets(served).length === 3, 'the GET refused with 409, then the one after it');
      assert.deepEqual(gets(served).map((r) => r.headers['last-event-id']), [undefined, 'priming-1', 'priming-1']);
      await arrives(seen, 'notifications/resources/list_changed', () => servers[0].sendResourceListChanged(), 'the notification on the stream opened at last');
    });
  });

  test('a session lost meanwhile (404 on opening again): a new session, subscribed again, whose stream is listened to', { timeout: 30_000 }, async () => {
    const { sessions, servers, handler } = subscribable();
    await listening(handler, async (served, client, seen) => {
      await client.request('resources/subscribe', { uri: 'test://kept' });
      await until(() => gets(served).length === 1, 'the first GET');
      const first = client.sessionId;
      sessions.forget();
      sessions.closeStreams();
      await until(() => sessions.opened === 2 && gets(served).length === 3, 'a new session and its GET');
      assert.notEqual(client.sessionId, first);
      const posted = served.requests.filter((r) => r.method === 'POST').map((r) => (JSON.parse(r.body) as { method?: string }).method);
      assert.deepEqual(posted.slice(-3), ['initialize', 'notifications/initialized', 'resources/subscribe']);
      assert.deepEqual(gets(served).map((r) => r.headers['mcp-session-id']), [first, first, client.sessionId]);
      await arrives(seen, 'notifications/resources/updated', () => servers.at(-1)!.server.sendResourceUpdated({ uri: 'test://kept' }), 'the update in the new session');
    });
  });

  test('a session lost meanwhile, and a new one refused: the host is told that nothing more will come, and why', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const { sessions, handler } = subscribable();
    let refusing = false;
    const refusingNew = async (request: Request) => {
      if (refusing && request.method === 'POST') return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'draining: no new sessions' } }, { status: 503 });
      return handler(request);
    };
    const served = cleanup(await serve(refusingNew));
    const told: string[] = [];
    cleanup(await connect(served.url, { era: 'legacy', host: { eventsEnded: (reason) => void told.push(reason) } }));
    await until(() => gets(served).length === 1, 'the first GET');
    refusing = true;
    sessions.forget();
    sessions.closeStreams();
    await until(() => told.length > 0, 'the host told');
    assert.equal(told.length, 1, told.join('\n'));
    assert.match(told[0], /^the server no longer knows the session, and a new one could not be started \(.*draining: no new sessions.*\): list changes, resource updates and the server's own requests between calls will not arrive in this session$/);
  });
});

describe('a lost session, through the CLI', () => {
  test('byhand call goes on in a new session when the server forgot the old one, and says so on stderr', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const sessions = legacySessions();
    const served = cleanup(await serve(forgetsAtCall(sessions, 1)));
    const run = await byhand('call', served.url, 'echo', 'text=hello', '--era', 'legacy');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /echo: hello/);
    assert.equal(sessions.opened, 2);
    assert.match(run.stderr, /^byhand: the server no longer knew the 2025 session \(a 404 to tools\/call, which is sent again\): a new session was started; what else the old one held on the server is gone$/m);
  });

  test('byhand call says the server no longer knows the session, with its message, and exits 1', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const served = cleanup(await serve(forgetsAtCall(legacySessions())));
    const run = await byhand('call', served.url, 'echo', 'text=hello', '--era', 'legacy');
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /✗ call echo on .*: tools\/call: the server no longer knows the session.*the server said: Session not found/);
    assert.match(run.stderr, /hint: .*sticky routing/);
    assert.doesNotMatch(run.stderr, /no MCP endpoint/);
  });
});
