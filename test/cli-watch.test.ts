// `byhand watch` and the notifications of a running call, as a user runs them: the real binary,
// the Everything toolbox (modern subscriptions/listen), an SDK 2025 session server (legacy
// resources/subscribe) and the official reference server (progress and logs over stdio).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { after, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { connect } from '../packages/client/src/index.js';
import { startServer } from '../packages/servers/src/edge/serve.js';
import { serve } from './fixtures/sdk-server.js';
import { json, legacySession, listen, modern } from './fixtures/loopback.js';
import { bin, startByhand, until, type RunningCli } from './support/cli.js';
import { fixtureScript } from './support/fixture-bundle.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const everything = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const scratch = mkdtempSync(join(tmpdir(), 'byhand-watch-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The binary with only PATH and a HOME of its own; a watch that never ends is killed (startByhand's cap) and fails the assertion on its exit. */
function start(args: string[]): RunningCli {
  return startByhand(args, { cwd: scratch, onlyEnv: { PATH: process.env.PATH ?? '', HOME: scratch, NO_COLOR: '1' } });
}

test('modern: watch opens subscriptions/listen and prints a tools list change, then stops at --count', { timeout: 60_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  const server = cleanup(await startServer({ port: 0, toolboxes: ['everything'] }));
  const url = server.urls.everything;
  const watch = start(['watch', url, '--count', '1']);
  try {
    await until(() => /listening \(subscriptions\/listen/.test(watch.stderr()), 'the acknowledgement');
    const client = cleanup(await connect(url));
    await client.callTool('test_trigger_tool_change');
    assert.equal(await watch.exit, 0, watch.stderr());
    assert.equal(watch.stdout(), 'tools list changed\n');
  } finally {
    watch.child.kill();
    await server.close();
  }
});

test('modern: Ctrl-C ends the watch with 130', { timeout: 60_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  const server = cleanup(await startServer({ port: 0, toolboxes: ['everything'] }));
  const watch = start(['watch', server.urls.everything]);
  try {
    await until(() => /listening/.test(watch.stderr()), 'the acknowledgement');
    watch.child.kill('SIGINT');
    assert.equal(await watch.exit, 130);
  } finally {
    watch.child.kill();
  }
});

/** A 2025 session server whose resource changes 100 ms after each subscription. */
function subscribingLegacy() {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return async (request: Request): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => void sessions.set(sid, transport!) });
      const server = new McpServer({ name: 'subscribing', version: '1.0.0' }, { capabilities: { resources: { subscribe: true } } });
      server.registerResource('clock', 'test://clock', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'tick' }] }));
      server.server.setRequestHandler('resources/subscribe', async (req) => {
        setTimeout(() => void server.server.sendResourceUpdated({ uri: req.params.uri }), 100);
        return {};
      });
      server.server.setRequestHandler('resources/unsubscribe', async () => ({}));
      await server.connect(transport);
    }
    return transport.handleRequest(request);
  };
}

test('legacy: watch URI sends resources/subscribe and prints the update', { timeout: 60_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  const served = cleanup(await serve(subscribingLegacy()));
  const watch = start(['watch', served.url, 'test://clock', '--count', '1']);
  try {
    assert.equal(await watch.exit, 0, watch.stderr());
    assert.match(watch.stderr(), /legacy era, 2025-11-25/);
    assert.match(watch.stderr(), /listening \(resources\/subscribe for test:\/\/clock/);
    assert.equal(watch.stdout(), 'updated test://clock\n');
    assert.ok(served.requests.some((r) => r.body.includes('"resources/subscribe"')));
  } finally {
    watch.child.kill();
  }
});

for (const era of ['modern', 'legacy'] as const) {
  test(`${era}: the Everything toolbox's watched resource changes on its own, so watch URI shows its updates with nothing else running`, { timeout: 60_000 }, async () => {
    const watch = start(['watch', 'everything', 'test://watched-resource', '--count', '2', '--era', era]);
    try {
      assert.equal(await watch.exit, 0, watch.stderr());
      assert.equal(watch.stdout(), 'updated test://watched-resource\nupdated test://watched-resource\n');
    } finally {
      watch.child.kill();
    }
  });
}

test('modern: a server that agrees to none of the subscriptions asked for is refused plainly, exit 2, not listened to for nothing', { timeout: 60_000 }, async () => {
  const watch = start(['watch', 'kitchen', 'kitchen://pantry', '--count', '1']);
  try {
    assert.equal(await watch.exit, 2, watch.stderr());
    assert.match(watch.stderr(), /^✗ the server agreed to none of what watch asked for \(updates to kitchen:\/\/pantry\): it offers no subscriptions for them/m);
    assert.doesNotMatch(watch.stderr(), /agreed to \{\}|listening/);
    assert.equal(watch.stdout(), '');
  } finally {
    watch.child.kill();
  }
});

test('modern: a server that ends the subscription before --count is met: exit 1, saying how many came', { timeout: 60_000 }, async (t) => {
  // Acknowledges the list changes, sends one, then ends the stream with the listen result.
  const server = cleanupAfter(t)(await listen(modern((request, res) => {
    const { id, method } = request.json!;
    if (method !== 'subscriptions/listen') return json(res, { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
    const meta = { 'io.modelcontextprotocol/subscriptionId': id };
    const event = (message: object) => `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(event({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true }, _meta: meta } }));
    res.write(event({ method: 'notifications/tools/list_changed', params: { _meta: meta } }));
    res.end(event({ id, result: { resultType: 'complete', _meta: meta } }));
  })));
  const watch = start(['watch', server.url, '--count', '3']);
  try {
    assert.equal(await watch.exit, 1, watch.stderr());
    assert.equal(watch.stdout(), 'tools list changed\n');
    assert.match(watch.stderr(), /the server did not agree to prompts list changes; resources list changes: not watched/);
    assert.match(watch.stderr(), /✗ watch http:\/\/127\.0\.0\.1:\d+\/mcp: the server ended the subscription after 1 of the 3 updates asked for \(--count\)/);
  } finally {
    watch.child.kill();
  }
});

for (const [status, said] of [[405, /offers no event stream \(HTTP 405 /], [403, /refused to open its event stream: HTTP 403 .*no event stream here/]] as const) {
  test(`legacy: a server whose session has no event stream (GET answered ${status}): watch ends with 1 and says why, rather than waiting for nothing`, { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await listen(legacySession(status === 405 ? {} : { get: (_r, res) => void json(res, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'no event stream here' } }, status) })));
    const watch = start(['watch', server.url]);
    try {
      assert.equal(await watch.exit, 1, watch.stderr());
      assert.match(watch.stderr(), /✗ watch http:\/\/127.0.0.1:\d+\/mcp: the server /);
      assert.match(watch.stderr(), said);
      assert.match(watch.stderr(), /will not arrive in this session/);
      assert.equal(watch.stdout(), '');
    } finally {
      watch.child.kill();
    }
  });
}

test('legacy stdio: list changes sent between requests reach watch, and a server that exits ends it with 1 and its stderr', { timeout: 60_000 }, async () => {
  const announcing = start(['watch', '--count', '2', '--', process.execPath, fixtureScript('test/fixtures/legacy-stdio-between.ts'), 'announce']);
  const exiting = start(['watch', '--', process.execPath, fixtureScript('test/fixtures/legacy-stdio-between.ts'), 'exit']);
  try {
    assert.equal(await announcing.exit, 0, announcing.stderr());
    assert.equal(announcing.stdout(), 'tools list changed\ntools list changed\n');
    assert.match(announcing.stderr(), /legacy era, 2025-11-25/);
    assert.equal(await exiting.exit, 1, exiting.stderr());
    // Said as a server that stopped, not as one without an event stream.
    assert.match(exiting.stderr(), /✗ watch .*: the server process exited \(code 4\); its stderr said: fatal: the lease was lost\n\s*hint: the server stopped, so nothing more can come/);
    assert.doesNotMatch(exiting.stderr(), /event stream/);
  } finally {
    announcing.child.kill();
    exiting.child.kill();
  }
});

test('a call shows progress and the log level asked for while it runs (reference server, stdio)', { timeout: 60_000 }, async () => {
  const call = start(['call', 'trigger-long-running-operation', 'duration=0.3', 'steps=3', '--log-level', 'debug', '--', process.execPath, everything, 'stdio']);
  assert.equal(await call.exit, 0, call.stderr());
  assert.match(call.stderr(), /^progress 1\/3\nprogress 2\/3\n/m);
  assert.match(call.stderr(), /^progress 3\/3$/m);
  assert.match(call.stdout(), /Long running operation completed/);
  assert.doesNotMatch(call.stderr(), /tools list changed|its tools changed/, 'start-up announcements are not changes');
});

test('legacy: a call shows a list change once, however many times the server sends it', { timeout: 60_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const served = cleanup(await serve(async (request: Request): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => void sessions.set(sid, transport!) });
      const server = new McpServer({ name: 'churning', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
      server.registerTool('churn', { description: 'says its tools changed, five times' }, async (ctx) => {
        for (let i = 0; i < 5; i++) await ctx.mcpReq.notify({ method: 'notifications/tools/list_changed' });
        return { content: [{ type: 'text', text: 'churned' }] };
      });
      await server.connect(transport);
    }
    return transport.handleRequest(request);
  }));
  const call = start(['call', served.url, 'churn']);
  assert.equal(await call.exit, 0, call.stderr());
  assert.equal(call.stdout(), 'churned\n');
  assert.equal(call.stderr().match(/the server says its tools list changed/g)?.length, 1, call.stderr());
});

test('--out DIR saves the image a tool returns', { timeout: 60_000 }, async () => {
  const out = join(scratch, 'out');
  const call = start(['call', 'get-tiny-image', '--out', out, '--', process.execPath, everything, 'stdio']);
  assert.equal(await call.exit, 0, call.stderr());
  assert.deepEqual(readdirSync(out), ['call-1-image.png']);
  assert.deepEqual([...readFileSync(join(out, 'call-1-image.png')).subarray(1, 4)], [...Buffer.from('PNG')]);
  assert.match(call.stderr(), /^byhand: saved .*call-1-image\.png$/m);
});

test('on a terminal, progress is one bar redrawn in place, cleared before the next line', { timeout: 10_000 }, async () => {
  const { createNotificationShow } = await import('../packages/byhand/src/call/show-notifications.js');
  let written = '';
  const tty = Object.assign(new Writable({ write: (chunk, _encoding, done) => void ((written += String(chunk)), done()) }), { isTTY: true });
  const show = createNotificationShow(tty);
  show.progress({ progress: 1, total: 4, message: 'step one' });
  show.progress({ progress: 2, total: 4 });
  show.show({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'half\u001b[2Jway' } });
  show.done();
  assert.equal(
    written,
    '\r\x1b[2K[######..................] 25% step one' + '\r\x1b[2K[############............] 50%' + '\r\x1b[2K[info] half\\u001b[2Jway\n',
    'the log line clears the bar, and its control characters are neutralised',
  );
});

// A modern stdio server that, once listened to, sends FLOOD resources/updated notifications (each for its own URI,
// with a title of TITLE bytes) as fast as byhand reads them, then writes the file DONE.
const FLOOD = 30_000;
const TITLE = 4096;
const flooder = join(scratch, 'flooder.cjs');
writeFileSync(flooder, `
const fs = require('node:fs');
const readline = require('node:readline');
const [count, title, done] = [Number(process.argv[2]), 'x'.repeat(Number(process.argv[3])), process.argv[4]];
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method === 'server/discover') return send({ jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { resources: { subscribe: true, listChanged: true } }, serverInfo: { name: 'flooder', version: '1' } } });
  if (msg.method !== 'subscriptions/listen') return send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
  send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: msg.params.notifications } });
  let i = 0;
  const pump = () => {
    while (i < count) if (!process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://r/' + i++, title } }) + '\\n')) return void process.stdout.once('drain', pump);
    fs.writeFileSync(done, String(count));
  };
  pump();
});
`);

/** The resident set of a process, now and at its peak, in bytes (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)![1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

test('a stalled reader: memory stays bounded while a server floods, and the updates dropped are counted once it reads again', { timeout: 90_000 }, async () => {
  const done = join(scratch, 'flood-done');
  rmSync(done, { force: true });
  // stdout is a pipe nobody reads until the flood is over: byhand's writes fill it and stall.
  const child = spawn(process.execPath, [bin, 'watch', '--', process.execPath, flooder, String(FLOOD), String(TITLE), done], { cwd: scratch, env: { PATH: process.env.PATH ?? '', HOME: scratch, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    child.stdout.pause();
    await until(() => /listening/.test(err) || existsSync(done), 'the acknowledgement');
    const before = memoryOf(child.pid!);
    await until(() => existsSync(done), 'the end of the flood', 60_000);
    const growth = memoryOf(child.pid!).peak - before.rss;
    assert.ok(growth < 64 * 1024 * 1024, `byhand grew by ${Math.round(growth / 1024 / 1024)} MB behind a stalled reader (${FLOOD} updates of ${TITLE} bytes sent)`);

    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stdout.resume();
    await until(() => /^… \d+ updates dropped/m.test(out), 'the count of updates dropped', 30_000);
    const printed = out.match(/^updated test:\/\/r\/\d+/gm)?.length ?? 0;
    const dropped = Number(/^… (\d+) updates dropped: the reader of stdout fell behind$/m.exec(out)![1]);
    assert.ok(dropped > 0 && printed > 0);
    assert.equal(printed + dropped, FLOOD, 'every update is printed or counted as dropped');
    assert.ok(/^updated test:\/\/r\/0 /.test(out), 'the first updates are printed, in order');
  } finally {
    child.kill('SIGINT');
    child.stdout.resume();
    await exit;
  }
});

test('behind a full stdout, a list change already waiting is not queued again, and the gap is told in place', { timeout: 10_000 }, async () => {
  const { createUpdateQueue } = await import('../packages/byhand/src/watch/update-queue.js');
  const written: string[] = [];
  let release: (() => void) | undefined;
  // A stream that takes one write and then holds the next until released.
  const out = new Writable({ highWaterMark: 1, write: (chunk, _encoding, done) => void (written.push(String(chunk)), (release = done)) });
  const queue = createUpdateQueue(out, (count) => `… ${count} dropped\n`, 3);
  queue.push('a\n');
  for (let i = 0; i < 5; i++) queue.push('tools list changed\n', 'tools');
  queue.push('b\n');
  queue.push('c\n');
  queue.push('d\n');
  // Still waiting, so still told before the reader could list again: it joins the one waiting, past the bound too.
  queue.push('tools list changed\n', 'tools');
  queue.push('e\n');
  for (let i = 0; i < 20 && release; i++) {
    const next = release;
    release = undefined;
    next();
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.deepEqual(written, ['a\n', 'tools list changed\n', 'b\n', 'c\n', '… 2 dropped\n']);
});
