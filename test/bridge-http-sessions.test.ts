// The 2025 sessions of the bridge's HTTP face (http-face.ts), in process in front of the Everything toolbox: they are
// bounded, the least recently used idle one making room for a new host, and a session whose server could not be
// opened is not kept.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { connect, type Host } from '../packages/client/src/index.js';
import type { Back } from '../packages/byhand/src/bridge/legacy-face.js';
import { createHttpFace } from '../packages/byhand/src/bridge/http-face.js';
import { PendingCalls } from '../packages/byhand/src/bridge/pending-calls.js';
import { createStateCodec } from '../packages/servers/src/edge/state-codec.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';

const ENDPOINT = 'http://127.0.0.1/mcp';
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host', version: '1' } } };
const ping = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

function post(body: unknown, session?: string): Request {
  return new Request(ENDPOINT, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session !== undefined ? { 'mcp-session-id': session } : {}) },
    body: JSON.stringify(body),
  });
}

describe('byhand bridge --listen: 2025 sessions', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ port: 0, toolboxes: ['everything'] });
  });
  after(() => server.close());

  function face(open: (host: Host) => Promise<Back>, maxSessions: number) {
    const pending = new PendingCalls({ codec: createStateCodec(new Uint8Array(32).fill(1), 600) });
    return createHttpFace({ backs: { open, own: {}, pending, warn: () => undefined }, maxSessions });
  }

  test('full: the least recently used idle session is closed to make room', { timeout: 15_000 }, async () => {
    const http = face(async (host) => {
      const client = await connect(server.urls.everything, { host });
      return { client, close: () => client.close() };
    }, 1);
    try {
      const first = await http.fetch(post(initialize));
      const a = first.headers.get('mcp-session-id')!;
      assert.match(await first.text(), /byhand-everything/);
      const second = await http.fetch(post(initialize));
      const b = second.headers.get('mcp-session-id')!;
      assert.match(await second.text(), /byhand-everything/);
      assert.notEqual(a, b);
      assert.equal((await http.fetch(post(ping, a))).status, 404);
      const listed = await http.fetch(post(ping, b));
      assert.equal(listed.status, 200);
      assert.match(await listed.text(), /test_sampling/);
    } finally {
      await http.close();
    }
  });

  test('a session whose server could not be opened is not kept', { timeout: 15_000 }, async () => {
    const http = face(() => Promise.reject(new Error('the server is down')), 4);
    try {
      const answer = await http.fetch(post(initialize));
      const id = answer.headers.get('mcp-session-id')!;
      assert.match(await answer.text(), /the server is down/);
      assert.equal((await http.fetch(post(ping, id))).status, 404);
    } finally {
      await http.close();
    }
  });
});
