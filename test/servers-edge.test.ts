// The wire contract every toolbox shares: discovery, cache fields, the 2026-07-28 error codes with their HTTP
// statuses, requestState integrity, and the edge's own refusals (403, 413).

import assert from 'node:assert/strict';
import { connect as tcpConnect } from 'node:net';
import { after, before, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { byhandIn } from './support/cli.js';
import { serveCommand } from '../packages/byhand/src/serve/command.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { TOOLBOXES } from '../packages/servers/src/toolboxes/registry.js';
import { initializeParams, legacyRpc, modernRpc } from './servers-support.js';

let server: RunningServer;
/** The servers' clock: the real one, moved forward by the test instead of waiting. */
let skew = 0;

before(async () => {
  server = await startServer({ port: 0, stateTtlSeconds: 1, maxBodyBytes: 64 * 1024, now: () => Date.now() + skew });
});
after(() => server.close());

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, host);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const kitchen = () => server.urls.kitchen;
const jar = () => server.urls['cookie-jar'];

async function dinnerState(): Promise<string> {
  const round2 = await modernRpc(kitchen(), 'tools/call', {
    name: 'suggest_dinner',
    arguments: {},
    inputResponses: { diners: { action: 'accept', content: { people: 2 } } },
  });
  const state = round2.body?.result?.requestState;
  assert.equal(typeof state, 'string');
  return state as string;
}

const idea = { idea: { role: 'assistant', content: { type: 'text', text: 'soup' }, model: 'm' } };

describe('discovery and caching', () => {
  test('every toolbox answers server/discover with versions, capabilities, serverInfo and cache fields', async () => {
    for (const entry of TOOLBOXES) {
      const answer = await modernRpc(server.urls[entry.name], 'server/discover');
      assert.equal(answer.status, 200, entry.name);
      assert.deepEqual(answer.body?.result?.supportedVersions, ['2026-07-28']);
      assert.equal(answer.body?.result?._meta?.['io.modelcontextprotocol/serverInfo']?.title, entry.title);
      assert.equal(typeof answer.body?.result?.ttlMs, 'number');
      assert.ok(['public', 'private'].includes(answer.body?.result?.cacheScope));
    }
  });

  test('list results carry ttlMs/cacheScope; the jar contents are private and uncached', async () => {
    const tools = await modernRpc(jar(), 'tools/list');
    assert.equal(tools.body?.result?.ttlMs, 60_000);
    assert.equal(tools.body?.result?.cacheScope, 'public');
    const notes = await modernRpc(jar(), 'resources/read', { uri: 'jar://notes' });
    assert.equal(notes.body?.result?.ttlMs, 0);
    assert.equal(notes.body?.result?.cacheScope, 'private');
  });

  test('the registry matches what is mounted', async () => {
    for (const entry of TOOLBOXES) {
      assert.equal(server.urls[entry.name], `${server.url}${entry.path}`);
      if (entry.counts === undefined) continue;
      const tools = await modernRpc(server.urls[entry.name], 'tools/list');
      assert.equal(tools.body?.result?.tools?.length, entry.counts.tools, `${entry.name} tools`);
    }
  });
});

describe('2026-07-28 wire errors', () => {
  test('missing MCP-Protocol-Version header: -32020 on 400', async () => {
    const answer = await modernRpc(kitchen(), 'tools/list', {}, { headers: { 'mcp-protocol-version': null } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body?.error?.code, -32020);
  });

  test('Mcp-Name that disagrees with the body: -32020 on 400', async () => {
    const answer = await modernRpc(kitchen(), 'tools/call', { name: 'summarise_week', arguments: {} }, { headers: { 'mcp-name': 'suggest_dinner' } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body?.error?.code, -32020);
  });

  test('missing Mcp-Method: -32020 on 400', async () => {
    const answer = await modernRpc(kitchen(), 'tools/list', {}, { headers: { 'mcp-method': null } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body?.error?.code, -32020);
  });

  test('unsupported version: -32022 on 400 naming the supported ones', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2099-01-01', 'io.modelcontextprotocol/clientCapabilities': {} };
    const answer = await modernRpc(kitchen(), 'tools/list', {}, { meta, headers: { 'mcp-protocol-version': '2099-01-01' } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body?.error?.code, -32022);
    assert.deepEqual(answer.body?.error?.data?.supported, ['2026-07-28']);
  });

  test('missing _meta, or a required _meta key: -32602 on 400', async () => {
    const noMeta = await modernRpc(kitchen(), 'tools/list', {}, { meta: null });
    assert.equal(noMeta.status, 400);
    assert.equal(noMeta.body?.error?.code, -32602);
    const noCaps = await modernRpc(kitchen(), 'tools/list', {}, { meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } });
    assert.equal(noCaps.status, 400);
    assert.equal(noCaps.body?.error?.code, -32602);
  });

  test('removed or unknown methods: -32601 on 404', async () => {
    for (const method of ['ping', 'initialize', 'logging/setLevel', 'no/such-method']) {
      const answer = await modernRpc(kitchen(), method, method === 'initialize' ? initializeParams() : {});
      assert.equal(answer.status, 404, method);
      assert.equal(answer.body?.error?.code, -32601, method);
    }
  });

  test('unknown resource: -32602 with the uri', async () => {
    const answer = await modernRpc(kitchen(), 'resources/read', { uri: 'kitchen://fridge' });
    assert.equal(answer.body?.error?.code, -32602);
    assert.equal(answer.body?.error?.data?.uri, 'kitchen://fridge');
  });
});

describe('requestState integrity', () => {
  test('the genuine state completes the flow', async () => {
    const state = await dinnerState();
    const round3 = await modernRpc(kitchen(), 'tools/call', { name: 'suggest_dinner', arguments: {}, requestState: state, inputResponses: idea });
    assert.equal(round3.body?.result?.content?.[0]?.text, 'soup');
  });

  test('a tampered state is refused with -32602', async () => {
    const state = await dinnerState();
    const [head, body, mac] = state.split('.');
    const decoded = JSON.parse(Buffer.from(body, 'base64url').toString()) as { p: { people: number } };
    decoded.p.people = 12;
    const forged = [head, Buffer.from(JSON.stringify(decoded)).toString('base64url'), mac].join('.');
    for (const bad of [forged, `${state}-TAMPERED`, 'not-a-state']) {
      const answer = await modernRpc(kitchen(), 'tools/call', { name: 'suggest_dinner', arguments: {}, requestState: bad, inputResponses: idea });
      assert.equal(answer.body?.error?.code, -32602, bad.slice(0, 20));
      assert.equal(answer.body?.error?.message, 'Invalid or expired requestState');
    }
  });

  test('a state replayed on another tool, other arguments, another method or another toolbox is refused', async () => {
    const noteState = await (async () => {
      const put = await modernRpc(jar(), 'tools/call', { name: 'put_note', arguments: { text: 'a' } });
      const id = put.body?.result?.structuredContent?.note?.id as number;
      const asked = await modernRpc(jar(), 'tools/call', { name: 'forget_note', arguments: { id } });
      return { id, state: asked.body?.result?.requestState as string };
    })();
    const other = await modernRpc(jar(), 'tools/call', { name: 'put_note', arguments: { text: 'b' } });
    const otherId = other.body?.result?.structuredContent?.note?.id as number;
    const confirm = { confirm: { action: 'accept', content: { confirm: true } } };

    const otherArgs = await modernRpc(jar(), 'tools/call', { name: 'forget_note', arguments: { id: otherId }, requestState: noteState.state, inputResponses: confirm });
    assert.equal(otherArgs.body?.error?.code, -32602, 'replayed on other arguments');
    const otherTool = await modernRpc(jar(), 'tools/call', { name: 'list_notes', arguments: { id: noteState.id }, requestState: noteState.state });
    assert.equal(otherTool.body?.error?.code, -32602, 'replayed on another tool');
    const otherMethod = await modernRpc(jar(), 'prompts/get', { name: 'recall', arguments: {}, requestState: noteState.state });
    assert.equal(otherMethod.body?.error?.code, -32602, 'replayed on prompts/get');
    const otherToolbox = await modernRpc(server.urls.everything, 'tools/call', {
      name: 'test_input_required_result_request_state',
      arguments: {},
      requestState: noteState.state,
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
    });
    assert.equal(otherToolbox.body?.error?.code, -32602, 'replayed on another toolbox');

    const listed = await modernRpc(jar(), 'tools/call', { name: 'list_notes', arguments: {} });
    assert.equal(listed.body?.result?.structuredContent?.notes?.length >= 2, true, 'nothing was forgotten');
    const genuine = await modernRpc(jar(), 'tools/call', { name: 'forget_note', arguments: { id: noteState.id }, requestState: noteState.state, inputResponses: confirm });
    assert.equal(genuine.body?.result?.content?.[0]?.text, `Forgot note #${noteState.id}.`);
  });

  test('an expired state is refused', async () => {
    const state = await dinnerState();
    skew += 2200;
    const answer = await modernRpc(kitchen(), 'tools/call', { name: 'suggest_dinner', arguments: {}, requestState: state, inputResponses: idea });
    assert.equal(answer.body?.error?.code, -32602);
    skew -= 2200;
    const fresh = await dinnerState();
    const accepted = await modernRpc(kitchen(), 'tools/call', { name: 'suggest_dinner', arguments: {}, requestState: fresh, inputResponses: idea });
    assert.equal(accepted.body?.error, undefined, 'a state within its lifetime is accepted');
  });
});

describe('the edge', () => {
  test('a foreign Origin is refused with 403, in both eras', async () => {
    const modern = await modernRpc(kitchen(), 'tools/list', {}, { headers: { origin: 'http://evil.example.com' } });
    assert.equal(modern.status, 403);
    const res = await fetch(kitchen(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: 'https://attacker.test' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() }),
    });
    assert.equal(res.status, 403);
    const local = await modernRpc(kitchen(), 'tools/list', {}, { headers: { origin: server.url } });
    assert.equal(local.status, 200, 'the server’s own origin is fine');
  });

  test('a foreign Host (DNS rebinding) is refused with 403', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const target = new URL(kitchen());
      const req = request(
        { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { host: 'evil.example.com', 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.once('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() }));
    });
    assert.equal(status, 403);
  });

  test('an oversized body is refused with 413 before it is parsed', async () => {
    const huge = 'x'.repeat(65 * 1024);
    const answer = await modernRpc(jar(), 'tools/call', { name: 'put_note', arguments: { text: huge } });
    assert.equal(answer.status, 413);
    const legacy = await legacyRpc(jar(), 'tools/call', { name: 'put_note', arguments: { text: huge } });
    assert.equal(legacy.status, 413);
  });

  test('an unknown path is 404', async () => {
    const res = await fetch(`${server.url}/api/nowhere`, { method: 'POST', body: '{}' });
    assert.equal(res.status, 404);
  });

  test('a sessionful legacy toolbox mints a session on initialize and refuses unknown sessions with 404', async () => {
    const init = await legacyRpc(kitchen(), 'initialize', initializeParams());
    const sessionId = init.headers.get('mcp-session-id');
    assert.ok(sessionId);
    const listed = await legacyRpc(kitchen(), 'tools/list', {}, sessionId);
    assert.equal(listed.body?.result?.tools?.length, 2);
    assert.equal(listed.body?.result?.resultType, undefined, 'no 2026 fields on 2025 results');
    const unknown = await legacyRpc(kitchen(), 'tools/list', {}, 'no-such-session');
    assert.equal(unknown.status, 404);
    const missing = await legacyRpc(kitchen(), 'tools/list');
    assert.equal(missing.status, 400, 'a sessionful toolbox wants the session id after initialize');
    const ended = await fetch(kitchen(), { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    assert.equal(ended.status, 200);
    const after = await legacyRpc(kitchen(), 'tools/list', {}, sessionId);
    assert.equal(after.status, 404, 'a deleted session is gone');
  });

  test('binds to 127.0.0.1 by default: another address of this machine is refused, as it is not on 0.0.0.0', async (t) => {
    // The URL says 127.0.0.1 on 0.0.0.0 too, so it proves nothing; the bound address and a connection do. Linux routes
    // all of 127.0.0.0/8 to loopback, so 127.0.0.2 reaches a server on 0.0.0.0 and not one on 127.0.0.1.
    const port = Number(new URL(server.url).port);
    assert.equal(server.bound, `127.0.0.1:${port}`);
    assert.equal(await accepts('127.0.0.2', port), false, 'the default server took a connection to 127.0.0.2');
    const everywhere = cleanupAfter(t)(await startServer({ port: 0, host: '0.0.0.0', toolboxes: ['probe'] }));
    assert.equal(await accepts('127.0.0.2', Number(new URL(everywhere.url).port)), true, 'the probe itself: a server on 0.0.0.0 takes it');
  });
});

describe('byhand serve flags', () => {
  test('bad flags exit 2 with a clear message, before anything listens', async () => {
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      assert.equal(await serveCommand(['--port', 'eighty']), 2);
      assert.equal(await serveCommand(['--verbose']), 2);
      assert.equal(await serveCommand(['--db']), 2);
      assert.equal(await serveCommand(['--allow-host', 'https://toolbox.test']), 2);
    } finally {
      process.stderr.write = original;
    }
    const text = written.join('');
    assert.match(text, /--port must be a number from 0 to 65535, not "eighty"/);
    assert.match(text, /unknown option --verbose/);
    assert.match(text, /--db needs a value \(FILE\|URL\)/);
    assert.match(text, /--allow-host takes a host name without scheme or port/);
  });

  test('a port already in use: exit 1, and a hint that says so and what to do', async () => {
    const port = new URL(server.url).port;
    const run = await byhandIn({ cwd: process.cwd() }, 'serve', '--port', port);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, new RegExp(`^✗ byhand serve on 127\\.0\\.0\\.1:${port}: listen EADDRINUSE.*\\n  hint: another program \\(another byhand, perhaps\\) already listens on that port: stop it, or choose another port \\(0 takes a free one\\)$`, 'm'));
  });
});
