// The transport contract (hono's `runTest({ newRouter })`, src/router/common.case.test.ts): what every Transport does,
// written once and run by each transport's own test file against the same scripted server (fixtures/contract-peer.ts).
// A new transport is done when its folder passes this. What a transport may differ in, it says itself (held,
// carriesHeaders), and the cases read that rather than its name.

import assert from 'node:assert/strict';
import { describe, test } from './node-test.js';
import { AbortedError, LimitError, McpError, TimeoutError, type Exchange, type Reply, type TraceEntry, type Transport } from '../../packages/client/src/index.js';
import { Deadline } from '../../packages/client/src/deadline.js';
import { DEFAULT_LIMITS, type Limits } from '../../packages/client/src/limits.js';
import { nextId } from '../../packages/client/src/transport/transport.js';
import type { JsonObject, JsonRpcNotification } from '../../packages/client/src/types.js';

export interface Opened {
  transport: Transport;
  /** Stops the server (the transport is closed by the case). */
  stop(): Promise<void>;
}

export interface TransportSubject {
  /** A transport to a fresh contract peer, reading at most `limits`, traced to `trace`. */
  open(options: { limits: Limits; trace: (entry: TraceEntry) => void }): Promise<Opened>;
  /** Whether a request given up is told to the server (notifications/cancelled): stdio and HTTP+SSE do; Streamable HTTP only in a 2025 session. */
  tellsAbandon: boolean;
}

const LIMIT = 16 * 1024;

interface Sent extends Partial<Omit<Exchange, 'deadline'>> {
  ms?: number;
  signal?: AbortSignal;
}

/** One request through the transport, with a deadline of its own, disposed after. */
async function send(transport: Transport, method: string, params: JsonObject = {}, sent: Sent = {}): Promise<Reply> {
  const deadline = new Deadline(method, sent.ms ?? 10_000, sent.signal);
  try {
    return await transport.request({ jsonrpc: '2.0', id: nextId(), method, params }, { headers: sent.headers ?? {}, deadline, onNotification: sent.onNotification, onServerRequest: sent.onServerRequest });
  } finally {
    deadline.dispose();
  }
}

export function transportContract(name: string, subject: TransportSubject): void {
  describe(`the transport contract: ${name}`, () => {
    /** A transport for one case, closed (and its server stopped) however the case ends. */
    const opened = async (t: { after(fn: () => Promise<void>): void }, trace: TraceEntry[] = []) => {
      const { transport, stop } = await subject.open({ limits: { ...DEFAULT_LIMITS, maxMessageBytes: LIMIT }, trace: (entry) => trace.push(entry) });
      t.after(async () => {
        await transport.close();
        await stop();
      });
      return transport;
    };

    test('says what it can do: a name, the key its verdict is kept under, and what it carries', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      assert.ok(typeof transport.name === 'string' && transport.name.length > 0);
      assert.ok(typeof transport.key === 'string' && transport.key.length > 0);
      assert.equal(typeof transport.carriesHeaders, 'boolean');
      assert.equal(typeof transport.held, 'boolean');
    });

    test('each request gets its own answer, many at once', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      const replies = await Promise.all(Array.from({ length: 8 }, (_, n) => send(transport, 'echo', { n })));
      assert.deepEqual(replies.map((r) => r.message.result), Array.from({ length: 8 }, (_, n) => ({ echo: { n } })));
    });

    test('a notification sent while a request runs reaches that request, before its answer', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      const seen: string[] = [];
      const reply = await send(transport, 'notify-first', {}, { onNotification: (n: JsonRpcNotification) => void seen.push(n.method) });
      seen.push('answer');
      assert.deepEqual(reply.message.result, {});
      assert.deepEqual(seen, ['notifications/message', 'answer']);
    });

    test('a request of the server\'s while a request runs is answered through onServerRequest, and the server reads the answer', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      const asked: string[] = [];
      const reply = await send(transport, 'ask', {}, {
        onServerRequest: async (request) => {
          asked.push(request.method);
          return { result: { role: 'assistant', content: { type: 'text', text: 'bread' }, model: 'test' } };
        },
      });
      assert.deepEqual(asked, ['sampling/createMessage']);
      assert.deepEqual(reply.message.result, { answered: { role: 'assistant', content: { type: 'text', text: 'bread' }, model: 'test' } });
    });

    test('a JSON-RPC error is a reply, not a throw', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      const reply = await send(transport, 'error');
      assert.deepEqual(reply.message.error, { code: -32001, message: 'no such thing' });
    });

    test('a request past its deadline fails with a TimeoutError, and the next one is served', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      await assert.rejects(send(transport, 'hang', {}, { ms: 200 }), (e: unknown) => e instanceof TimeoutError && /hang got no answer within 200 ms/.test(e.message));
      assert.deepEqual((await send(transport, 'echo', { after: 'timeout' })).message.result, { echo: { after: 'timeout' } });
    });

    test('a request its caller aborts fails with an AbortedError', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      const caller = new AbortController();
      const hanging = send(transport, 'hang', {}, { signal: caller.signal });
      // Aborted once the request is on its way: the server has it, and says so by answering the next one.
      await send(transport, 'echo');
      caller.abort();
      await assert.rejects(hanging, (e: unknown) => e instanceof AbortedError);
    });

    test(`a request given up is ${subject.tellsAbandon ? '' : 'not '}told to the server`, { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      await assert.rejects(send(transport, 'hang', {}, { ms: 200 }), TimeoutError);
      // The notification goes out on its own; the server has it once it has answered a request sent after it.
      let notified: string[] = [];
      for (let tries = 0; tries < 50; tries++) {
        notified = ((await send(transport, 'notified')).message.result as { notifications: string[] }).notifications;
        if (!subject.tellsAbandon || notified.length > 0) break;
      }
      assert.deepEqual(notified, subject.tellsAbandon ? ['notifications/cancelled'] : []);
    });

    test('an answer larger than limits.maxMessageBytes is refused with a LimitError', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      await assert.rejects(send(transport, 'big', { bytes: LIMIT * 2 }), (e: unknown) => e instanceof LimitError);
    });

    test('what is not JSON-RPC is passed over, and the answer after it arrives', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      assert.deepEqual((await send(transport, 'stray-first')).message.result, { after: 'stray' });
    });

    test('a notification of the client\'s reaches the server', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      const deadline = new Deadline('notifications/initialized', 10_000);
      try {
        await transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' }, { deadline, headers: {} });
      } finally {
        deadline.dispose();
      }
      assert.deepEqual((await send(transport, 'notified')).message.result, { notifications: ['notifications/initialized'] });
    });

    test('what it can carry, the server reads: the headers it was given where it carries headers', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      const reply = await send(transport, 'headers', {}, { headers: { 'mcp-method': 'headers' } });
      const headers = (reply.message.result as { headers: Record<string, string> }).headers;
      assert.equal(headers['mcp-method'], transport.carriesHeaders ? 'headers' : undefined);
    });

    test('the trace sees the request go out and its answer come back', { timeout: 20_000 }, async (t) => {
      const trace: TraceEntry[] = [];
      const transport = await opened(t, trace);
      const reply = await send(transport, 'echo', { traced: true });
      const id = reply.message.id;
      assert.ok(trace.some((e) => e.direction === 'send' && e.message && 'method' in e.message && e.message.method === 'echo'), JSON.stringify(trace));
      assert.ok(trace.some((e) => e.direction === 'receive' && e.message && 'id' in e.message && e.message.id === id), JSON.stringify(trace));
    });

    test('between requests, a held transport hands what the server sends to its listener', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      if (!transport.held) {
        assert.equal(transport.listen, undefined, 'a transport that holds no connection has nothing to listen on');
        return;
      }
      const heard = new Promise<string>((resolve) => transport.listen!({ headers: {}, onNotification: (n) => resolve(n.method) }, 10_000));
      await send(transport, 'tell-later');
      assert.equal(await heard, 'notifications/resources/list_changed');
    });

    test('close ends it: a second close is harmless, and a request after it fails with an McpError', { timeout: 20_000 }, async (t) => {
      const transport = await opened(t);
      await send(transport, 'echo');
      await transport.close();
      await transport.close();
      if (transport.held) await assert.rejects(send(transport, 'echo'), McpError);
    });
  });
}
