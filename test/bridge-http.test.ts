// `byhand bridge --listen`: the Streamable HTTP face, dual-era on one URL. The real CLI listens on loopback in front of
// the modern Everything toolbox, and in front of a legacy stdio server (server-everything); the SDK 2.4.0 client
// speaks the modern era to it, the SDK 1.x client the legacy one, and each gets its own handlers' answers. A foreign
// Origin is refused, as `byhand serve` refuses it.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { after, before, describe, test } from './support/node-test.js';
import { listen } from './support/bridge-listen.js';
import { answerAsLegacyHost, answerAsModernHost, tapProgress, type Asked } from './support/bridge-hosts.js';
import { textOf } from './servers-support.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { request as httpRequest } from 'node:http';
import { json, listen as listenLoopback, modern as modernServer } from './fixtures/loopback.js';
import { until } from './support/cli.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const MODERN = '2026-07-28';

async function modernHost(url: string, capabilities: Record<string, object> = { sampling: {}, elicitation: { form: {} } }): Promise<{ client: ModernClient; answers: Asked }> {
  const client = new ModernClient({ name: 'modern-host', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: { pin: MODERN } } });
  const answers = answerAsModernHost(client, capabilities, 'modern');
  await client.connect(new ModernTransport(new URL(url)));
  return { client, answers };
}

async function legacyHost(url: string): Promise<{ client: LegacyClient; answers: Asked }> {
  const capabilities = { sampling: {}, elicitation: {} };
  const client = new LegacyClient({ name: 'legacy-host', version: '1.0.0' }, { capabilities });
  const answers = answerAsLegacyHost(client, capabilities, 'legacy');
  await client.connect(new LegacyTransport(new URL(url)));
  return { client, answers };
}

describe('byhand bridge --listen', () => {
  let server: RunningServer;
  let url: string;
  before(async () => {
    server = await startServer({ port: 0, toolboxes: ['everything'] });
    url = server.urls.everything!;
  });
  after(() => server.close());

  test('in front of a modern server: a 2026 host and a 2025 host on the same URL, each asked in its own era', { timeout: 15_000 }, async () => {
    const bridge = await listen([url]);
    let modern: ModernClient | undefined;
    let legacy: LegacyClient | undefined;
    try {
      const m = await modernHost(bridge.url);
      modern = m.client;
      assert.equal(modern.getServerVersion()?.name, 'byhand-everything');
      const thought = await modern.callTool({ name: 'test_sampling', arguments: { prompt: 'Name a colour' } });
      assert.equal(textOf(thought), 'LLM response: the modern model says: 13 characters');
      const asked = await modern.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
      assert.equal(textOf(asked), 'User response: action=accept, content={"response":"modern response"}');
      const wire = tapProgress(modern);
      await modern.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: () => undefined });
      assert.deepEqual(wire.lastCall(), [0, 50, 100], "the server's progress reaches the host under its token, on an event stream, before the result");

      const l = await legacyHost(bridge.url);
      legacy = l.client;
      assert.equal(legacy.getServerVersion()?.name, 'byhand-everything');
      const legacyThought = await legacy.callTool({ name: 'test_sampling', arguments: { prompt: 'Name a shape' } });
      assert.equal(textOf(legacyThought), 'LLM response: the legacy model says: 12 characters');
      const legacyAsked = await legacy.callTool({ name: 'test_elicitation', arguments: { message: 'Where are you?' } });
      assert.equal(textOf(legacyAsked), 'User response: action=accept, content={"response":"legacy response"}');
      assert.deepEqual(l.answers.forms, ['Where are you?']);
    } finally {
      await modern?.close().catch(() => undefined);
      await legacy?.close().catch(() => undefined);
      await bridge.stop();
    }
  });

  test('in front of a modern server a 2026 call passes through: the server\'s own requestState, its own -32021, the Mcp-Param headers set', { timeout: 15_000 }, async () => {
    const bridge = await listen([url]);
    try {
      const meta = (capabilities: object) => ({ 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': capabilities });
      // What a 2026 host sends with each request: the headers that mirror the body (the bridge refuses it without them, as a 2026 server does).
      const mirrored = (body: { method: string; params: { name: string } }) => ({ 'MCP-Protocol-Version': MODERN, 'Mcp-Method': body.method, 'Mcp-Name': body.params.name });
      const post = async (to: string, body: { method: string; params: { name: string } & Record<string, unknown> }, headers: Record<string, string> = mirrored(body), status = { code: 0 }) => {
        const response = await fetch(to, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }) });
        status.code = response.status;
        return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
      };
      const call = { method: 'tools/call', params: { _meta: meta({ elicitation: { form: {} } }), name: 'test_input_required_result_request_state', arguments: {} } };
      const asked = await post(bridge.url, call);
      assert.equal(asked.result?.resultType, 'input_required', JSON.stringify(asked));
      assert.equal(typeof asked.result?.requestState, 'string', JSON.stringify(asked));
      // The retry goes straight to the server: it takes the state because the state is its own.
      const retry = { ...call, params: { ...call.params, inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState: asked.result?.requestState } };
      const done = await post(url, retry, { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': call.params.name });
      assert.match(JSON.stringify(done), /state-ok: requestState verified/);

      const sampling = { method: 'tools/call', params: { _meta: meta({}), name: 'test_sampling', arguments: { prompt: 'Name a colour' } } };
      const undeclared = await post(bridge.url, sampling);
      assert.equal(undeclared.error?.code, -32021, JSON.stringify(undeclared));

      // Never listed by this host: the bridge lists the tools itself, to check the Mcp-Param-Region header the schema asks
      // for (a call without it is refused 400 -32020, as the server would) and to send it on.
      const regional = { method: 'tools/call', params: { _meta: meta({}), name: 'test_custom_header', arguments: { region: 'eu-west' } } };
      const status = { code: 0 };
      const bare = await post(bridge.url, regional, mirrored(regional), status);
      assert.equal(bare.error?.code, -32020, JSON.stringify(bare));
      assert.equal(status.code, 400);
      const region = await post(bridge.url, regional, { ...mirrored(regional), 'Mcp-Param-Region': 'eu-west' });
      assert.match(JSON.stringify(region.result), /region=eu-west/, JSON.stringify(region));
    } finally {
      await bridge.stop();
    }
  });

  test('subscriptions/listen from a 2026 host is an event stream: acknowledged, then a legacy session\'s list change', { timeout: 15_000 }, async () => {
    const bridge = await listen([url, '--era', 'legacy']);
    const stop = new AbortController();
    try {
      const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
      const post = (body: { id: string | number; method: string; params: { name?: string } & Record<string, unknown> }, signal?: AbortSignal) => {
        const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': MODERN, 'Mcp-Method': body.method, ...(body.params.name !== undefined ? { 'Mcp-Name': body.params.name } : {}) };
        return fetch(bridge.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...body }), ...(signal ? { signal } : {}) });
      };
      const stream = await post({ id: 'sub', method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } }, stop.signal);
      assert.equal(stream.headers.get('content-type'), 'text/event-stream');
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      let events = '';
      const nextEvent = async (method: string) => {
        for (let reads = 0; reads < 20 && !events.includes(`"method":"${method}"`); reads++) events += (await reader.read()).value ?? '';
        assert.match(events, new RegExp(`"method":"${method}".*"io.modelcontextprotocol/subscriptionId":"sub"`));
      };
      await nextEvent('notifications/subscriptions/acknowledged');
      const call = await post({ id: 2, method: 'tools/call', params: { _meta: meta, name: 'test_trigger_tool_change', arguments: {} } });
      assert.match(await call.text(), /Mutation triggered/);
      await nextEvent('notifications/tools/list_changed');
    } finally {
      stop.abort();
      await bridge.stop();
    }
  });

  test('a foreign Host or Origin is refused before anything reaches the server', { timeout: 15_000 }, async () => {
    const bridge = await listen([url]);
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'page', version: '1' } } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const foreign = await fetch(bridge.url, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body });
      assert.equal(foreign.status, 403);
      await foreign.body?.cancel();
      const elsewhere = await fetch(bridge.url.replace(/\/mcp$/, '/other'), { method: 'POST', headers, body });
      assert.equal(elsewhere.status, 404);
      await elsewhere.body?.cancel();
      assert.doesNotMatch(bridge.cli.stderr(), /bridging to/);
    } finally {
      await bridge.stop();
    }
  });

  test('a 2026 host in front of a legacy stdio server: pushed requests come back as input_required; a host without sampling gets a back without it', { timeout: 15_000 }, async () => {
    const bridge = await listen(['--', process.execPath, everything, 'stdio']);
    let modern: ModernClient | undefined;
    let unsampled: ModernClient | undefined;
    try {
      const m = await modernHost(bridge.url);
      modern = m.client;
      const thought = await modern.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'Name a colour', maxTokens: 20 } });
      assert.match(textOf(thought), /the modern model says/);
      assert.match(m.answers.prompts[0] ?? '', /Name a colour/);
      const asked = await modern.callTool({ name: 'trigger-elicitation-request', arguments: {} });
      assert.match(textOf(asked), /modern name/);

      const u = await modernHost(bridge.url, { elicitation: { form: {} } });
      unsampled = u.client;
      // Its back declares what it declared, no sampling: the legacy server is never told it may ask, and offers no
      // sampling tool to this host (server-everything registers it only for a client that can sample).
      const offered = (await unsampled.listTools()).tools.map((tool) => tool.name);
      assert.ok(offered.includes('trigger-elicitation-request') && !offered.includes('trigger-sampling-request'), offered.join(', '));
      // The first host's back, which declared sampling, still offers it; both go on.
      assert.ok((await modern.listTools()).tools.some((tool) => tool.name === 'trigger-sampling-request'));
      assert.match(textOf(await unsampled.callTool({ name: 'trigger-elicitation-request', arguments: {} })), /modern name/);
    } finally {
      await modern?.close().catch(() => undefined);
      await unsampled?.close().catch(() => undefined);
      await bridge.stop();
    }
  });
});

test('a 2026 host that hangs up during a call: the bridge gives up its request to the server, and serves the next one', { timeout: 20_000 }, async () => {
  let closed = 0;
  let calls = 0;
  const server = await listenLoopback(modernServer((request, res, req) => {
    const message = request.json as { id?: unknown; method?: string } | undefined;
    if (message?.method === 'tools/list') return json(res, { jsonrpc: '2.0', id: message.id, result: { tools: [{ name: 'slow', inputSchema: { type: 'object' } }] } });
    if (message?.method === 'tools/call' && ++calls === 1) return void req.socket.once('close', () => closed++);
    json(res, { jsonrpc: '2.0', id: message?.id ?? null, result: { content: [{ type: 'text', text: 'done' }] } });
  }));
  const bridge = await listen([server.url]);
  const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
  const call = (id: number) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { _meta: meta, name: 'slow', arguments: {} } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'slow' };
    const req = httpRequest(bridge.url, { method: 'POST', headers, agent: false });
    const answer = new Promise<string>((resolve, reject) => {
      req.once('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).once('end', () => resolve(text));
      });
      req.once('error', reject);
    });
    req.end(body);
    return { req, answer };
  };
  try {
    const first = call(1);
    first.answer.catch(() => undefined);
    await until(() => calls === 1, 'the call to reach the server', 10_000);
    first.req.destroy();
    await until(() => closed === 1, 'the bridge to give up its request to the server', 5_000);
    assert.match(await call(2).answer, /"text":"done"/);
  } finally {
    await bridge.stop();
    await server.close();
  }
});
