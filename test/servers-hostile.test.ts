// Hostile clients against `byhand serve` and the toolboxes: each case failed before its fix (a dead process, held
// descriptors, unbounded memory, a wrong or lost answer, a misleading banner).

import assert from 'node:assert/strict';
import { connect as tcpConnect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import { describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { createKitchen } from '../packages/servers/src/toolboxes/create.js';
import { createEventStore } from '../packages/servers/src/edge/sessions.js';
import { startServer } from '../packages/servers/src/edge/serve.js';
import { initializeParams, modernRpc } from './servers-support.js';
import { byhand } from './support/cli.js';
import { startServe } from './support/instances.js';

/** Sends raw bytes and resolves with everything the server wrote before it closed (or `ms` passed). */
function raw(port: number, bytes: string, ms = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(port, '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, ms);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      if (answer === '') reject(error);
      else resolve(answer);
    });
    socket.end(bytes);
  });
}

const portOf = (url: string) => Number(new URL(url).port);

describe('byhand serve survives requests the web Request constructor refuses', { timeout: 60_000 }, () => {
  test('a forbidden method and a foreign absolute target get 400; the process keeps serving', async (t) => {
    const cleanup = cleanupAfter(t);
    const serve = cleanup(await startServe([], {}));
    const port = portOf(serve.url);
    for (const line of ['TRACE /api/kitchen HTTP/1.1', 'GET http://evil.example/api/kitchen HTTP/1.1']) {
      const answer = await raw(port, `${line}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 400/, `${line}: ${answer.slice(0, 200)}`);
    }
    assert.equal(serve.child.exitCode, null, 'still running');
    const listed = await modernRpc(`${serve.url}/api/kitchen`, 'tools/list');
    assert.equal(listed.status, 200);
  });
});

describe('slow and many connections are bounded', { timeout: 60_000 }, () => {
  test('a body dripped byte by byte is cut off with 408, and other clients are answered meanwhile', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({ port: 0, toolboxes: ['kitchen'], limits: { requestTimeoutMs: 600, timeoutCheckMs: 100 } }));
    const socket = tcpConnect(portOf(server.url), '127.0.0.1');
    try {
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.write('POST /api/kitchen HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      const drip = setInterval(() => socket.writable && socket.write(' '), 50);
      try {
        assert.equal((await modernRpc(server.urls.kitchen, 'tools/list')).status, 200, 'served while the drip goes on');
        await closed;
      } finally {
        clearInterval(drip);
      }
      assert.match(answer, /^HTTP\/1\.1 408/);
    } finally {
      socket.destroy();
    }
  });

  test('connections beyond maxConnections are refused at accept; idle ones time out and service resumes', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({ port: 0, toolboxes: ['kitchen'], limits: { maxConnections: 4, headersTimeoutMs: 500, requestTimeoutMs: 500, timeoutCheckMs: 100 } }));
    const idle: Socket[] = [];
    try {
      for (let i = 0; i < 4; i++) {
        const socket = tcpConnect(portOf(server.url), '127.0.0.1');
        socket.on('error', () => {});
        socket.resume(); // read, so the server's 408 and close are seen
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write('POST /api/kitchen HTTP/1.1\r\n'); // headers never finished
        idle.push(socket);
      }
      const refused = await raw(portOf(server.url), 'GET /api/kitchen HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 2_000).catch(() => '');
      assert.doesNotMatch(refused, /^HTTP\/1\.1 [24]\d\d/, 'the fifth connection is not served');
      await Promise.all(idle.map((s) => new Promise((resolve) => (s.destroyed ? resolve(null) : s.once('close', resolve)))));
      assert.equal((await modernRpc(server.urls.kitchen, 'tools/list')).status, 200);
    } finally {
      for (const s of idle) s.destroy();
    }
  });
});

describe('wrong bodies get the right JSON-RPC error, and a 413 arrives', { timeout: 60_000 }, () => {
  test('empty, non-JSON, non-JSON-RPC and a bare response: -32700 / -32600, not a session error, on every toolbox', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({ port: 0 }));
    for (const [name, url] of Object.entries(server.urls)) {
      const post = (body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
      for (const [body, code] of [['', -32700], ['{"jsonrpc":', -32700], ['42', -32600], ['{"jsonrpc":"2.0","id":1,"result":{}}', -32600]] as const) {
        const answer = await post(body);
        const json = (await answer.json()) as { error?: { code: number } };
        assert.equal(answer.status, 400, `${name} ${body}`);
        assert.equal(json.error?.code, code, `${name} ${JSON.stringify(body)}: ${JSON.stringify(json)}`);
      }
    }
  });

  test('an oversized body on a keep-alive connection gets its 413, not a reset', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({ port: 0, toolboxes: ['kitchen'], maxBodyBytes: 64 * 1024 }));
    const body = Buffer.alloc(2 * 1024 * 1024, 'a');
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(server.urls.kitchen, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length, connection: 'keep-alive' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.once('error', reject);
      req.end(body);
    });
    assert.equal(status, 413);
  });

  test('arguments nested a hundred thousand deep are refused plainly, and the next call works', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({ port: 0, toolboxes: ['kitchen'] }));
    // Built as text: JSON.stringify itself recurses and could not write it.
    const meta = JSON.stringify({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} });
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"summarise_week","_meta":${meta},"arguments":{"depth":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`;
    const answer = await fetch(server.urls.kitchen, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'summarise_week' },
      body,
    });
    assert.equal(answer.status, 400);
    assert.match(await answer.text(), /nested deeper than 64 levels/);
    assert.equal((await modernRpc(server.urls.kitchen, 'tools/list')).status, 200);
  });
});

describe('memory stays bounded', { timeout: 60_000 }, () => {
  test('the legacy event store keeps a byte budget per session', async () => {
    const store = createEventStore({ events: 1_000, bytes: 10_000 });
    const big = { jsonrpc: '2.0' as const, method: 'notifications/message', params: { data: 'x'.repeat(900) } };
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push(await store.storeEvent('s1', big));
    assert.ok(store.bytes <= 10_000, `${store.bytes} bytes held`);
    const replayed: string[] = [];
    await store.replayEventsAfter(ids[0], { send: async (id) => void replayed.push(id) });
    assert.ok(replayed.length > 0 && replayed.length <= 11, `${replayed.length} events kept`);
    assert.equal(replayed.at(-1), ids.at(-1), 'the newest are the ones kept');
    await store.storeEvent('s1', { ...big, params: { data: 'y'.repeat(20_000) } });
    assert.ok(store.bytes <= 10_000, 'an event over the whole budget is not kept');
  });

  test('a flood of bare initialize calls does not evict a session that is in use', async () => {
    const kitchen = createKitchen({ maxSessions: 5 });
    const post = (body: unknown, session?: string) =>
      kitchen.fetch(new Request('http://127.0.0.1/api/kitchen', {
        method: 'POST',
        headers: { host: '127.0.0.1', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...(session ? { 'mcp-session-id': session } : {}) },
        body: JSON.stringify(body),
      }));
    try {
      const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() });
      const session = init.headers.get('mcp-session-id')!;
      assert.ok(session);
      await init.text();
      await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
      assert.equal((await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session)).status, 200);
      for (let i = 0; i < 50; i++) await (await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() })).text();
      const after = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, session);
      assert.equal(after.status, 200, 'the working session survived');
    } finally {
      await kitchen.close();
    }
  });
});

describe('serve on the network says so', { timeout: 60_000 }, () => {
  test('--host 0.0.0.0 prints the real bind address and a warning; --allow-host admits a name', async (t) => {
    const cleanup = cleanupAfter(t);
    const serve = cleanup(await startServe(['--host', '0.0.0.0', '--allow-host', 'toolbox.test'], {}));
    assert.match(serve.banner, /listening on 0\.0\.0\.0:\d+ \(reachable from the network; from this machine: http:\/\/127\.0\.0\.1:\d+\)/);
    assert.match(serve.banner, /⚠ The toolboxes have no authentication/);
    assert.match(serve.banner, /Host\/Origin accepted: loopback names and toolbox\.test/);
    const port = portOf(serve.url);
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/api/kitchen', method: 'POST', agent: false, headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.once('error', reject);
        req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }));
      });
    assert.equal(await status(`toolbox.test:${port}`), 200);
    assert.equal(await status(`other.test:${port}`), 403);
  });

  test('on loopback there is no warning', async (t) => {
    const cleanup = cleanupAfter(t);
    const serve = cleanup(await startServe([], {}));
    assert.match(serve.banner, /^byhand serve: listening on http:\/\/127\.0\.0\.1:\d+\n/);
    assert.doesNotMatch(serve.banner, /⚠/);
  });

  test('a port in use stops serve in the one failure style, exit 1', async () => {
    const taken = createNetServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const run = await byhand('serve', '--port', String(port));
      assert.equal(run.code, 1);
      assert.match(run.stderr, new RegExp(`^✗ byhand serve on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`));
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});


