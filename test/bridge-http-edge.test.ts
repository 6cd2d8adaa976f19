// The bridge's HTTP face answers on node:http itself (listenNode), not through web Request/Response, so the refusals
// that listenFetch got from the web objects are its own: two Host headers, a target on another origin, an oversized
// body (its 413 arrives, not a reset), a body that is not JSON, and a handler that throws (500, and the next request
// is served).

import assert from 'node:assert/strict';
import { connect as tcpConnect } from 'node:net';
import { describe, test } from './support/node-test.js';
import { createHttpFace } from '../packages/switchboard/src/http-face.js';
import { nodeExchange } from '../packages/switchboard/src/node-http.js';
import { PendingCalls } from '../packages/switchboard/src/pending-calls.js';
import { listenNode, type NodeHandler } from '../packages/servers/src/edge/listen.js';
import { createStateCodec } from '../packages/servers/src/edge/state-codec.js';
import { oversizedThenNext, statusesIn } from './support/oversized.js';

/** A face whose server is never reached: every case here is refused before it would be. */
async function withFace<T>(run: (port: number, origin: string) => Promise<T>, handler?: NodeHandler): Promise<T> {
  const pending = new PendingCalls({ codec: createStateCodec(new Uint8Array(32).fill(1), 600) });
  const face = createHttpFace({ backs: { open: () => Promise.reject(new Error('no server in this test')), own: {}, pending, warn: () => undefined }, maxBodyBytes: 64 * 1024 });
  const listening = await listenNode(handler ?? ((req, res) => face.serve(nodeExchange(req, res))), { host: '127.0.0.1' });
  try {
    return await run(listening.port, listening.origin);
  } finally {
    await listening.close();
    await face.close();
  }
}

/** Raw bytes in, everything the server wrote before it closed out (bounded by `ms`). */
function raw(port: number, bytes: string, ms = 5_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ port, host: '127.0.0.1' });
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

const post = (origin: string, body: string) => fetch(`${origin}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });

describe('byhand bridge --listen, the HTTP edge', () => {
  test('two Host headers, or a target on another origin: 400, before the face sees it', { timeout: 15_000 }, async () => {
    await withFace(async (port, origin) => {
      const twoHosts = await raw(port, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
      assert.match(twoHosts, /^HTTP\/1\.1 400 /, twoHosts.slice(0, 120));
      assert.match(twoHosts, /more than one Host header/);
      const proxied = await raw(port, 'POST http://evil.example/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
      assert.match(proxied, /^HTTP\/1\.1 400 /, proxied.slice(0, 120));
      assert.match(proxied, /names another origin/);
      assert.equal((await post(origin, '{')).status, 400, 'the process serves on');
    });
  });

  test('bodies that are not one JSON-RPC request get -32700 / -32600', { timeout: 15_000 }, async () => {
    await withFace(async (_port, origin) => {
      for (const [body, code] of [['', -32700], ['{"jsonrpc":', -32700], ['42', -32600], ['[]', -32600]] as const) {
        const answer = await post(origin, body);
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.equal(((await answer.json()) as { error?: { code: number } }).error?.code, code, JSON.stringify(body));
      }
    });
  });

  for (const framing of ['declared', 'chunked'] as const) {
    test(`an oversized body (${framing}) is read to its end and dropped: the client reads its 413, and the connection serves the next request`, { timeout: 30_000 }, async () => {
      await withFace(async (port) => {
        // The next request needs no server: a body that is not JSON is refused by the face itself.
        const { answer, writeError } = await oversizedThenNext(port, '/mcp', framing, {}, 'not json');
        assert.equal(writeError, undefined, `the upload was cut: ${answer.slice(0, 200)}`);
        assert.deepEqual(statusesIn(answer), [413, 400], answer.slice(0, 400));
      });
    });
  }

  test('a handler that throws: 500 with a JSON-RPC error, and the next request is served', { timeout: 15_000 }, async () => {
    let calls = 0;
    await withFace(async (_port, origin) => {
      const failed = await post(origin, '{}');
      assert.equal(failed.status, 500);
      assert.equal(((await failed.json()) as { error?: { code: number } }).error?.code, -32603);
      assert.equal((await post(origin, '{}')).status, 200);
    }, async (_req, res) => {
      if (++calls === 1) throw new Error('a bug in the handler');
      res.writeHead(200).end();
    });
  });
});
