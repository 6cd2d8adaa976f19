// The toolboxes as a Worker on workerd: the example of docs/deploying.md, bundled for a browser-like platform, driven
// by byhand's client and the official SDK client over loopback, in both eras.

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { connect } from '../packages/client/src/index.js';
import { connectHost, modernRpc, textOf } from './servers-support.js';
import { bundleWorker, startWorker, type RunningWorker } from './support/worker.js';

const SECRET = 'worker-test-secret-of-more-than-32-bytes';
let worker: RunningWorker;
let kitchen: string;
let probe: string;

before(async () => {
  worker = await startWorker(await bundleWorker(), { BYHAND_STATE_SECRET: SECRET, PUBLIC_HOST: 'kitchen.example.com' });
  kitchen = new URL('/api/kitchen', worker.url).href;
  probe = new URL('/api/probe', worker.url).href;
}, { timeout: 60_000 });
after(() => worker?.dispose(), { timeout: 30_000 });

/** node:http, because fetch may not set Host. */
function rawPost(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }));
  });
}

describe('The Kitchen and the Probe on workerd', { timeout: 60_000 }, () => {
  test("byhand's client: every MRTR flow of the Kitchen (sampling; elicitation then sampling, carried in requestState)", async (t) => {
    const cleanup = cleanupAfter(t);
    const asked: string[] = [];
    const client = cleanup(await connect(kitchen, {
      host: {
        sample: async (params) => {
          const prompt = JSON.stringify(params.messages);
          asked.push('sample');
          return { role: 'assistant', content: { type: 'text', text: prompt.includes('4 people') ? 'soup for four' : 'a quiet week' }, model: 'test-model' };
        },
        elicit: async () => (asked.push('elicit'), { action: 'accept', content: { people: 4, avoid: 'nothing' } }),
      },
    }));
    assert.equal(client.era, 'modern');
    assert.equal(client.serverInfo?.title, 'The Kitchen');
    assert.equal(textOf(await client.callTool('summarise_week', { depth: 'brief' })), 'a quiet week');
    const dinner = await client.callTool('suggest_dinner', {});
    assert.equal(textOf(dinner), 'soup for four');
    assert.deepEqual(asked, ['sample', 'elicit', 'sample']);
  });

  test('the official SDK client, modern era: the same flows, and the Probe', async () => {
    const host = await connectHost(kitchen, {
      era: 'modern',
      elicit: () => ({ action: 'accept', content: { people: 2, avoid: 'fish' } }),
      think: (p) => (p.includes('2 people') ? 'omelette for two' : 'a quiet week'),
    });
    try {
      assert.equal(host.client.getProtocolEra(), 'modern');
      assert.equal(textOf(await host.client.callTool({ name: 'suggest_dinner', arguments: {} })), 'omelette for two');
    } finally {
      await host.close();
    }
    const probeHost = await connectHost(probe, { era: 'modern', think: () => 'soup is warm' });
    try {
      assert.match(textOf(await probeHost.client.callTool({ name: 'probe_sampling', arguments: {} })), /soup is warm/);
    } finally {
      await probeHost.close();
    }
  });

  test('the official SDK client, 2025 era: served per request (no session on a Worker)', async () => {
    const host = await connectHost(kitchen, { era: 'legacy' });
    try {
      assert.equal(host.client.getProtocolEra(), 'legacy');
      assert.deepEqual((await host.client.listTools()).tools.map((t) => t.name).sort(), ['suggest_dinner', 'summarise_week']);
      const pantry = await host.client.readResource({ uri: (await host.client.listResources()).resources[0].uri });
      assert.ok(pantry.contents.length > 0);
    } finally {
      await host.close();
    }
  });

  test('the official SDK client, 2025 era: what docs/deploying.md says a 2025 client can do on a Worker', async () => {
    const host = await connectHost(kitchen, { era: 'legacy', think: () => 'never asked', elicit: () => ({ action: 'decline' }) });
    try {
      const prompt = await host.client.getPrompt({ name: 'plan_meals', arguments: { days: '3' } });
      assert.ok(prompt.messages.length > 0, 'a prompt is got');
      for (const name of ['summarise_week', 'suggest_dinner']) {
        const result = await host.client.callTool({ name, arguments: {} });
        assert.equal(result.isError, true, `${name}: ${JSON.stringify(result)}`);
        assert.match(textOf(result), /per-request legacy serving cannot receive server-to-client requests/, name);
      }
    } finally {
      await host.close();
    }
  });

  test('requestState is verified across requests: the genuine state completes, a forged or re-targeted one does not', async () => {
    const diners = { diners: { action: 'accept', content: { people: 3, avoid: '' } } };
    const second = await modernRpc(kitchen, 'tools/call', { name: 'suggest_dinner', arguments: {}, inputResponses: diners });
    const state = second.body?.result?.requestState as string;
    assert.equal(typeof state, 'string', JSON.stringify(second.body));
    const idea = { idea: { role: 'assistant', content: { type: 'text', text: 'stew for three' }, model: 'm' } };
    const genuine = await modernRpc(kitchen, 'tools/call', { name: 'suggest_dinner', arguments: {}, inputResponses: idea, requestState: state });
    assert.equal(textOf(genuine.body?.result ?? {}), 'stew for three');
    const forged = `${state.slice(0, -6)}AAAAAA`;
    for (const [name, requestState] of [['suggest_dinner', forged], ['summarise_week', state]] as const) {
      const refused = await modernRpc(kitchen, 'tools/call', { name, arguments: {}, inputResponses: idea, requestState });
      assert.doesNotMatch(JSON.stringify(refused.body), /stew for three/, `${name} must not accept that state`);
    }
  });

  test('Host and Origin: the configured public host is accepted, others get 403', async () => {
    const url = new URL(kitchen);
    assert.equal(await rawPost(kitchen, { host: 'kitchen.example.com', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }), 200);
    assert.equal(await rawPost(kitchen, { host: 'evil.example', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }), 403);
    assert.equal(await rawPost(kitchen, { host: url.host, origin: 'https://evil.example', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }), 403);
  });
});
