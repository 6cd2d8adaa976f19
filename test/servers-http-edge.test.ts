// byhand serve's connection edge against a hostile peer: silent sockets that never close, one address taking every
// slot, an ambiguous Host, a CONNECT. Each case failed before its fix (a locked-out server, a silently dropped socket,
// a request served under the first of two Host headers).

import assert from 'node:assert/strict';
import { connect as tcpConnect, type Socket } from 'node:net';
import { describe, test } from './support/node-test.js';
import { startServer } from '../packages/servers/src/edge/serve.js';
import { listenNode } from '../packages/servers/src/edge/listen.js';
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
  test('one address holds at most maxConnectionsPerAddress; a client on another address is served meanwhile', async () => {
    const server = await startServer({
      port: 0,
      toolboxes: ['kitchen'],
      // Deadlines far beyond the test: only the per-address cap can free a slot here.
      limits: { maxConnections: 6, maxConnectionsPerAddress: 3, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 },
    });
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
      await server.close();
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

  test('an honest client with a hundred requests at once is served whole under the default limits', async () => {
    const server = await startServer({ port: 0, toolboxes: ['everything'] });
    try {
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
    } finally {
      await server.close();
    }
  });

  test('a socket that misses the header deadline is destroyed, not half-closed, so its slot comes back', async () => {
    const server = await startServer({
      port: 0,
      toolboxes: ['kitchen'],
      limits: { maxConnections: 3, maxConnectionsPerAddress: 3, headersTimeoutMs: 300, requestTimeoutMs: 300, timeoutCheckMs: 100 },
    });
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
      await server.close();
    }
  });
});

describe('ambiguous or proxy requests get a 400', { timeout: 30_000 }, () => {
  test('two Host headers: 400, whichever comes first', async () => {
    const server = await startServer({ port: 0, toolboxes: ['kitchen'] });
    try {
      const port = portOf(server.url);
      for (const hosts of [['127.0.0.1', 'evil.example'], ['127.0.0.1', '127.0.0.1']]) {
        const answer = await raw(port, `GET /api/kitchen HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join('')}Connection: close\r\n\r\n`);
        assert.match(answer, /^HTTP\/1\.1 400 /, `${hosts.join(', ')}: ${answer.slice(0, 120)}`);
        assert.match(answer, /more than one Host header/);
      }
      assert.equal((await modernRpc(server.urls.kitchen, 'tools/list')).status, 200, 'one Host header is still served');
    } finally {
      await server.close();
    }
  });

  test('CONNECT: 400 with a JSON-RPC -32600 body and the connection closed', async () => {
    const server = await startServer({ port: 0, toolboxes: ['kitchen'] });
    try {
      const answer = await raw(portOf(server.url), 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      assert.match(answer, /^HTTP\/1\.1 400 /, answer.slice(0, 120));
      assert.match(answer, /connection: close/i);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error?: { code?: number; message?: string } };
      assert.equal(body.error?.code, -32600);
      assert.match(body.error?.message ?? '', /CONNECT example\.com:443/);
      assert.equal((await modernRpc(server.urls.kitchen, 'tools/list')).status, 200, 'the process serves on');
    } finally {
      await server.close();
    }
  });
});

describe('an oversized body', { timeout: 30_000 }, () => {
  // The server answers 413 as soon as it knows; the client is still sending. A server that stops reading leaves the
  // upload stuck until the request deadline, and one that closes resets it: either way the client may never read its
  // 413 (seen as EPIPE in servers-soak under load).
  for (const framing of ['declared', 'chunked'] as const) {
    test(`(${framing}) is read to its end and dropped: the client reads its 413, and the connection serves the next request`, async () => {
      const server = await startServer({ port: 0, toolboxes: ['kitchen'], maxBodyBytes: 64 * 1024, limits: { requestTimeoutMs: 3_000, headersTimeoutMs: 3_000 } });
      try {
        const next = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
        const { answer, writeError } = await oversizedThenNext(portOf(server.url), '/api/kitchen', framing, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' }, next);
        assert.equal(writeError, undefined, `the upload was cut: ${answer.slice(0, 200)}`);
        assert.deepEqual(statusesIn(answer), [413, 200], answer.slice(0, 400));
      } finally {
        await server.close();
      }
    });
  }
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
