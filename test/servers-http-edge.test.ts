// byhand serve's connection edge against a hostile peer: silent sockets that never close, one address taking every
// slot, an ambiguous Host, a CONNECT. Each case failed before its fix (a locked-out server, a silently dropped socket,
// a request served under the first of two Host headers).

import assert from 'node:assert/strict';
import { connect as tcpConnect, type Socket } from 'node:net';
import { describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { startServer } from '../packages/servers/src/edge/serve.js';
import { listenFetch, listenNode } from '../packages/servers/src/edge/listen.js';
import { readBodyOf } from '../packages/servers/src/edge/request-body.js';
import { request as httpRequest } from 'node:http';
import { dropRestOfBody } from '../packages/servers/src/edge/node-adapter.js';
import { clientKey } from '../packages/servers/src/edge/client-address.js';
import { modernRpc } from './servers-support.js';
import { oversizedThenNext, statusesIn } from './support/oversized.js';

const portOf = (url: string) => Number(new URL(url).port);

/** A socket that connects and then sends nothing, and never closes its side even when the server closes its own. */
async function silent(port: number, localAddress: string): Promise<{ socket: Socket; ended: Promise<void> }> {
  const socket = tcpConnect({ port, host: '127.0.0.1', localAddress, allowHalfOpen: true });
  socket.on('error', () => {});
  socket.resume();
  const ended = new Promise<void>((resolve) => {
    socket.once('end', resolve);
    socket.once('close', resolve);
  });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, ended };
}

/** Sends raw bytes from `localAddress` and resolves with everything the server wrote before it closed (or `ms` passed). */
function raw(port: number, bytes: string, localAddress = '127.0.0.1', ms = 5_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ port, host: '127.0.0.1', localAddress });
    let answer = '';
    const timer = setTimeout(() => socket.destroy(), ms);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', () => {});
    socket.write(bytes);
  });
}

const GET_KITCHEN = 'GET /api/kitchen HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';

describe('silent sockets cannot lock serve out', { timeout: 30_000 }, () => {
  test('one address holds at most maxConnectionsPerAddress; a client on another address is served meanwhile', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({
      port: 0,
      toolboxes: ['kitchen'],
      // Deadlines far beyond the test: only the per-address cap can free a slot here.
      limits: { maxConnections: 6, maxConnectionsPerAddress: 3, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 },
    }));
    const held: Socket[] = [];
    try {
      const port = portOf(server.url);
      const flood = [];
      for (let i = 0; i < 6; i++) flood.push(await silent(port, '127.0.0.1'));
      held.push(...flood.map((s) => s.socket));
      // Those over the cap are closed by the server at accept; those under it stay open.
      await Promise.all(flood.slice(3).map((s) => s.ended));
      const answer = await raw(port, GET_KITCHEN, '127.0.0.2');
      assert.match(answer, /^HTTP\/1\.1 \d{3} /, 'the client on 127.0.0.2 got an answer');
      const stillOpen = await Promise.race([Promise.any(flood.slice(0, 3).map((s) => s.ended)).then(() => false), Promise.resolve(true)]);
      assert.ok(stillOpen, 'the first three silent sockets are still held');
    } finally {
      for (const s of held) s.destroy();
    }
  });

  test('the per-client key: an IPv4 address, a mapped IPv4 address as the IPv4 one, an IPv6 address as its /64', () => {
    assert.equal(clientKey('203.0.113.7'), '203.0.113.7');
    assert.equal(clientKey('::ffff:203.0.113.7'), '203.0.113.7');
    // One subscriber's /64, written every way: one key, so rotating addresses in it does not buy more connections.
    const one = ['2001:db8:0:1::1', '2001:0DB8:0000:0001:ffff:ffff:ffff:fffe', '2001:db8:0:1:1:2:3:4', '2001:db8:0:1::1.2.3.4', '2001:db8:0:1::7%eth0'];
    assert.deepEqual([...new Set(one.map(clientKey))], ['2001:db8:0:1::/64']);
    assert.equal(clientKey('2001:db8:0:2::1'), '2001:db8:0:2::/64', 'the next /64 is another client');
    // What is no IPv6 address is kept as it came, never merged with another.
    for (const odd of ['1:2:3:4:5:6:7:8:9', '2001::db8::1', 'not-an-address']) assert.equal(clientKey(odd), odd);
  });

  test('an honest client with a hundred requests at once is served whole under the default limits', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({ port: 0, toolboxes: ['everything'] }));
    const url = server.urls.everything;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
    const statuses = await Promise.all(
      Array.from({ length: 100 }, async () => {
        try {
          const answer = await fetch(url, { method: 'POST', headers, body });
          await answer.arrayBuffer();
          return answer.status;
        } catch (error) {
          return String((error as Error & { cause?: { code?: string } }).cause?.code ?? error);
        }
      }),
    );
    assert.deepEqual(statuses, Array(100).fill(200), 'no request was cut at accept');
  });

  test('a socket that misses the header deadline is destroyed, not half-closed, so its slot comes back', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({
      port: 0,
      toolboxes: ['kitchen'],
      limits: { maxConnections: 3, maxConnectionsPerAddress: 3, headersTimeoutMs: 300, requestTimeoutMs: 300, timeoutCheckMs: 100 },
    }));
    const held: Socket[] = [];
    try {
      const port = portOf(server.url);
      const flood = [];
      for (let i = 0; i < 3; i++) flood.push(await silent(port, '127.0.0.1'));
      held.push(...flood.map((s) => s.socket));
      await Promise.all(flood.map((s) => s.ended));
      // The silent peers never close their side: only a server that destroyed its sockets has slots again.
      const answer = await raw(port, GET_KITCHEN, '127.0.0.2');
      assert.match(answer, /^HTTP\/1\.1 \d{3} /, `served after the deadline: ${JSON.stringify(answer.slice(0, 80))}`);
      assert.equal((await modernRpc(server.urls.kitchen, 'tools/list')).status, 200);
    } finally {
      for (const s of held) s.destroy();
    }
  });
});

describe('ambiguous or proxy requests get a 400', { timeout: 30_000 }, () => {
  test('two Host headers: 400, whichever comes first', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({ port: 0, toolboxes: ['kitchen'] }));
    const port = portOf(server.url);
    for (const hosts of [['127.0.0.1', 'evil.example'], ['127.0.0.1', '127.0.0.1']]) {
      const answer = await raw(port, `GET /api/kitchen HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join('')}Connection: close\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 400 /, `${hosts.join(', ')}: ${answer.slice(0, 120)}`);
      assert.match(answer, /more than one Host header/);
    }
    assert.equal((await modernRpc(server.urls.kitchen, 'tools/list')).status, 200, 'one Host header is still served');
  });

  test('CONNECT: 400 with a JSON-RPC -32600 body and the connection closed', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({ port: 0, toolboxes: ['kitchen'] }));
    const answer = await raw(portOf(server.url), 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 /, answer.slice(0, 120));
    assert.match(answer, /connection: close/i);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error?: { code?: number; message?: string } };
    assert.equal(body.error?.code, -32600);
    assert.match(body.error?.message ?? '', /CONNECT example\.com:443/);
    assert.equal((await modernRpc(server.urls.kitchen, 'tools/list')).status, 200, 'the process serves on');
  });
});

describe('an oversized body', { timeout: 30_000 }, () => {
  // The server answers 413 as soon as it knows; the client is still sending. A server that stops reading leaves the
  // upload stuck until the request deadline, and one that closes resets it: either way the client may never read its
  // 413 (seen as EPIPE in servers-soak under load).
  for (const framing of ['declared', 'chunked'] as const) {
    test(`(${framing}) is read to its end and dropped: the client reads its 413, and the connection serves the next request`, async (t) => {
      const cleanup = cleanupAfter(t);
      const server = cleanup(await startServer({ port: 0, toolboxes: ['kitchen'], maxBodyBytes: 64 * 1024, limits: { requestTimeoutMs: 3_000, headersTimeoutMs: 3_000 } }));
      const next = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
      const { answer, writeError } = await oversizedThenNext(portOf(server.url), '/api/kitchen', framing, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' }, next);
      assert.equal(writeError, undefined, `the upload was cut: ${answer.slice(0, 200)}`);
      assert.deepEqual(statusesIn(answer), [413, 200], answer.slice(0, 400));
    });
  }
});

/**
 * An oversized body (its length declared) whose first part brings the 413, then a pause past the request deadline
 * (over when the server ends its side or writes again; at once when the request asked `Connection: close`), then the
 * rest at once or dripped a byte every 50 ms. What the
 * server wrote, whether it ended its side, how long after that the connection closed, and the socket's error if the
 * rest could not be written.
 */
async function answeredThenLate(port: number, rest: 'sent' | 'dripped', connection: 'keep-alive' | 'close' = 'keep-alive'): Promise<{ answer: string; ended: boolean; closed: boolean; lingeredMs: number; writeError?: string }> {
  const socket = tcpConnect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let answer = '';
  let ended = false;
  let closed = false;
  let writeError: string | undefined;
  const changed: Array<() => void> = [];
  const wake = () => changed.splice(0).forEach((f) => f());
  const until = (condition: () => boolean) => new Promise<void>((resolve) => (condition() ? resolve() : changed.push(() => void until(condition).then(resolve))));
  socket.on('data', (chunk) => {
    answer += chunk.toString();
    wake();
  });
  socket.on('end', () => {
    ended = true;
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });
  socket.on('error', (error: NodeJS.ErrnoException) => (writeError ??= error.code ?? error.message));
  let guard: NodeJS.Timeout | undefined;
  let drip: NodeJS.Timeout | undefined;
  try {
    const size = 1024 * 1024;
    const first = 4 * 1024;
    socket.write(`POST /api/kitchen HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: ${connection}\r\nContent-Length: ${size}\r\n\r\n`);
    socket.write(Buffer.alloc(first, 'x'));
    const gaveUp = new Promise<void>((resolve) => (guard = setTimeout(resolve, 10_000)));
    // The whole 413 (its chunked body's last chunk), then the deadline: the server ends its side or writes again.
    await Promise.race([gaveUp, until(() => answer.includes('\r\n0\r\n\r\n'))]);
    const answered = answer.length;
    await Promise.race([gaveUp, until(() => ended || closed || answer.length > answered)]);
    const late = performance.now();
    if (rest === 'sent') {
      await new Promise<void>((resolve) => socket.write(Buffer.alloc(size - first, 'x'), () => resolve()));
      socket.end();
    } else {
      drip = setInterval(() => socket.write('x'), 50);
    }
    await Promise.race([gaveUp, until(() => closed)]);
    return { answer, ended, closed, lingeredMs: performance.now() - late, ...(writeError !== undefined ? { writeError } : {}) };
  } finally {
    clearTimeout(guard);
    clearInterval(drip);
    socket.destroy();
  }
}

describe('an oversized body still arriving when the request deadline passes', { timeout: 30_000 }, () => {
  // Under load (servers-soak) a server can fall behind reading the rest of a body it already answered 413. Its
  // deadline then wrote a 408 after the 413 and reset the connection, and the client's upload failed with EPIPE.
  const limits = { requestTimeoutMs: 300, headersTimeoutMs: 300, timeoutCheckMs: 50 };

  test('gets no second answer: the server half-closes, the client finishes sending and keeps its 413', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({ port: 0, toolboxes: ['kitchen'], maxBodyBytes: 64 * 1024, limits: { ...limits, lingerMs: 10_000 } }));
    const { answer, ended, closed, writeError } = await answeredThenLate(portOf(server.url), 'sent');
    assert.deepEqual(statusesIn(answer), [413], answer.slice(0, 400));
    assert.equal(writeError, undefined, 'the rest of the upload was written');
    assert.ok(ended && closed, 'the server ended its side, and the connection closed');
  });

  test('a client that drips the rest is cut after lingerMs', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({ port: 0, toolboxes: ['kitchen'], maxBodyBytes: 64 * 1024, limits: { ...limits, lingerMs: 200 } }));
    const { answer, closed, lingeredMs } = await answeredThenLate(portOf(server.url), 'dripped');
    assert.deepEqual(statusesIn(answer), [413], answer.slice(0, 400));
    assert.ok(closed, 'the server cut the connection');
    assert.ok(lingeredMs >= 150 && lingeredMs < 5_000, `cut ${Math.round(lingeredMs)} ms after the server ended its side`);
  });
});

test('an oversized body sent with Connection: close is read to its end: the client finishes sending and keeps its 413', { timeout: 30_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  // Node ends a Connection: close answer by destroying the socket once it is written, which reset the upload (EPIPE).
  const server = cleanup(await startServer({ port: 0, toolboxes: ['kitchen'], maxBodyBytes: 64 * 1024 }));
  const { answer, ended, closed, writeError } = await answeredThenLate(portOf(server.url), 'sent', 'close');
  assert.deepEqual(statusesIn(answer), [413], answer.slice(0, 400));
  assert.equal(writeError, undefined, 'the rest of the upload was written');
  assert.ok(ended && closed, 'the server ended its side, and the connection closed');
});

test('past its limit an unwanted body is not read on: the connection is destroyed', { timeout: 30_000 }, async () => {
  const listening = await listenNode((req, res) => {
    dropRestOfBody(req, 64 * 1024);
    res.writeHead(413).end();
    return Promise.resolve();
  }, { host: '127.0.0.1' });
  try {
    const { answer, writeError } = await oversizedThenNext(listening.port, '/mcp', 'declared', {}, '{}');
    assert.deepEqual(statusesIn(answer), [413], answer.slice(0, 200));
    assert.ok(writeError !== undefined, 'the rest of the upload met a closed connection');
  } finally {
    await listening.close();
  }
});

describe('a request body the listener reads whole', { timeout: 30_000 }, () => {
  test('one of a declared length up to bufferBytes reaches the handler read; a larger one, or one of no declared length, is streamed to it', async (t) => {
    const seen: string[] = [];
    const listening = await listenFetch(async (request) => {
      const read = readBodyOf(request);
      seen.push(read !== undefined ? `read ${read.bytes} B: ${read.text}` : `streamed: ${await request.text()}`);
      return new Response('ok');
    }, { host: '127.0.0.1', bufferBytes: 16 });
    t.after(() => listening.close());
    const post = (body: string, chunked = false) =>
      new Promise<void>((resolve, reject) => {
        const req = httpRequest(`${listening.origin}/mcp`, { method: 'POST', agent: false, headers: chunked ? { 'content-type': 'application/json' } : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        if (chunked) req.write(body);
        req.end(chunked ? undefined : body);
      });
    await post('{"a":"é"}');
    await post('{"long":"xxxxxxxxxxxxxxxx"}');
    await post('{"c":1}', true);
    assert.deepEqual(seen, ['read 10 B: {"a":"é"}', 'streamed: {"long":"xxxxxxxxxxxxxxxx"}', 'streamed: {"c":1}']);
  });
});
