// `byhand bridge` when the server behind it can tell nothing more: a stdio server whose process exits (it crashed),
// and a 2025 server that offers no event stream. On stdio the bridge ends with its server, exit 1 and the server's
// stderr, so the host sees it stop (it used to run on, answering every request "the server process is gone"). On
// HTTP a 2025 host's session ends with it (404, and a new session starts the server again) and a 2026 host's next
// request starts it again. A 2026 host's `subscriptions/listen` on such a server completes, as a 2026 server ends a
// subscription, instead of being held open for changes that cannot come.

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { until } from './support/cli.js';
import { listen as listenBridge } from './support/bridge-listen.js';
import { rawBridge, type Line } from './support/raw-bridge.js';
import { fixtureScript } from './support/fixture-bundle.js';
import { legacySession, listen } from './fixtures/loopback.js';

const MODERN = '2026-07-28';
const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const stdioServer = (mode: string) => ['--', process.execPath, fixtureScript('test/fixtures/sdk-stdio-server.ts'), mode];
const announcing = (mode: 'announce' | 'exit') => ['--', process.execPath, fixtureScript('test/fixtures/legacy-stdio-between.ts'), mode];
const initialize = { method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

test('stdio face: a 2025 stdio server that exits between calls ends the bridge, exit 1 with its stderr', { timeout: 20_000 }, async () => {
  const bridge = rawBridge(announcing('exit'));
  try {
    bridge.send({ id: 1, ...initialize }, { method: 'notifications/initialized' });
    assert.equal(await bridge.exitWithin(10_000), 1, bridge.stderr());
    assert.match(bridge.stderr(), /exited \(code 4\).*fatal: the lease was lost.*the bridge ends with its server/s);
    assert.equal(bridge.stderr().match(/lease was lost/g)?.length, 1, `said once: ${bridge.stderr()}`);
  } finally {
    await bridge.stop();
  }
});

test('stdio face: a 2026 stdio server that exits during a call: the host gets the error, then the bridge ends', { timeout: 20_000 }, async () => {
  const bridge = rawBridge(stdioServer('crashing'));
  try {
    bridge.send({ id: 1, method: 'server/discover', params: { _meta: meta } });
    await until(() => bridge.lines().some((m) => m.id === 1), 'server/discover answered', 10_000);
    bridge.send({ id: 2, method: 'tools/call', params: { _meta: meta, name: 'crash', arguments: {} } });
    assert.equal(await bridge.exitWithin(10_000), 1, bridge.stderr());
    const crashed = bridge.lines().find((m) => m.id === 2);
    assert.match(String(crashed?.error?.message), /out of memory/);
    assert.match(bridge.stderr(), /exited \(code 5\).*the bridge ends with its server/s);
  } finally {
    await bridge.stop();
  }
});

test('HTTP face: a 2025 host\'s session ends with its server process; a new session starts the server again', { timeout: 30_000 }, async () => {
  const bridge = await listenBridge(stdioServer('legacy-crashing'));
  try {
    const first = await legacyPost(bridge.url, { id: 1, ...initialize });
    const session = first.session!;
    assert.equal(first.answer.id, 1);
    await legacyPost(bridge.url, { method: 'notifications/initialized' }, session);
    const echoed = await legacyPost(bridge.url, { id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }, session);
    assert.ok(echoed.answer.result, JSON.stringify(echoed.answer));
    const crashed = await legacyPost(bridge.url, { id: 3, method: 'tools/call', params: { name: 'crash', arguments: {} } }, session);
    // A 2025 host is told of a failed call as a tool error it can show.
    assert.match(JSON.stringify(crashed.answer.result), /isError.*exited \(code 5\).*out of memory/);
    const after = await legacyPost(bridge.url, { id: 4, method: 'tools/list' }, session);
    assert.equal(after.status, 404);
    assert.match(bridge.cli.stderr(), /exited \(code 5\).*the 2025 session that used it ends/s);

    const again = await legacyPost(bridge.url, { id: 1, ...initialize });
    await legacyPost(bridge.url, { method: 'notifications/initialized' }, again.session);
    const echoedAgain = await legacyPost(bridge.url, { id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'again' } } }, again.session);
    assert.deepEqual((echoedAgain.answer.result as { content?: unknown[] } | undefined)?.content, [{ type: 'text', text: 'echo: again' }]);
  } finally {
    await bridge.stop();
  }
});

test('HTTP face: a 2026 host\'s call that crashes the server fails; its next call starts the server again', { timeout: 30_000 }, async () => {
  const bridge = await listenBridge(stdioServer('crashing'));
  try {
    const crashed = await modernPost(bridge.url, { id: 1, method: 'tools/call', params: { _meta: meta, name: 'crash', arguments: {} } });
    assert.match(String(crashed.answer.error?.message), /out of memory/);
    await until(() => /the next 2026 request that needs it starts it again/.test(bridge.cli.stderr()), 'the notice', 10_000);
    const echoed = await modernPost(bridge.url, { id: 2, method: 'tools/call', params: { _meta: meta, name: 'echo', arguments: { text: 'again' } } });
    assert.deepEqual((echoed.answer.result as { content?: unknown[] } | undefined)?.content, [{ type: 'text', text: 'echo: again' }]);
  } finally {
    await bridge.stop();
  }
});

test('HTTP face: a 2026 host\'s subscription to a 2025 stdio server completes when the process exits, and a new one starts it again', { timeout: 30_000 }, async () => {
  const bridge = await listenBridge(announcing('exit'));
  try {
    const listened = await modernPost(bridge.url, { id: 'sub', method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } });
    const methods = listened.all.map((m) => m.method ?? `answer ${String(m.id)}`);
    assert.equal(methods[0], 'notifications/subscriptions/acknowledged');
    assert.ok(methods.includes('notifications/tools/list_changed'), methods.join(', '));
    assert.deepEqual(listened.answer, { jsonrpc: '2.0', id: 'sub', result: { _meta: { [SUBSCRIPTION_ID]: 'sub' }, resultType: 'complete' } });
    // The process is started again: the new stream is acknowledged for what the server can tell.
    const again = await modernPost(bridge.url, { id: 'sub2', method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } });
    assert.deepEqual(again.all[0]?.params?.notifications, { toolsListChanged: true });
  } finally {
    await bridge.stop();
  }
});

test('stdio face: a 2026 host\'s subscription to a 2025 server with no event stream honours nothing and completes', { timeout: 20_000 }, async () => {
  const server = await listen(legacySession({ capabilities: { tools: { listChanged: true } } }));
  const bridge = rawBridge([server.url]);
  try {
    bridge.send({ id: 1, method: 'server/discover', params: { _meta: meta } });
    await until(() => /offers no event stream/.test(bridge.stderr()), 'the notice that the server offers no event stream', 10_000);
    bridge.send({ id: 'sub', method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } });
    await until(() => bridge.lines().some((m) => m.id === 'sub'), 'the subscription to complete', 10_000);
    const ack = bridge.lines().find((m) => m.method === 'notifications/subscriptions/acknowledged');
    assert.deepEqual(ack?.params?.notifications, {});
    assert.deepEqual(bridge.lines().find((m) => m.id === 'sub')?.result, { _meta: { [SUBSCRIPTION_ID]: 'sub' }, resultType: 'complete' });
  } finally {
    await bridge.stop();
    await server.close();
  }
});

interface Answered {
  status: number;
  session: string | undefined;
  /** Every message of the response, in order (one for a JSON body; an event stream's priming event is none). */
  all: Line[];
  /** The last: the answer to the request. */
  answer: Line;
}

/** A 2025 host's POST, with its session once it has one. */
function legacyPost(url: string, message: object, session?: string): Promise<Answered> {
  return post(url, message, { 'mcp-protocol-version': '2025-11-25', ...(session !== undefined ? { 'mcp-session-id': session } : {}) });
}

/** A 2026 host's POST: the headers agree with the body. */
function modernPost(url: string, message: { id: string | number; method: string; params: Record<string, unknown> }): Promise<Answered> {
  const name: Record<string, string> = typeof message.params.name === 'string' ? { 'mcp-name': message.params.name } : {};
  return post(url, message, { 'mcp-protocol-version': MODERN, 'mcp-method': message.method, ...name });
}

async function post(url: string, message: object, headers: Record<string, string>): Promise<Answered> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
  const all = sse
    ? text.split('\n').filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '').map((line) => JSON.parse(line.slice(5)) as Line)
    : text === '' ? [] : [JSON.parse(text) as Line];
  return { status: response.status, session: response.headers.get('mcp-session-id') ?? undefined, all, answer: all.at(-1) ?? {} };
}
