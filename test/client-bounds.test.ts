// The client against hostile servers (issue 9, the client side): every read bounded, SSE in linear
// time, no redirect followed, an allow-listed environment and a process group for stdio servers, the
// legacy GET stream and its answers under deadlines, notifications/cancelled in the legacy era, result
// shapes checked, and secrets redacted in every output path.
// Loopback only; each test would fail without the fix it names.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import {
  AbortedError, HttpStatusError, LimitError, ProtocolError, RedirectError, connect, isSecretName, redactHeaders, redactText, redactUrl,
  type TraceEntry,
} from '../packages/client/src/index.js';
import { createOAuth, memoryStore } from '../packages/client/src/auth/index.js';
import type { ByteStream } from '../packages/client/src/transport/bytes.js';
import { DEFAULT_LIMITS } from '../packages/client/src/limits.js';
import { LineSplitter, responseIdAt } from '../packages/client/src/transport/stdio/lines.js';
import { readSse } from '../packages/client/src/transport/event-stream.js';
import { StdioTransport } from '../packages/client/src/transport/stdio/stdio.js';
import { traceLine } from '../packages/byhand/src/shared/show-wire.js';
import { callCommand } from '../packages/byhand/src/call/command.js';
import { checkpointCommand } from '../packages/byhand/src/checkpoint/command.js';
import { flood, arrival, json, legacySession, listen, modern } from './fixtures/loopback.js';
import { runOwn } from './support/collector.js';

const MiB = 1024 * 1024;
const scratch = mkdtempSync(join(tmpdir(), 'byhand-bounds-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('bounded reads over HTTP', () => {
  for (const transport of ['node', 'fetch'] as const) {
    test(`${transport}: a JSON body that never ends is a LimitError on that call, long before 1 GiB, in bounded memory`, { timeout: 60_000 }, async (t) => {
      const cleanup = cleanupAfter(t);
      let sent = 0;
      let finished!: () => void;
      const done = new Promise<void>((resolve) => (finished = resolve));
      const server = cleanup(await listen(modern(async (request, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`{"jsonrpc":"2.0","id":${request.json!.id},"result":{"content":[{"type":"text","text":"`);
        // A 256 MiB cap keeps a regression from eating the machine; the client must stop it far sooner.
        sent = await flood(res, Buffer.alloc(64 * 1024, 'a'), 256 * MiB);
        finished();
      })));
      const client = cleanup(await connect(server.url, { transport, limits: { maxMessageBytes: MiB } }));
      const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
      const start = used();
      let peak = start;
      const sampler = setInterval(() => (peak = Math.max(peak, used())), 5);
      try {
        await assert.rejects(client.callTool('flood'), (e: unknown) => e instanceof LimitError && /the answer to tools\/call is larger than 1048576 bytes/.test(e.message));
      } finally {
        clearInterval(sampler);
      }
      await done;
      assert.ok(sent < 32 * MiB, `the server got to send ${sent} bytes before the client stopped reading`);
      assert.ok(peak - start < 64 * MiB, `memory grew by ${peak - start} bytes`);
    });

    test(`${transport}: an SSE line that never ends is a LimitError`, { timeout: 30_000 }, async (t) => {
      const cleanup = cleanupAfter(t);
      let sent = 0;
      const server = cleanup(await listen(modern(async (_request, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: message\ndata: ');
        sent = await flood(res, Buffer.alloc(64 * 1024, 'a'), 256 * MiB);
      })));
      const client = cleanup(await connect(server.url, { transport, limits: { maxMessageBytes: MiB } }));
      await assert.rejects(client.callTool('flood'), (e: unknown) => e instanceof LimitError && /a line of the response stream/.test(e.message));
      await arrival(server, () => sent > 0);
      assert.ok(sent < 32 * MiB, `sent ${sent}`);
    });

    test(`${transport}: an SSE event of many short data lines past the limit is a LimitError`, { timeout: 30_000 }, async (t) => {
      const cleanup = cleanupAfter(t);
      let sent = 0;
      const server = cleanup(await listen(modern(async (_request, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        sent = await flood(res, Buffer.from(`data: ${'b'.repeat(1000)}\n`), 256 * MiB);
      })));
      const client = cleanup(await connect(server.url, { transport, limits: { maxMessageBytes: MiB } }));
      await assert.rejects(client.callTool('flood'), (e: unknown) => e instanceof LimitError && /an event of the response stream/.test(e.message));
      await arrival(server, () => sent > 0);
      assert.ok(sent < 32 * MiB, `sent ${sent}`);
    });
  }

  test('the default limit is 4 MiB, and a body just under it is read', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    assert.equal(DEFAULT_LIMITS.maxMessageBytes, 4 * MiB);
    const text = 'c'.repeat(3 * MiB);
    const server = cleanup(await listen(modern((request, res) => json(res, { jsonrpc: '2.0', id: request.json!.id, result: { resultType: 'complete', content: [{ type: 'text', text }] } }))));
    const client = cleanup(await connect(server.url));
    const result = await client.callTool('big');
    assert.equal((result.content[0] as { text: string }).text.length, text.length);
  });
});

test('SSE is parsed in linear time: an 8 MiB line in 1 KiB chunks', { timeout: 30_000 }, async () => {
  const chunk = new TextEncoder().encode('x'.repeat(1024));
  const chunks = 8 * 1024;
  let i = -1;
  const body: ByteStream = {
    async read() {
      i++;
      if (i === 0) return new TextEncoder().encode('data: ');
      if (i <= chunks) return chunk;
      if (i === chunks + 1) return new TextEncoder().encode('\n\n');
      return undefined;
    },
    async cancel() {},
  };
  const started = performance.now();
  const events = [];
  for await (const event of readSse(body, 16 * MiB)) events.push(event);
  const elapsed = performance.now() - started;
  assert.equal(events.length, 1);
  assert.equal(events[0].data.length, 8 * MiB);
  // Rescanning the buffer after every chunk costs ~32 GB of scanning here; one pass costs milliseconds.
  assert.ok(elapsed < 2000, `took ${Math.round(elapsed)} ms`);
});

test('stdout lines: split across chunks, an oversized one held by its edges only, its id read from either end', { timeout: 5000 }, () => {
  const lines: string[] = [];
  const oversize: { head: string; tail: string; ended: boolean; id: unknown }[] = [];
  const splitter = new LineSplitter(16, (line) => lines.push(line.toString()), (line, ended) => oversize.push({ head: line.head.toString(), tail: line.tail.toString(), ended, id: responseIdAt(line) }));
  splitter.push(Buffer.from('abc\nde'));
  splitter.push(Buffer.from('f\n{"jsonrpc":"2.0","id":7,"result":'));
  splitter.push(Buffer.from('{"text":"long"}}\nok\n{"result":{"text":"longer still"}'));
  splitter.push(Buffer.from(',"id":"s-1"}\n'));
  assert.deepEqual(lines, ['abc', 'def', 'ok']);
  assert.deepEqual(oversize.map((o) => [o.ended, o.id]), [[false, 7], [true, 7], [false, undefined], [true, 's-1']]);
  assert.equal(oversize[1].tail, '{"jsonrpc":"2.0","id":7,"result":{"text":"long"}}');
  // An id inside the result is not the response's.
  assert.equal(responseIdAt({ head: Buffer.from('{"result":{"id":3'), tail: Buffer.from('"id":3}}') }), undefined);
});

describe('no redirects for MCP traffic', () => {
  // A port an earlier test's modern server had, now this one's, would find that server's verdict cached and
  // connect without a request (a CI failure: "Missing expected rejection"); each test probes afresh.
  for (const transport of ['node', 'fetch'] as const) {
    test(`${transport}: a cross-origin 307 sends neither the API key nor the body to the other origin`, { timeout: 15_000 }, async (t) => {
      const cleanup = cleanupAfter(t);
      const elsewhere = cleanup(await listen((_request, res) => json(res, { jsonrpc: '2.0', id: 1, result: {} })));
      const server = cleanup(await listen((_request, res) => {
        res.writeHead(307, { location: `${elsewhere.origin}/mcp?token=LEAKED` }).end();
      }));
      await assert.rejects(
        connect({ url: server.url, headers: { 'X-Api-Key': 'the-api-key' } }, { transport }),
        (e: unknown) => e instanceof RedirectError && e.status === 307 && e.location === `${elsewhere.origin}/mcp?token=LEAKED` &&
          e.message.includes(`pointing to ${elsewhere.origin}/mcp?token=(redacted), and byhand does not follow redirects`) && !e.message.includes('LEAKED'),
      );
      assert.equal(server.requests[0].headers['x-api-key'], 'the-api-key', 'the key went to the server named, and only there');
      assert.equal(elsewhere.requests.length, 0, 'nothing reached the redirect target');
    });

    test(`${transport}: a same-origin redirect to another path does not carry the OAuth token there`, { timeout: 15_000 }, async (t) => {
      const cleanup = cleanupAfter(t);
      const server = cleanup(await listen((request, res) => {
        if (request.path === '/mcp') return void res.writeHead(308, { location: '/other' }).end();
        json(res, { jsonrpc: '2.0', id: request.json?.id ?? null, result: {} });
      }));
      const url = server.url;
      const issuer = 'https://as.example.test';
      const store = memoryStore({ version: 1, clients: {}, servers: { [url]: { issuer, resource: url, tokens: { [issuer]: { access_token: 'token-for-mcp', token_type: 'Bearer', resource: url } } } } });
      await assert.rejects(connect(url, { transport, auth: createOAuth({ store }) }), (e: unknown) => e instanceof RedirectError && e.status === 308 && e.location === `${server.origin}/other`);
      assert.equal(server.requests[0].headers.authorization, 'Bearer token-for-mcp', 'the token went to the resource it was issued for');
      assert.deepEqual(server.requests.map((r) => r.path), ['/mcp'], 'nothing was sent to /other');
    });
  }
});

describe('stdio: lines, environment, process group', () => {
  const server = join(scratch, 'server.cjs');
  writeFileSync(server, `
const readline = require('node:readline');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  const result = (text) => send({ jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete', content: [{ type: 'text', text }] } });
  if (msg.method === 'server/discover') return send({ jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } });
  if (msg.method !== 'tools/call') return send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
  const { name, arguments: args } = msg.params;
  // The SDK's member order: the id comes last, after the (here oversized) result.
  if (name === 'big') return process.stdout.write('{"result":{"resultType":"complete","content":[{"type":"text","text":"' + 'x'.repeat(Number(args.bytes)) + '"}]},"jsonrpc":"2.0","id":' + JSON.stringify(msg.id) + '}\\n');
  if (name === 'late') return setTimeout(() => result('late'), Number(args.ms));
  if (name === 'env') return result(JSON.stringify(process.env));
  result('pid ' + process.pid);
});
`);
  const wrapper = join(scratch, 'wrapper.cjs');
  // Starts the "real server" as a grandchild holding our pipes, as npx and uvx do; 'npx' waits for it
  // (and never reads stdin, so EOF does not end it), 'orphan' exits at once and leaves a grandchild that
  // ignores SIGTERM.
  writeFileSync(wrapper, `
const { spawn } = require('node:child_process');
const stubborn = process.argv[2] === 'orphan';
const code = (stubborn ? "process.on('SIGTERM', () => {});" : '') + "process.stderr.write('ready ' + process.pid + '\\\\n'); setInterval(() => {}, 1e6);";
spawn(process.execPath, ['-e', code], { stdio: 'inherit' });
if (stubborn) process.exit(0);
`);
  const stdio = { command: process.execPath, args: [server] };

  test('a line over the limit fails that request; the process lives, and another server in this process still works', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const small = cleanup(await connect(stdio, { limits: { maxMessageBytes: MiB } }));
    const other = cleanup(await connect(stdio));
    const pid = (await small.callTool('who')).content[0] as { text: string };
    await assert.rejects(small.callTool('big', { bytes: 8 * MiB }), (e: unknown) => e instanceof LimitError && /a line the server wrote on stdout is larger than 1048576 bytes/.test(e.message));
    assert.deepEqual((await small.callTool('who')).content[0], pid, 'the same server process answers after the oversized line');
    const fits = await small.callTool('big', { bytes: MiB / 2 });
    assert.equal((fits.content[0] as { text: string }).text.length, MiB / 2);
    assert.match(((await other.callTool('who')).content[0] as { text: string }).text, /^pid \d+$/);
    // With another request waiting, the line's id picks the one it fails.
    const late = small.callTool('late', { ms: 500 });
    await assert.rejects(small.callTool('big', { bytes: 8 * MiB }), (e: unknown) => e instanceof LimitError);
    assert.deepEqual((await late).content, [{ type: 'text', text: 'late' }]);
  });

  test('a server gets the allow-listed environment plus its config env, not our secrets', { timeout: 15_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const saved = { secret: process.env.BYHAND_STATE_SECRET, key: process.env.ANTHROPIC_API_KEY, token: process.env.GITHUB_TOKEN };
    process.env.BYHAND_STATE_SECRET = 'state-secret-that-must-stay';
    process.env.ANTHROPIC_API_KEY = 'api-key-that-must-stay';
    process.env.GITHUB_TOKEN = 'token-that-must-stay';
    const client = cleanup(await connect({ ...stdio, env: { FROM_CONFIG: 'yes', PATH: process.env.PATH ?? '' } }));
    try {
      const env = JSON.parse(((await client.callTool('env')).content[0] as { text: string }).text) as Record<string, string>;
      assert.equal(env.FROM_CONFIG, 'yes');
      assert.equal(env.PATH, process.env.PATH);
      if (process.env.HOME) assert.equal(env.HOME, process.env.HOME);
      for (const name of ['BYHAND_STATE_SECRET', 'ANTHROPIC_API_KEY', 'GITHUB_TOKEN']) assert.equal(env[name], undefined, `${name} reached the server`);
      const allowed = new Set(['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'FROM_CONFIG']);
      // Node itself may add a variable or two to a child it starts; none of ours beyond the list.
      const leaked = Object.keys(env).filter((k) => !allowed.has(k) && process.env[k] !== undefined && k !== 'NODE_CHANNEL_FD');
      assert.deepEqual(leaked, []);
    } finally {
      for (const [name, value] of [['BYHAND_STATE_SECRET', saved.secret], ['ANTHROPIC_API_KEY', saved.key], ['GITHUB_TOKEN', saved.token]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  for (const mode of ['npx', 'orphan'] as const) {
    test(`close() ends the whole process group promptly (${mode === 'npx' ? 'a wrapper waiting on its grandchild' : 'a grandchild that ignores SIGTERM, orphaned'})`, { timeout: 20_000 }, async () => {
      const transport = new StdioTransport({ command: process.execPath, args: [wrapper, mode], limits: DEFAULT_LIMITS });
      let grandchild: number | undefined;
      try {
        for (let waited = 0; grandchild === undefined; waited += 20) {
          assert.ok(waited < 10_000, 'the grandchild never said it was ready');
          const found = /ready (\d+)/.exec(transport.stderr);
          if (found) grandchild = Number(found[1]);
          else await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const started = performance.now();
        await transport.close();
        const elapsed = performance.now() - started;
        assert.ok(elapsed < 4000, `close took ${Math.round(elapsed)} ms`);
        // A SIGKILL is delivered, not awaited: give the kernel a moment to finish the process.
        for (let waited = 0; !isGone(grandchild) && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.ok(isGone(grandchild), `the grandchild ${grandchild} outlived close()`);
      } finally {
        await transport.close();
        if (grandchild !== undefined && !isGone(grandchild)) process.kill(grandchild, 'SIGKILL');
      }
    });
  }
});

/** No such process, or only its zombie, waiting for a reaper that is not us. */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('the legacy era over HTTP', () => {
  test('an aborted call is announced with notifications/cancelled on the session', { timeout: 15_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await listen(legacySession({ call: () => undefined /* never answers */ })));
    const client = cleanup(await connect(server.url));
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    const sent = await arrival(server, (r) => r.json?.method === 'tools/call');
    controller.abort();
    await assert.rejects(call, (e: unknown) => e instanceof AbortedError);
    const cancelled = await arrival(server, (r) => r.json?.method === 'notifications/cancelled');
    assert.equal(cancelled.json!.params!.requestId, sent.json!.id);
    assert.equal(cancelled.headers['mcp-session-id'], 'session-1');
    assert.equal(cancelled.headers['mcp-protocol-version'], '2025-11-25');
  });

  test('close() right after an abort lets notifications/cancelled arrive before the DELETE ends the session', { timeout: 15_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    let cancelAnswered = false;
    let answeredBeforeDelete: boolean | undefined;
    const session = legacySession({ call: () => undefined /* never answers */ });
    const server = cleanup(await listen(async (request, res, req) => {
      if (request.method === 'DELETE') answeredBeforeDelete = cancelAnswered;
      if (request.json?.method !== 'notifications/cancelled') return session(request, res, req);
      // A server slow to take the notification: a DELETE sent alongside it would end the session first.
      await new Promise((resolve) => setTimeout(resolve, 80));
      cancelAnswered = true;
      res.writeHead(202).end();
    }));
    const client = cleanup(await connect(server.url));
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    await arrival(server, (r) => r.json?.method === 'tools/call');
    controller.abort();
    await assert.rejects(call, (e: unknown) => e instanceof AbortedError);
    await client.close();
    assert.equal(answeredBeforeDelete, true, 'the DELETE came while the cancellation was still on its way');
  });

  test('the standalone GET stream: headers that never come are given up after timeoutMs', { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    let closedAt: number | undefined;
    let openedAt: number | undefined;
    const server = cleanup(await listen(legacySession({
      get: (_request, res, req) => {
        openedAt = performance.now();
        req.socket.once('close', () => (closedAt = performance.now()));
        void res; // never answered
      },
    })));
    // Long enough for the handshake on a busy machine, which the same deadline bounds.
    cleanup(await connect(server.url, { timeoutMs: 3000 }));
    await arrival(server, () => closedAt !== undefined, 30_000);
    const held = closedAt! - openedAt!;
    assert.ok(held >= 2900 && held < 30_000, `the GET was held ${Math.round(held)} ms`);
  });

  test('no standalone GET stream: the host is told once, and why (refused, or not offered)', { timeout: 15_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const refusing = cleanup(await listen(legacySession({ get: (_r, res) => void json(res, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'streams are for subscribers' } }, 403) })));
    const offering = cleanup(await listen(legacySession({})));
    const told: Record<string, string[]> = { refused: [], none: [] };
    const refused = cleanup(await connect(refusing.url, { host: { eventsEnded: (reason) => void told.refused.push(reason) } }));
    const none = cleanup(await connect(offering.url, { host: { eventsEnded: (reason) => void told.none.push(reason) } }));
    for (const started = Date.now(); (told.refused.length === 0 || told.none.length === 0) && Date.now() - started < 20_000; ) await new Promise((resolve) => setTimeout(resolve, 10));
    // A round trip later, a second word would have come by now.
    await Promise.all([refused.request('ping').catch(() => undefined), none.request('ping').catch(() => undefined)]);
    assert.equal(told.refused.length, 1, told.refused.join('\n'));
    assert.match(told.refused[0], /^the server refused to open its event stream: HTTP 403 .*streams are for subscribers.*: list changes, resource updates and the server's own requests between calls will not arrive in this session$/);
    assert.equal(told.none.length, 1, told.none.join('\n'));
    assert.match(told.none[0], /^the server offers no event stream \(HTTP 405 .*\): list changes/);
  });

  test('the standalone GET stream: an answer the server never takes times out, and the next push is still answered', { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    let answers = 0;
    const server = cleanup(await listen((request, res, req) => {
      if (request.method === 'POST' && request.json && 'result' in request.json) {
        // The first answer hangs; the second is taken.
        if (++answers === 1) return;
        return void res.writeHead(202).end();
      }
      return legacySession({
        get: (_r, stream) => {
          stream.writeHead(200, { 'content-type': 'text/event-stream' });
          stream.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 'p1', method: 'ping' })}\n\n`);
          void arrival(server, () => answers === 1)
            .then(() => stream.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 'p2', method: 'ping' })}\n\n`))
            .catch(() => undefined);
        },
      })(request, res, req);
    }));
    cleanup(await connect(server.url, { timeoutMs: 3000 }));
    const second = await arrival(server, (r) => (r.json as { id?: string } | undefined)?.id === 'p2' && r.method === 'POST', 30_000);
    assert.deepEqual((second.json as { result?: unknown }).result, {});
  });

  test('a GET that opens a stream and stays silent does not hold the diagnosis past its deadline', { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await listen((request, res) => {
      if (request.method === 'GET') return void res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
      res.writeHead(404).end('Not Found');
    }));
    const started = performance.now();
    await assert.rejects(connect(server.url, { timeoutMs: 3000 }), (e: unknown) => e instanceof HttpStatusError && e.status === 404);
    // The diagnosis waits on the silent stream for the deadline at most; without one it would wait for good.
    assert.ok(performance.now() - started < 30_000);
  });
});

describe('results of the wrong shape', () => {
  const cases = [
    { call: 'callTool', method: 'tools/call', what: 'a content array' },
    { call: 'readResource', method: 'resources/read', what: 'a contents array' },
    { call: 'getPrompt', method: 'prompts/get', what: 'a messages array' },
  ] as const;
  for (const c of cases) {
    test(`${c.method} answered with a tools/list result is a ProtocolError, not a result`, { timeout: 15_000 }, async (t) => {
      const cleanup = cleanupAfter(t);
      const server = cleanup(await listen(modern((request, res) => json(res, { jsonrpc: '2.0', id: request.json!.id, result: { resultType: 'complete', tools: [] } }))));
      const client = cleanup(await connect(server.url));
      await assert.rejects((client[c.call] as (name: string) => Promise<unknown>).call(client, 'x'), (e: unknown) => e instanceof ProtocolError && e.message === `${c.method} x answered without ${c.what} (it has resultType, tools)`);
    });
  }
});

describe('secrets in output', () => {
  test('the rule: header names and query keys', { timeout: 5000 }, () => {
    for (const name of ['Authorization', 'Proxy-Authorization', 'X-Auth-Token', 'Api-Key', 'X-Api-Key', 'apikey', 'Set-Cookie', 'Cookie', 'api_key', 'access_token', 'client_secret', 'password', 'X-Amz-Signature', 'sig', 'DPoP', 'private_key']) {
      assert.ok(isSecretName(name), name);
    }
    for (const name of ['Content-Type', 'Accept', 'Mcp-Method', 'monkey', 'keyboard', 'signal', 'page', 'state']) assert.ok(!isSecretName(name), name);
    assert.deepEqual(redactHeaders({ 'Proxy-Authorization': 'Basic x', 'Set-Cookie': 'a=b', Accept: 'x' }), { 'Proxy-Authorization': '(redacted)', 'Set-Cookie': '(redacted)', Accept: 'x' });
    // Only the secret values change; everything else stays as written.
    assert.equal(redactUrl('https://u:pw@h.example/mcp?api_key=K&q=a%20b#access_token=T&x=1'), 'https://(redacted)@h.example/mcp?api_key=(redacted)&q=a%20b#access_token=(redacted)&x=1');
    // A token is often the userinfo's user: alone, or with an empty password (an API key as a Basic user).
    assert.equal(redactUrl('https://ghp_T0KEN@h.example/mcp'), 'https://(redacted)@h.example/mcp');
    assert.equal(redactUrl('https://sk_live_K:@h.example/users/@me'), 'https://(redacted)@h.example/users/@me');
    assert.equal(redactUrl('https://h.example/users/@me'), 'https://h.example/users/@me');
    assert.equal(redactText('failed at https://h.example/mcp?token=T, (see http://o.example/?Api-Key=K).'), 'failed at https://h.example/mcp?token=(redacted), (see http://o.example/?Api-Key=(redacted)).');
    // Redacting twice changes nothing (errors redact what their callers may have redacted already).
    const once = redactText('at https://h.example/mcp?token=T (and https://h.example/(x)?key=K).');
    assert.equal(once, 'at https://h.example/mcp?token=(redacted) (and https://h.example/(x)?key=(redacted)).');
    assert.equal(redactText(once), once);
  });

  test('traces and errors from a live exchange carry no secret: request headers, query keys, Set-Cookie', { timeout: 15_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await listen(modern((request, res) => {
      json(res, { jsonrpc: '2.0', id: request.json!.id, error: { code: -32602, message: `no tool; try ${server.origin}/docs?access_token=SECRET-5` } }, 200, { 'set-cookie': 'session=SECRET-4' });
    })));
    const entries: TraceEntry[] = [];
    const target = { url: `${server.url}?api_key=SECRET-0`, headers: { 'Proxy-Authorization': 'Basic SECRET-1', 'X-Auth-Token': 'SECRET-2', 'Api-Key': 'SECRET-3' } };
    const client = cleanup(await connect(target, { onTrace: (entry) => entries.push(entry) }));
    const failure = await client.callTool('x').catch((e: Error) => e);
    assert.ok(failure instanceof Error);
    assert.ok(server.requests.every((r) => r.headers['x-auth-token'] === 'SECRET-2' && r.path.includes('api_key=SECRET-0')), 'the secrets did go to the server');
    const printed = [...entries.map((e) => JSON.stringify(e.http ?? {})), ...entries.map(traceLine), failure.message, (failure as { hint?: string }).hint ?? ''].join('\n');
    assert.ok(entries.some((e) => e.http?.headers?.['set-cookie'] === '(redacted)'), 'the response headers are in the trace, redacted');
    assert.doesNotMatch(printed, /SECRET-\d/);
  });

  test('byhand call output (narration, --trace, the error) shows no query key of the URL', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await listen(modern((request, res) => {
      const { id, method } = request.json!;
      if (method === 'tools/list') return json(res, { jsonrpc: '2.0', id, result: { resultType: 'complete', tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } });
      json(res, { jsonrpc: '2.0', id, error: { code: -32603, message: `upstream failed: ${server.origin}/up?api_key=SECRET-1` } });
    })));
    let out = '';
    let err = '';
    const io = {
      stdout: { write: (s: string) => ((out += s), true) },
      stderr: { write: (s: string) => ((err += s), true) },
      stdin: process.stdin,
      env: { BYHAND_PROVIDER: 'offline', BYHAND_CONFIG_DIR: join(scratch, 'config') },
      ...runOwn(),
    } as unknown as Parameters<typeof callCommand>[2];
    assert.equal(await callCommand('call', [`${server.url}?api_key=SECRET-0`, 'echo', '--trace'], io), 1);
    assert.match(err, /^byhand: http:\/\/127\.0\.0\.1:\d+\/mcp\?api_key=\(redacted\);/m);
    assert.match(err, /upstream failed: http:\/\/127\.0\.0\.1:\d+\/up\?api_key=\(redacted\)/);
    assert.doesNotMatch(out + err, /SECRET-\d/);
  });

  test('checkpoint output (plain, --json, --trace) shows no query key or header secret of a config', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await listen((_request, res) => {
      res.writeHead(404, { 'set-cookie': 'id=SECRET-4' }).end('Not Found');
    }));
    const config = join(scratch, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { leaky: { url: `${server.url}?api_key=SECRET-0&apiKey=SECRET-1`, headers: { 'X-Auth-Token': 'SECRET-2', 'Proxy-Authorization': 'SECRET-3' } } } }));
    for (const flags of [[], ['--json'], ['--trace']]) {
      let out = '';
      let err = '';
      const io = {
        stdout: { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream,
        stderr: { write: (s: string) => ((err += s), true) } as unknown as NodeJS.WritableStream,
        stdin: process.stdin,
        env: { BYHAND_CONFIG_DIR: join(scratch, 'config') },
        ...runOwn(),
      };
      assert.equal(await checkpointCommand(['--config', config, '--timeout', '3000', ...flags], io), 1);
      assert.match(out, /HTTP 404 from http:\/\/127\.0\.0\.1:\d+\/mcp\?api_key=\(redacted\)&apiKey=\(redacted\)/);
      assert.doesNotMatch(out + err, /SECRET-\d/, `with ${flags.join(' ') || 'no flags'}`);
      if (flags[0] === '--trace') assert.match(err, /POST http:\/\/127\.0\.0\.1:\d+\/mcp\?api_key=\(redacted\)/);
    }
  });
});
