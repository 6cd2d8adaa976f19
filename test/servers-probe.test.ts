import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { connectHost, initializeParams, legacyRpc, modernRpc, textOf } from './servers-support.js';

const LEGACY_REFUSAL = 'per-request legacy serving cannot receive server-to-client requests';
const MODERN_PUSH_REFUSAL = 'Server-to-client requests are not available on protocol revision 2026-07-28';

let server: RunningServer;
let url: string;

before(async () => {
  server = await startServer({ port: 0, toolboxes: ['probe'] });
  url = server.urls.probe!;
});
after(() => server.close());

describe('The Probe with the SDK client', () => {
  test('lists its two tools in both eras', async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const host = await connectHost(url, { era });
      try {
        assert.equal(host.client.getProtocolEra(), era);
        assert.equal(host.client.getServerVersion()?.title, 'The Probe');
        assert.deepEqual((await host.client.listTools()).tools.map((t) => t.name).sort(), ['probe_sampling', 'probe_sampling_naive']);
      } finally {
        await host.close();
      }
    }
  });

  test('modern: probe_sampling gets the model answer in round 2', async () => {
    const host = await connectHost(url, { era: 'modern', think: (p) => (p.includes('bread') ? 'bread is baked' : 'wrong topic') });
    try {
      const result = await host.client.callTool({ name: 'probe_sampling', arguments: { topic: 'bread' } });
      assert.equal(result.isError, undefined);
      assert.equal(textOf(result), 'model said: bread is baked');
      assert.equal(host.sampling.length, 1);
      assert.equal(host.sampling[0].maxTokens, 100);
    } finally {
      await host.close();
    }
  });

  test("modern: the naive push is refused at once with the SDK's explanation", async () => {
    const host = await connectHost(url, { era: 'modern' });
    try {
      const result = await host.client.callTool({ name: 'probe_sampling_naive', arguments: {} });
      assert.equal(result.isError, true);
      assert.match(textOf(result), new RegExp(MODERN_PUSH_REFUSAL));
      assert.equal(host.sampling.length, 0);
    } finally {
      await host.close();
    }
  });

  test('legacy: both tools are refused quickly with the SDK explanation; the host is never asked', async () => {
    const host = await connectHost(url, { era: 'legacy' });
    try {
      for (const name of ['probe_sampling', 'probe_sampling_naive']) {
        const started = Date.now();
        const result = await host.client.callTool({ name, arguments: {} });
        assert.ok(Date.now() - started < 3000, `${name} took ${Date.now() - started} ms`);
        assert.equal(result.isError, true);
        assert.match(textOf(result), new RegExp(LEGACY_REFUSAL));
      }
      assert.equal(host.sampling.length, 0);
    } finally {
      await host.close();
    }
  });
});

describe('The Probe with curl-shaped requests', () => {
  test('legacy: initialize mints no session, and the naive call answers in-band with the refusal', async () => {
    const init = await legacyRpc(url, 'initialize', initializeParams());
    assert.equal(init.status, 200);
    assert.equal(init.headers.get('mcp-session-id'), null, 'stateless legacy serving keeps no session');
    assert.equal(init.body?.result?.protocolVersion, '2025-11-25');
    const call = await legacyRpc(url, 'tools/call', { name: 'probe_sampling_naive', arguments: {} });
    assert.equal(call.status, 200);
    assert.equal(call.body?.result?.isError, true);
    assert.match(call.body?.result?.content?.[0]?.text, new RegExp(LEGACY_REFUSAL));
  });

  test('legacy: GET (the 2025 push stream) is 405 on per-request serving', async () => {
    const res = await fetch(url, { headers: { accept: 'text/event-stream' } });
    assert.equal(res.status, 405);
  });

  test('modern: round 1 is input_required, round 2 with the bare sampling result completes', async () => {
    const round1 = await modernRpc(url, 'tools/call', { name: 'probe_sampling', arguments: { topic: 'tea' } });
    assert.equal(round1.body?.result?.resultType, 'input_required');
    assert.equal(round1.body?.result?.inputRequests?.think?.method, 'sampling/createMessage');
    const round2 = await modernRpc(url, 'tools/call', {
      name: 'probe_sampling',
      arguments: { topic: 'tea' },
      inputResponses: { think: { role: 'assistant', content: { type: 'text', text: 'tea is steeped' }, model: 'curl' } },
    });
    assert.equal(round2.body?.result?.resultType, 'complete');
    assert.equal(round2.body?.result?.content?.[0]?.text, 'model said: tea is steeped');
  });

  test('modern: without the sampling capability the request is refused with -32021 on HTTP 400', async () => {
    const answer = await modernRpc(
      url,
      'tools/call',
      { name: 'probe_sampling', arguments: {} },
      { meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
    );
    assert.equal(answer.status, 400);
    assert.equal(answer.body?.error?.code, -32021);
    assert.deepEqual(answer.body?.error?.data?.requiredCapabilities, { sampling: {} });
  });
});

describe('The Probe mounted sessionful for 2025 clients', () => {
  test('the naive push really reaches the host over a session (and still fails fast in the modern era)', async () => {
    const sessionful = await startServer({ port: 0, toolboxes: ['probe'], legacy: { probe: 'sessionful' } });
    try {
      const legacyHost = await connectHost(sessionful.urls.probe, { era: 'legacy', think: () => 'pushed and answered' });
      try {
        const naive = await legacyHost.client.callTool({ name: 'probe_sampling_naive', arguments: {} });
        assert.equal(textOf(naive), 'model said: pushed and answered');
        const shimmed = await legacyHost.client.callTool({ name: 'probe_sampling', arguments: {} });
        assert.equal(textOf(shimmed), 'model said: pushed and answered');
        assert.equal(legacyHost.sampling.length, 2);
      } finally {
        await legacyHost.close();
      }
      const modernHost = await connectHost(sessionful.urls.probe, { era: 'modern' });
      try {
        const naive = await modernHost.client.callTool({ name: 'probe_sampling_naive', arguments: {} });
        assert.match(textOf(naive), new RegExp(MODERN_PUSH_REFUSAL));
      } finally {
        await modernHost.close();
      }
    } finally {
      await sessionful.close();
    }
  });
});
