// Which era resumes an answer's event stream. A 2025 session may close the stream of a POST's answer and
// let the client resume it with a GET carrying Last-Event-ID and the session (spec 2025-11-25 transports,
// "Resumability"); 2026-07-28 removed Last-Event-ID, so a modern answer that ends unanswered is lost and
// said so, with no GET. The session's parts live in the legacy chunk (legacy-http.ts); these tests fail if
// the modern transport resumes, or the legacy one stops resuming or sending its session.

import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { StreamClosedError, connect } from '../packages/client/src/index.js';
import { legacySession, listen, modern } from './fixtures/loopback.js';

/** An event stream with one event that carries an id and `retry: 0`, then closed before the response. */
function primedThenClosed(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end('id: e1\nretry: 0\ndata: \n\n');
}

const RESULT = { content: [{ type: 'text', text: 'resumed' }] };

describe('resuming an answer stream', () => {
  test('a 2025 session resumes with Last-Event-ID and its session id, and ends the session with DELETE', { timeout: 15_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    let callId: number | string | undefined;
    const server = cleanup(await listen(
      legacySession({
        call: (request, res) => {
          callId = request.json?.id;
          primedThenClosed(res);
        },
        get: (_request, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(`id: e2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: callId, result: RESULT })}\n\n`);
        },
      }),
    ));
    const client = cleanup(await connect(server.url, { timeoutMs: 5000 }));
    assert.equal(client.era, 'legacy');
    assert.equal(client.sessionId, 'session-1');
    assert.deepEqual((await client.callTool('anything')).content, RESULT.content);
    await client.close();
    const resume = server.requests.find((r) => r.method === 'GET' && r.headers['last-event-id'] !== undefined);
    assert.ok(resume, `expected a GET with Last-Event-ID among ${server.requests.map((r) => r.method).join(', ')}`);
    assert.equal(resume.headers['last-event-id'], 'e1');
    assert.equal(resume.headers['mcp-session-id'], 'session-1');
    const ended = server.requests.find((r) => r.method === 'DELETE');
    assert.equal(ended?.headers['mcp-session-id'], 'session-1');
  });

  test('a modern answer that ends unanswered is lost and said so: no GET, no Last-Event-ID', { timeout: 15_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await listen(modern((_request, res) => primedThenClosed(res))));
    const client = cleanup(await connect(server.url, { timeoutMs: 5000 }));
    assert.equal(client.era, 'modern');
    assert.equal(client.sessionId, undefined);
    await assert.rejects(client.callTool('anything'), (e: unknown) => e instanceof StreamClosedError && /closed the event stream before it answered tools\/call/.test(e.message));
    await client.close();
    assert.deepEqual(server.requests.map((r) => r.method), ['POST', 'POST'], 'discover and the call; nothing resumed, nothing deleted');
  });
});
