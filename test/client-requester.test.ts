// The two requesters under one contract (wire.ts): node:http (the Node default, requester-node.ts) and
// fetch. The node one stops a request through a listener on the deadline rather than an AbortSignal,
// reads the body from 'data' events with the response paused while more than a bound waits, and parses the URL
// once; these tests hold it to what fetch does in the middle of a body: a deadline or a caller's abort
// ends the call and closes the connection, a connection cut short is an error and not a hang, a body
// that drips in many chunks arrives whole. Loopback only.

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { AbortedError, StreamClosedError, TimeoutError, connect } from '../packages/client/src/index.js';
import { Deadline } from '../packages/client/src/deadline.js';
import { HttpTransport } from '../packages/client/src/transport/http/http.js';
import { DEFAULT_LIMITS } from '../packages/client/src/limits.js';
import { readText } from '../packages/client/src/transport/bytes.js';
import { fetchRequester } from '../packages/client/src/transport/http/wire.js';
import { bodyOf, nodeRequester } from '../packages/client/src/transport/http/requester-node.js';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { listen, modern } from './fixtures/loopback.js';

const TEXT = 'x'.repeat(64 * 1024);

/** A tools/call answer whose headers come at once and whose body waits for `release` (or never comes). */
function stalledServer() {
  const closed: Promise<void>[] = [];
  return {
    closed,
    handler: modern((request, res, req) => {
      closed.push(new Promise((resolve) => req.socket.once('close', () => resolve())));
      const body = JSON.stringify({ jsonrpc: '2.0', id: request.json!.id, result: { content: [{ type: 'text', text: 'late' }] } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      res.write(body.slice(0, 10));
      // The rest never comes: the client must give up by its deadline or its caller's abort.
    }),
  };
}

/** `promise`, or `failure` after `ms`; the timer is cleared either way, so it never holds the file open. */
async function within(promise: Promise<void> | undefined, ms: number, failure: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(failure)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

describe('requesters: the middle of a body', () => {
  for (const transport of ['node', 'fetch'] as const) {
    test(`${transport}: a body that stalls after its headers ends in a TimeoutError, and the connection is closed`, { timeout: 15_000 }, async (t) => {
      const cleanup = cleanupAfter(t);
      const stalled = stalledServer();
      const server = cleanup(await listen(stalled.handler));
      const client = cleanup(await connect(server.url, { transport }));
      await assert.rejects(client.callTool('stall', {}, { timeoutMs: 400 }), (e: unknown) => e instanceof TimeoutError && /tools\/call got no answer within 400 ms/.test(e.message));
      await within(stalled.closed[0], 5000, 'the client kept the stalled connection open');
    });

    test(`${transport}: a caller's abort in the middle of a body ends the call with an AbortedError`, { timeout: 15_000 }, async (t) => {
      const cleanup = cleanupAfter(t);
      const stalled = stalledServer();
      const server = cleanup(await listen(stalled.handler));
      const client = cleanup(await connect(server.url, { transport }));
      const controller = new AbortController();
      const call = client.callTool('stall', {}, { signal: controller.signal });
      while (server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort(new Error('the user pressed stop'));
      await assert.rejects(call, (e: unknown) => e instanceof AbortedError && /the user pressed stop/.test(e.message));
      await within(stalled.closed[0], 5000, 'the client kept the aborted connection open');
    });

    test(`${transport}: a connection cut before the body ends is a StreamClosedError, not a hang`, { timeout: 15_000 }, async (t) => {
      const cleanup = cleanupAfter(t);
      const server = cleanup(await listen(modern((request, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write(`{"jsonrpc":"2.0","id":${request.json!.id},"result":`);
        setTimeout(() => res.socket?.destroy(), 20);
      })));
      const client = cleanup(await connect(server.url, { transport, timeoutMs: 10_000 }));
      const started = Date.now();
      await assert.rejects(client.callTool('cut'), (e: unknown) => e instanceof StreamClosedError && /the answer to tools\/call broke off/.test(e.message));
      assert.ok(Date.now() - started < 5000, 'the cut was noticed at once, not at the deadline');
    });

    test(`${transport}: a body that drips in many chunks arrives whole${transport === 'node' ? ', and the connection is reused' : ''}`, { timeout: 15_000 }, async (t) => {
      const cleanup = cleanupAfter(t);
      const ports = new Set<number | undefined>();
      const server = cleanup(await listen(modern(async (request, res, req) => {
        ports.add(req.socket.remotePort);
        const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: request.json!.id, result: { content: [{ type: 'text', text: TEXT }] } }));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
        for (let at = 0; at < body.length; at += 4096) {
          res.write(body.subarray(at, at + 4096));
          await new Promise((resolve) => setImmediate(resolve));
        }
        res.end();
      })));
      const client = cleanup(await connect(server.url, { transport }));
      for (let i = 0; i < 3; i++) {
        const result = await client.callTool('drip');
        assert.equal((result.content[0] as { text: string }).text, TEXT);
      }
      // Reuse is the node requester's own doing (its keep-alive agent); undici decides its own.
      if (transport === 'node') assert.equal(ports.size, 1, 'three calls in a row share one kept-alive connection');
    });
  }
});

describe('node:http keep-alive', () => {
  /** The requester's clock, moved by the test; `sweep` runs what the requester's timer would run. */
  function manualClock() {
    let now = 0;
    const ticks: (() => void)[] = [];
    return {
      clock: { now: () => now, every: (_ms: number, tick: () => void) => (ticks.push(tick), () => void ticks.splice(ticks.indexOf(tick), 1)) },
      advance(ms: number) {
        now += ms;
        for (const tick of [...ticks]) tick();
      },
      get sweeps() {
        return ticks.length;
      },
    };
  }

  /** One POST through the requester, its body read whole. */
  async function post(requester: ReturnType<typeof nodeRequester>, url: string, id: number): Promise<string> {
    const deadline = new Deadline('tools/call', 10_000);
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'x' } });
      const response = await requester({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body, abort: deadline });
      let text = '';
      for (let chunk = await response.body.read(); chunk; chunk = await response.body.read()) text += Buffer.from(chunk).toString('utf8');
      return text;
    } finally {
      deadline.dispose();
    }
  }

  test("an idle connection is dropped before the server's Keep-Alive hint runs out, not reused as the server closes it", { timeout: 10_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const ports: (number | undefined)[] = [];
    const server = cleanup(await listen(modern((request, res, req) => {
      ports.push(req.socket.remotePort);
      res.writeHead(200, { 'content-type': 'application/json', 'keep-alive': 'timeout=2' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: request.json!.id, result: { content: [] } }));
    })));
    const time = manualClock();
    const requester = nodeRequester(time.clock);
    try {
      await post(requester, server.url, 1);
      await post(requester, server.url, 2);
      // The hint says 2 s; the client keeps an idle connection 1 s (the hint less a second).
      time.advance(900);
      await post(requester, server.url, 3);
      time.advance(1000);
      await new Promise((resolve) => setImmediate(resolve));
      await post(requester, server.url, 4);
      assert.deepEqual([ports[1], ports[2]], [ports[0], ports[0]], 'calls in a row, and after an idle while under the hint, share the connection');
      assert.notEqual(ports[3], ports[2], 'past the hint less a second, the client opened a new connection');
    } finally {
      requester.close?.();
    }
    assert.equal(time.sweeps, 0, 'closing the requester stops its sweep');
  });

  test('without a hint an idle connection lasts 4 s; a quiet answer in use is never cut, however long', { timeout: 10_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const ports: (number | undefined)[] = [];
    let release: (() => void) | undefined;
    const server = cleanup(await listen(modern((request, res, req) => {
      ports.push(req.socket.remotePort);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      const end = () => res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: request.json!.id, result: { content: [] } })}\n\n`);
      if (request.json!.id === 1) release = end;
      else end();
    })));
    const time = manualClock();
    const requester = nodeRequester(time.clock);
    try {
      const quiet = post(requester, server.url, 1);
      while (!release) await new Promise((resolve) => setImmediate(resolve));
      time.advance(60_000);
      release();
      assert.match(await quiet, /"id":1/, 'the quiet answer arrived whole after a minute of fake time');
      time.advance(3900);
      await post(requester, server.url, 2);
      time.advance(4000);
      await new Promise((resolve) => setImmediate(resolve));
      await post(requester, server.url, 3);
      assert.equal(ports[1], ports[0], 'idle under 4 s: reused');
      assert.notEqual(ports[2], ports[1], 'idle 4 s: a new connection');
    } finally {
      requester.close?.();
    }
  });
});

describe('the deadline', () => {
  // A deadline's timer is unref'd (it must not hold a process open), so the test holds the event loop itself.
  let hold: ReturnType<typeof setInterval>;
  beforeEach(() => (hold = setInterval(() => undefined, 1000)));
  afterEach(() => clearInterval(hold));

  test('makes no AbortSignal until one is asked for, and tells its listeners when it expires', { timeout: 5_000 }, async () => {
    const deadline = new Deadline('tools/call', 20);
    try {
      const fired = new Promise<void>((resolve) => deadline.onAbort(resolve));
      assert.equal((deadline as unknown as { controller?: AbortController }).controller, undefined);
      await fired;
      assert.equal(deadline.aborted, true);
      assert.ok(deadline.failure() instanceof TimeoutError);
      // Asked for after it expired, the signal is already aborted with the timeout.
      assert.equal(deadline.signal.aborted, true);
      assert.ok(deadline.signal.reason instanceof TimeoutError);
    } finally {
      deadline.dispose();
    }
  });

  test("a caller's signal reaches listeners, and a listener removed is not called", { timeout: 5_000 }, async () => {
    const outer = new AbortController();
    const deadline = new Deadline('tools/call', 60_000, outer.signal);
    try {
      let removedCalls = 0;
      const stop = deadline.onAbort(() => removedCalls++);
      stop();
      const fired = new Promise<void>((resolve) => deadline.onAbort(resolve));
      outer.abort(new Error('stop'));
      await fired;
      assert.equal(removedCalls, 0);
      assert.equal(deadline.aborted, true);
      const failure = deadline.failure();
      assert.ok(failure instanceof AbortedError && /stop/.test(failure.message));
    } finally {
      deadline.dispose();
    }
  });

  test("a caller's signal is followed by one listener per use, all gone at dispose, however many requests share the signal", { timeout: 5_000 }, async () => {
    const outer = new AbortController();
    for (let i = 0; i < 50; i++) {
      const deadline = new Deadline('tasks/get', 60_000, outer.signal);
      // node:http's way: a listener, no AbortSignal of ours.
      deadline.onAbort(() => undefined);
      assert.equal(getEventListeners(outer.signal, 'abort').length, 1);
      // fetch's way: the deadline's own signal follows the caller's.
      assert.equal(deadline.signal.aborted, false);
      assert.equal(getEventListeners(outer.signal, 'abort').length, 2);
      deadline.dispose();
      assert.equal(getEventListeners(outer.signal, 'abort').length, 0);
    }
    assert.equal(getEventListeners(outer.signal, 'abort').length, 0);
    // Followed, the caller's abort reaches the deadline's signal with the caller's reason.
    const deadline = new Deadline('tools/call', 60_000, outer.signal);
    try {
      const { signal } = deadline;
      outer.abort(new Error('enough'));
      assert.equal(signal.aborted, true);
      assert.match((signal.reason as Error).message, /enough/);
      // Asked for after the caller aborted, the signal is already aborted.
      const late = new Deadline('tools/call', 60_000, outer.signal);
      assert.equal(late.signal.aborted, true);
      late.dispose();
    } finally {
      deadline.dispose();
    }
  });
});

describe('requesters: what goes out, what is read', () => {
  for (const [name, make] of [['node', () => nodeRequester()], ['fetch', () => fetchRequester()]] as const) {
    test(`${name}: the body goes out counted (Content-Length, not chunked), and a repeated header reads joined as fetch joins it`, { timeout: 10_000 }, async (t) => {
      const cleanup = cleanupAfter(t);
      const server = cleanup(await listen((_request, res) => {
        res.setHeader('x-twice', ['a', 'b']);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      }));
      const requester = make();
      const deadline = new Deadline('tools/call', 5000);
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'é' } });
      try {
        const response = await requester({ method: 'POST', url: server.url, headers: { 'content-type': 'application/json' }, body, abort: deadline });
        assert.equal(await readText(response.body, 1024, 'the answer'), '{}');
        assert.equal(response.header('X-Twice'), 'a, b');
        assert.equal(response.header('x-absent'), null);
        const { headers, body: received } = server.requests[0];
        assert.equal(received, body);
        assert.equal(headers['content-length'], String(Buffer.byteLength(body)));
        assert.equal(headers['transfer-encoding'], undefined);
      } finally {
        deadline.dispose();
        requester.close?.();
      }
    });
  }
});

describe('authorization sees each answer', () => {
  // On Node 20 the first Headers object loads undici and each costs more than a request on node:http;
  // the checkpoint's stored-login hook sees every answer of hundreds of servers, and needs one header of each.
  test('through one header at a time: no Headers object unless the hook asks for all of them', { timeout: 10_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await listen(modern((request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'dpop-nonce': `n-${String(request.json!.id)}` });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: request.json!.id, result: { tools: [] } }));
    })));
    const nonces: (string | null)[] = [];
    let built = 0;
    const requester = nodeRequester();
    const counting = Object.assign(
      async (request: Parameters<typeof requester>[0]) => {
        const response = await requester(request);
        return { ...response, headers: () => (built++, response.headers()) };
      },
      { close: () => requester.close?.() },
    );
    const auth = {
      headers: async () => ({}),
      challenged: async () => false,
      answered: (answer: { header(name: string): string | null }) => void nonces.push(answer.header('dpop-nonce')),
    };
    const transport = new HttpTransport({ url: server.url, requester: counting, limits: DEFAULT_LIMITS, auth });
    const deadline = new Deadline('tools/list', 5000);
    try {
      const reply = await transport.request({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }, { deadline, headers: {} });
      assert.deepEqual(reply.message.result, { tools: [] });
      assert.deepEqual(nonces, ['n-7']);
      assert.equal(built, 0, 'a Headers object was built for an answer nobody asked all the headers of');
    } finally {
      deadline.dispose();
      await transport.close();
    }
  });
});

describe('the node body reader', () => {
  /** A response as node:http hands it over: 'data' events, and pause/resume counted. */
  function fakeResponse() {
    const res = Object.assign(new EventEmitter(), { pauses: 0, resumes: 0, pause() { res.pauses++; }, resume() { res.resumes++; }, destroy() {} });
    return res;
  }

  test('an answer in one chunk is read without pausing the socket; a flood past the bound pauses it until read', { timeout: 5_000 }, async () => {
    const small = fakeResponse();
    const smallBody = bodyOf(small as unknown as IncomingMessage, () => undefined);
    small.emit('data', Buffer.from('{"jsonrpc":"2.0"}'));
    small.emit('end');
    assert.equal(Buffer.from((await smallBody.read())!).toString(), '{"jsonrpc":"2.0"}');
    assert.equal(await smallBody.read(), undefined);
    assert.deepEqual([small.pauses, small.resumes], [0, 0], 'one small answer: no pause, no resume');

    const big = fakeResponse();
    const bigBody = bodyOf(big as unknown as IncomingMessage, () => undefined);
    const chunk = Buffer.alloc(40 * 1024, 1);
    big.emit('data', chunk);
    assert.equal(big.pauses, 0, 'under the bound: flowing');
    big.emit('data', chunk);
    assert.equal(big.pauses, 1, 'past the bound: paused');
    big.emit('data', chunk);
    assert.equal(big.pauses, 1, 'paused once');
    await bigBody.read();
    assert.equal(big.resumes, 0, 'still past the bound after one read');
    await bigBody.read();
    assert.equal(big.resumes, 1, 'back under the bound: resumed');
  });
});
