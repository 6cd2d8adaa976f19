// The 2025 sessions of the bridge's HTTP face (http-face.ts), in process in front of the Everything toolbox: they are
// bounded, the least recently used idle one making room for a new host, a session whose server could not be opened
// is not kept, and a stream the host lost can be resumed.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { connect, type Host } from '../packages/client/src/index.js';
import type { Back } from '../packages/switchboard/src/legacy-face.js';
import { createHttpFace } from '../packages/switchboard/src/http-face.js';
import { nodeExchange } from '../packages/switchboard/src/node-http.js';
import { PendingCalls } from '../packages/switchboard/src/pending-calls.js';
import { createStateCodec } from '../packages/servers/src/edge/state-codec.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { listenNode } from '../packages/servers/src/edge/listen.js';
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host', version: '1' } } };
const ping = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

function post(body: unknown, session?: string): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session !== undefined ? { 'mcp-session-id': session } : {}) },
    body: JSON.stringify(body),
  };
}

describe('byhand bridge --listen: 2025 sessions', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ port: 0, toolboxes: ['everything'] });
  });
  after(() => server.close());

  /** The face on a loopback listener, as `bridge --listen` serves it; `fetch` posts to it. */
  async function face(open: (host: Host) => Promise<Back>, maxSessions: number) {
    const pending = new PendingCalls({ codec: createStateCodec(new Uint8Array(32).fill(1), 600) });
    const http = createHttpFace({ backs: { open, own: {}, pending, warn: () => undefined }, maxSessions });
    const listening = await listenNode((req, res) => http.serve(nodeExchange(req, res)), { host: '127.0.0.1' }).catch(async (error: unknown) => {
      await http.close();
      throw error;
    });
    return {
      fetch: (init: RequestInit) => fetch(`${listening.origin}/mcp`, init),
      close: async () => {
        await listening.close();
        await http.close();
      },
    };
  }

  test('full: the least recently used idle session is closed to make room', { timeout: 15_000 }, async () => {
    const http = await face(async (host) => {
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
    const http = await face(() => Promise.reject(new Error('the server is down')), 4);
    try {
      const answer = await http.fetch(post(initialize));
      const id = answer.headers.get('mcp-session-id')!;
      assert.match(await answer.text(), /the server is down/);
      assert.equal((await http.fetch(post(ping, id))).status, 404);
    } finally {
      await http.close();
    }
  });

  test('resumable: a host that lost its stream mid-call gets the rest, the answer included, by GET with Last-Event-ID', { timeout: 15_000 }, async () => {
    const http = await face(async (host) => {
      const client = await connect(server.urls.everything, { host });
      return { client, close: () => client.close() };
    }, 4);
    try {
      const asking = { ...initialize, params: { ...initialize.params, capabilities: { elicitation: {} } } };
      const opened = await http.fetch(post(asking));
      const session = opened.headers.get('mcp-session-id')!;
      const primed = await opened.text();
      assert.match(primed, /^id: \S+\nretry: \d+\ndata: \n\n/, 'a 2025-11-25 stream opens with a priming event');
      await http.fetch(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session));
      const call = await http.fetch(post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'test_elicitation', arguments: { message: 'Where?' } } }, session));
      // Read up to the server's question, then hang up, as a host whose connection dropped.
      const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader();
      let seen = '';
      while (!seen.includes('elicitation/create')) seen += (await reader.read()).value ?? '';
      await reader.cancel();
      const question = /id: (\S+)\nevent: message\ndata: (.*elicitation\/create.*)\n/.exec(seen);
      assert.ok(question, seen);
      const asked = JSON.parse(question[2]) as { id: string };
      // The host answers, and the call ends while nobody listens on its stream.
      await http.fetch(post({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { response: 'here' } } }, session));
      const resumed = await http.fetch({ method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': question[1] } });
      const rest = await resumed.text();
      assert.doesNotMatch(rest, /elicitation\/create/, 'what the host saw is not sent again');
      assert.match(rest, /"id":7,"result":.*User response: action=accept/);
    } finally {
      await http.close();
    }
  });
});
