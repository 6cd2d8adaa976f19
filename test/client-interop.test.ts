// byhand's client against servers built on the official SDK (@modelcontextprotocol/server 2.4.0),
// over real loopback HTTP and real child processes, in both eras.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { fixtureCommand } from './support/fixture-bundle.js';
import { connect, VerdictCache, type ElicitResult, type Host, type InputContext } from '../packages/client/src/index.js';
import { fixtureHandler, serve, type Served } from './fixtures/sdk-server.js';
import { textOf } from './servers-support.js';

const model = { role: 'assistant' as const, content: { type: 'text' as const, text: 'bread' }, model: 'test-model', stopReason: 'endTurn' };

function recordingHost(): Host & { calls: { kind: string; ctx: InputContext }[] } {
  const calls: { kind: string; ctx: InputContext }[] = [];
  return {
    calls,
    sample: async (_p, ctx) => (calls.push({ kind: 'sample', ctx }), model),
    elicit: async (p, ctx): Promise<ElicitResult> => {
      calls.push({ kind: 'elicit', ctx });
      return { action: 'accept', content: 'ok' in (p.requestedSchema?.properties ?? {}) ? { ok: true } : { name: 'Ada' } };
    },
    roots: async (ctx) => (calls.push({ kind: 'roots', ctx }), { roots: [{ uri: 'file:///work', name: 'work' }] }),
  };
}

function posts(served: Served, method: string) {
  return served.requests.filter((r) => r.method === 'POST' && r.body && JSON.parse(r.body).method === method).map((r) => ({ ...r, json: JSON.parse(r.body) }));
}

for (const mode of ['dual', 'modern-only'] as const) {
  describe(`modern era against the SDK's createMcpHandler (${mode})`, () => {
    let served: Served;
    before(async () => {
      served = await serve(fixtureHandler(mode));
    });
    after(() => served.close());

    test('negotiates modern with server/discover and lists everything', async (t) => {
      const client = await connect(served.url, { host: recordingHost() });
      t.after(() => client.close());
      assert.equal(client.era, 'modern');
      assert.equal(client.protocolVersion, '2026-07-28');
      assert.equal(client.serverInfo?.name, 'sdk-fixture');
      assert.deepEqual((await client.listTools()).map((t) => t.name), ['echo', 'think', 'ask_name', 'two_inputs', 'three_rounds', 'state_only', 'regional']);
      assert.equal((await client.listResources()).length, 2);
      assert.equal((await client.listPrompts()).length, 1);
      const [discover] = posts(served, 'server/discover');
      assert.equal(discover.headers['mcp-protocol-version'], '2026-07-28');
      assert.equal(discover.headers['mcp-method'], 'server/discover');
      assert.match(discover.headers.accept, /application\/json.*text\/event-stream/);
      assert.deepEqual(Object.keys(discover.json.params._meta).sort(), [
        'io.modelcontextprotocol/clientCapabilities', 'io.modelcontextprotocol/clientInfo', 'io.modelcontextprotocol/protocolVersion',
      ]);
    });

    test('a two-round sampling tool: bare result and requestState at the top of params, new id', async (t) => {
      const host = recordingHost();
      const client = await connect(served.url, { host });
      t.after(() => client.close());
      const before = posts(served, 'tools/call').length;
      const result = await client.callTool('think', { topic: 'soup' });
      assert.deepEqual(result.content, [{ type: 'text', text: 'model said: bread (state topic=soup)' }]);
      const [first, second] = posts(served, 'tools/call').slice(before);
      assert.notEqual(first.json.id, second.json.id);
      assert.deepEqual(second.json.params.inputResponses, { answer: model });
      assert.equal(second.json.params.requestState, 'topic=soup');
      assert.equal(second.json.params._meta.inputResponses, undefined);
      assert.deepEqual(second.json.params.arguments, { topic: 'soup' });
      assert.equal(second.headers['mcp-name'], 'think');
      assert.equal(host.calls[0].ctx.era, 'modern');
      assert.equal(host.calls[0].ctx.key, 'answer');
    });

    test('elicitation: the schema default is applied to an accepted answer', async (t) => {
      const client = await connect(served.url, { host: recordingHost() });
      t.after(() => client.close());
      assert.deepEqual((await client.callTool('ask_name')).content, [{ type: 'text', text: 'hello Ada (curious)' }]);
    });

    test('a declined elicitation is sent back as the bare decline', async (t) => {
      const client = await connect(served.url, { host: { elicit: async () => ({ action: 'decline' }) } });
      t.after(() => client.close());
      assert.deepEqual((await client.callTool('ask_name')).content, [{ type: 'text', text: 'user chose decline' }]);
    });

    test('two inputs in one round are fulfilled concurrently', async (t) => {
      let rootsAsked!: () => void;
      const rootsSeen = new Promise<void>((resolve) => (rootsAsked = resolve));
      const client = await connect(served.url, {
        host: {
          // The elicitation waits for the roots request: done one after the other, this would hang.
          elicit: async () => (await rootsSeen, { action: 'accept', content: { name: 'Ada' } }),
          roots: async () => (rootsAsked(), { roots: [{ uri: 'file:///work' }] }),
        },
        timeoutMs: 5000,
      });
      t.after(() => client.close());
      assert.deepEqual((await client.callTool('two_inputs')).content, [{ type: 'text', text: 'Ada works in file:///work' }]);
    });

    test('a three-round tool: answers are per round, state carries the rest', async (t) => {
      const client = await connect(served.url, { host: recordingHost() });
      t.after(() => client.close());
      const before = posts(served, 'tools/call').length;
      assert.deepEqual((await client.callTool('three_rounds')).content, [{ type: 'text', text: 'name=Ada; poem=bread' }]);
      const rounds = posts(served, 'tools/call').slice(before);
      assert.equal(rounds.length, 3);
      assert.deepEqual(Object.keys(rounds[1].json.params.inputResponses), ['step1']);
      assert.equal(rounds[1].json.params.requestState, undefined, 'no state was given, so none is sent');
      assert.deepEqual(Object.keys(rounds[2].json.params.inputResponses), ['step2']);
      assert.equal(rounds[2].json.params.requestState, 'name=Ada');
      assert.equal(new Set(rounds.map((r) => r.json.id)).size, 3);
    });

    test('a requestState-only answer is retried at once with the state alone', async (t) => {
      const client = await connect(served.url, { host: recordingHost() });
      t.after(() => client.close());
      const before = posts(served, 'tools/call').length;
      assert.deepEqual((await client.callTool('state_only')).content, [{ type: 'text', text: 'came back with later' }]);
      const retry = posts(served, 'tools/call').slice(before)[1];
      assert.equal(retry.json.params.requestState, 'later');
      assert.equal(retry.json.params.inputResponses, undefined);
    });

    test('a resource and a prompt that ask for input', async (t) => {
      const client = await connect(served.url, { host: recordingHost() });
      t.after(() => client.close());
      assert.equal((await client.readResource('fixture://secret')).contents[0].text, 'the secret is bread');
      const prompt = await client.getPrompt('muse', { subject: 'rye' });
      assert.deepEqual(prompt.messages[0].content, { type: 'text', text: 'Write about rye: bread' });
      const reads = posts(served, 'resources/read');
      assert.equal(reads.at(-1)!.headers['mcp-name'], 'fixture://secret');
      assert.equal(posts(served, 'prompts/get').at(-1)!.headers['mcp-name'], 'muse');
    });

    test('x-mcp-header arguments are mirrored as Mcp-Param-* headers', async (t) => {
      const client = await connect(served.url, { host: recordingHost() });
      t.after(() => client.close());
      await client.listTools();
      assert.deepEqual((await client.callTool('regional', { region: 'Zürich', query: 'q' })).content, [{ type: 'text', text: 'q in Zürich' }]);
      assert.equal(posts(served, 'tools/call').at(-1)!.headers['mcp-param-region'], `=?base64?${Buffer.from('Zürich').toString('base64')}?=`);
    });

    test('a server whose server/discover may not be reused (the SDK\'s ttlMs 0) is discovered again: a second client knows who it is', async (t) => {
      const cleanup = cleanupAfter(t);
      const first = cleanup(await connect(served.url));
      await first.close();
      const probes = posts(served, 'server/discover').length;
      const second = await connect(served.url);
      t.after(() => second.close());
      assert.equal(second.era, 'modern');
      assert.equal(posts(served, 'server/discover').length, probes + 1);
      assert.deepEqual(identity(second), identity(first));
      assert.equal(second.serverInfo?.name, 'sdk-fixture');
    });
  });
}

function identity(client: { serverInfo: unknown; serverCapabilities: unknown; instructions: unknown }) {
  return { serverInfo: client.serverInfo, serverCapabilities: client.serverCapabilities, instructions: client.instructions };
}

test('the verdict is cached per endpoint with who the server is: while its server/discover may be reused (ttlMs), a second client sends no probe and knows it all the same', async (t) => {
  const served = await serve(fixtureHandler('modern-only', { instructions: 'Ask for bread.', discoverTtlMs: 60_000 }));
  t.after(() => served.close());
  let now = 1_000_000;
  const verdicts = new VerdictCache();
  const first = await connect(served.url, { verdicts, now: () => now });
  await first.close();
  assert.equal(first.instructions, 'Ask for bread.');
  const probes = posts(served, 'server/discover').length;

  const second = await connect(served.url, { verdicts, now: () => now });
  t.after(() => second.close());
  assert.equal(second.verdict.how, 'cached');
  assert.equal(posts(served, 'server/discover').length, probes);
  assert.deepEqual(identity(second), identity(first));
  assert.equal(second.discovered?.instructions, 'Ask for bread.');
  await second.listTools();

  // Past its ttlMs the answer is not reused: the era is found again, with who the server is now.
  now += 60_000;
  const third = await connect(served.url, { verdicts, now: () => now });
  t.after(() => third.close());
  assert.equal(third.verdict.how, 'probe');
  assert.equal(posts(served, 'server/discover').length, probes + 1);
  assert.deepEqual(identity(third), identity(first));
});

describe('legacy era against a sessionful SDK server (legacy only)', () => {
  let served: Served;
  before(async () => {
    served = await serve(fixtureHandler('legacy-session'));
  });
  after(() => served.close());

  test('falls back to initialize, keeps the session, and answers pushed sampling through the host', async (t) => {
    const cleanup = cleanupAfter(t);
    const host = recordingHost();
    const client = cleanup(await connect(served.url, { host }));
    assert.equal(client.era, 'legacy');
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.equal(client.verdict.how, 'probe');
    assert.match(client.verdict.evidence, /-32000/);
    const session = client.sessionId;
    assert.ok(session);
    assert.equal((await client.listTools()).length, 7);
    assert.deepEqual((await client.callTool('think', { topic: 'rye' })).content[0], { type: 'text', text: 'model said: bread (state topic=rye)' });
    assert.equal(host.calls[0].kind, 'sample');
    assert.equal(host.calls[0].ctx.era, 'legacy');
    assert.deepEqual((await client.callTool('ask_name')).content[0], { type: 'text', text: 'hello Ada (curious)' });
    const later = posts(served, 'tools/list').at(-1)!;
    assert.equal(later.headers['mcp-session-id'], session);
    assert.equal(later.headers['mcp-protocol-version'], '2025-11-25');
    assert.equal(posts(served, 'notifications/initialized').length, 1);
    await client.close();
    assert.equal(served.requests.at(-1)!.method, 'DELETE');
    assert.equal(served.requests.at(-1)!.headers['mcp-session-id'], session);
  });

  test('a pin to modern never falls back', async () => {
    await assert.rejects(connect(served.url, { era: 'modern' }), (e: Error & { hint?: string }) => /did not answer as a modern server/.test(e.message) && /pinned/.test(e.hint!));
  });
});

test('a cached modern verdict that the server contradicts (now a legacy server at the same URL) is found again, once', async (t) => {
  const cleanup = cleanupAfter(t);
  // The modern server's server/discover may be reused, so the second client takes its era from the cache unasked.
  const modern = fixtureHandler('modern-only', { discoverTtlMs: 60_000 });
  const legacy = fixtureHandler('legacy-session');
  let current = modern;
  const served = cleanup(await serve((request) => current(request)));
  const verdicts = new VerdictCache();
  const first = cleanup(await connect(served.url, { verdicts }));
  await first.close();
  current = legacy;
  const second = cleanup(await connect(served.url, { verdicts, host: recordingHost() }));
  assert.equal(second.verdict.how, 'cached');
  assert.equal(second.era, 'modern');
  assert.equal((await second.listTools()).length, 7);
  assert.equal(second.era, 'legacy');
  assert.match(second.verdict.revalidated ?? '', /the cached modern verdict was contradicted/);
  assert.equal(posts(served, 'initialize').length, 1);
});

describe('legacy era against a stateless SDK server', () => {
  let served: Served;
  before(async () => {
    served = await serve(fixtureHandler('legacy-stateless'));
  });
  after(() => served.close());

  test('sampling is refused with the SDK\'s own explanation', async (t) => {
    const client = await connect(served.url, { host: recordingHost() });
    t.after(() => client.close());
    assert.equal(client.era, 'legacy');
    assert.equal(client.sessionId, undefined);
    const result = await client.callTool('think', { topic: 'rye' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /per-request legacy serving cannot receive server-to-client requests/);
  });
});

describe('a dual-era server pinned to legacy', () => {
  test('era: legacy sends initialize first and gets the legacy shape', async (t) => {
    const served = await serve(fixtureHandler('dual'));
    t.after(() => served.close());
    const client = await connect(served.url, { era: 'legacy' });
    t.after(() => client.close());
    assert.equal(client.era, 'legacy');
    assert.equal(JSON.parse(served.requests[0].body).method, 'initialize');
    assert.equal(served.requests[0].headers['mcp-protocol-version'], undefined);
    assert.equal((await client.listTools()).length, 7);
  });
});

describe('stdio', () => {
  const command = (mode: string) => fixtureCommand('test/fixtures/sdk-stdio-server.ts', mode);

  test('the SDK\'s serveStdio is found modern by the server/discover probe', async (t) => {
    const client = await connect(command('serve'), { host: recordingHost() });
    t.after(() => client.close());
    assert.equal(client.era, 'modern');
    assert.equal((await client.listTools()).length, 7);
    assert.deepEqual((await client.callTool('think', { topic: 'oats' })).content[0], { type: 'text', text: 'model said: bread (state topic=oats)' });
    assert.match(client.stderr, /fixture stdio server \(serve\) started/);
  });

  test('a legacy-only stdio server falls back to initialize and can push sampling', async (t) => {
    const host = recordingHost();
    const client = await connect(command('legacy'), { host });
    t.after(() => client.close());
    assert.equal(client.era, 'legacy');
    assert.equal(client.verdict.era, 'legacy');
    assert.equal(client.verdict.how, 'probe');
    assert.match(textOf(await client.callTool('think', { topic: 'oats' })), /^model said: bread/);
    assert.equal(host.calls[0].ctx.era, 'legacy');
  });

  test('a server that dies says why, with its stderr', async () => {
    await assert.rejects(connect(command('crash')), (e: Error) => /exited \(code 3\)/.test(e.message) && /database is locked/.test(e.message));
  });
});
