// What a connection can do (client.traits), the same answer for each era and transport a caller would otherwise test by
// name; and a transport of the caller's own, given to connect(): here the Kitchen toolbox's fetch handler called in
// this process, with no socket at all.

import assert from 'node:assert/strict';
import { describe, test } from './support/node-test.js';
import { fixtureCommand } from './support/fixture-bundle.js';
import { connect, type Client, type Exchange, type Reply, type Traits, type Transport } from '../packages/client/src/index.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../packages/client/src/types.js';
import { createKitchen } from '../packages/servers/src/toolboxes/create.js';
import { fixtureHandler, serve } from './fixtures/sdk-server.js';
import { serveSse } from './fixtures/sse-server.js';

const MODERN_HTTP: Traits = { pushes: false, inputRounds: true, sessionful: false, changes: 'listen', mirrorsHeaders: true };
const MODERN_STREAM: Traits = { ...MODERN_HTTP, mirrorsHeaders: false };
const LEGACY_SESSION: Traits = { pushes: true, inputRounds: false, sessionful: true, changes: 'session', mirrorsHeaders: false };
const LEGACY_STATELESS: Traits = { pushes: false, inputRounds: false, sessionful: false, changes: 'none', mirrorsHeaders: false };

async function traitsOf(client: Client): Promise<{ era: string; transport: string; traits: Traits }> {
  try {
    return { era: client.era, transport: client.transportName, traits: { ...client.traits } };
  } finally {
    await client.close();
  }
}

describe('traits: what each connection can do', () => {
  test('over HTTP: a modern server, a legacy one with a session, a legacy one without, and HTTP+SSE', { timeout: 30_000 }, async (t) => {
    const [dual, session, stateless, sse] = await Promise.all([serve(fixtureHandler('dual')), serve(fixtureHandler('legacy-session')), serve(fixtureHandler('legacy-stateless')), serveSse()]);
    t.after(() => Promise.all([dual.close(), session.close(), stateless.close(), sse.close()]));
    assert.deepEqual(await traitsOf(await connect(dual.url)), { era: 'modern', transport: 'streamable-http', traits: MODERN_HTTP });
    assert.deepEqual(await traitsOf(await connect(session.url)), { era: 'legacy', transport: 'streamable-http', traits: LEGACY_SESSION });
    assert.deepEqual(await traitsOf(await connect(stateless.url)), { era: 'legacy', transport: 'streamable-http', traits: LEGACY_STATELESS });
    assert.deepEqual(await traitsOf(await connect(sse.url, { timeoutMs: 5_000 })), { era: 'legacy', transport: 'sse', traits: LEGACY_SESSION });
  });

  test('over stdio: a modern server mirrors no headers; a legacy one keeps its session on the process', { timeout: 30_000 }, async () => {
    const command = (mode: string) => fixtureCommand('test/fixtures/sdk-stdio-server.ts', mode);
    assert.deepEqual(await traitsOf(await connect(command('serve'))), { era: 'modern', transport: 'stdio', traits: MODERN_STREAM });
    assert.deepEqual(await traitsOf(await connect(command('legacy'))), { era: 'legacy', transport: 'stdio', traits: LEGACY_SESSION });
  });
});

/**
 * A transport of a caller's own: each request handed to a fetch handler in this process (hono's `app.request()`), its
 * answer read as JSON or as an event stream. Nothing in the client names it.
 */
class InProcess implements Transport {
  readonly name = 'in-process';
  readonly key = 'in-process:kitchen';
  readonly carriesHeaders = true;
  readonly held = false;
  closed = false;
  readonly seen: { method: string; headers: Record<string, string> }[] = [];

  constructor(private readonly handler: (request: Request) => Promise<Response>) {}

  async request(message: JsonRpcRequest, exchange: Exchange): Promise<Reply> {
    this.seen.push({ method: message.method, headers: exchange.headers });
    const response = await this.handler(new Request('http://127.0.0.1/api/kitchen', {
      method: 'POST',
      headers: { host: '127.0.0.1', 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...exchange.headers },
      body: JSON.stringify(message),
      signal: exchange.deadline.signal,
    }));
    const text = await response.text();
    const messages = (response.headers.get('content-type') ?? '').includes('text/event-stream')
      ? text.split('\n').filter((line) => line.startsWith('data:')).map((line) => JSON.parse(line.slice(5)) as JsonRpcResponse | JsonRpcNotification)
      : [JSON.parse(text) as JsonRpcResponse];
    for (const each of messages) if ('method' in each) exchange.onNotification?.(each);
    const answer = messages.find((each): each is JsonRpcResponse => !('method' in each) && each.id === message.id);
    if (!answer) throw new Error(`no answer to ${message.method}`);
    return { message: answer, status: response.status };
  }

  async notify(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
  }
}

test('connect() takes a transport of the caller\'s own: the era is found through it, requests carry the headers it can carry, and it is closed with the client', { timeout: 30_000 }, async (t) => {
  const kitchen = createKitchen();
  t.after(() => kitchen.close());
  const transport = new InProcess((request) => kitchen.fetch(request));
  const host = { sample: async () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: 'a cake' }, model: 'test' }) };
  const client = await connect(transport, { host });
  try {
    assert.equal(client.era, 'modern');
    assert.equal(client.transportName, 'in-process');
    assert.deepEqual(client.traits, MODERN_HTTP);
    assert.equal(client.serverInfo?.name, 'byhand-kitchen');
    const tools = await client.listTools();
    assert.ok(tools.length > 0);
    assert.equal(transport.seen[0].method, 'server/discover');
    assert.equal(transport.seen.at(-1)!.headers['mcp-method'], 'tools/list');
  } finally {
    await client.close();
  }
  assert.equal(transport.closed, true);
});
