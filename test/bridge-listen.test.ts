// `subscriptions/listen` from a 2026 host through `byhand bridge` on stdio, raw lines on the real CLI: in front of the
// Everything toolbox spoken to in the legacy era (its list changes come on its 2025 session) and in the modern era
// (the server holds the stream), the host's stream is acknowledged and a tool list change reaches it, stamped with
// the host's own subscription id.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { until } from './support/cli.js';
import { rawBridge } from './support/raw-bridge.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { fixtureScript } from './support/fixture-bundle.js';

const MODERN = '2026-07-28';
const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

describe('byhand bridge: subscriptions/listen from a 2026 host', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ port: 0, toolboxes: ['everything'] });
  });
  after(() => server.close());

  for (const era of ['legacy', 'modern'] as const) {
    test(`in front of a server spoken to in the ${era} era: acknowledged, and a tool list change arrives stamped`, { timeout: 15_000 }, async () => {
      const { lines: seen, send, stop } = rawBridge([server.urls.everything, '--era', era]);
      try {
        send({ id: 1, method: 'server/discover', params: { _meta: meta } });
        await until(() => seen().some((m) => m.id === 1), 'server/discover answered', 10_000);
        send({ id: 'sub', method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } });
        await until(() => seen().some((m) => m.method === 'notifications/subscriptions/acknowledged'), 'the acknowledgement', 10_000);
        const ack = seen().find((m) => m.method === 'notifications/subscriptions/acknowledged')!;
        assert.deepEqual(ack.params?.notifications, { toolsListChanged: true });
        assert.equal(ack.params?._meta?.[SUBSCRIPTION_ID], 'sub');

        send({ id: 2, method: 'tools/call', params: { _meta: meta, name: 'test_trigger_tool_change', arguments: {} } });
        await until(() => seen().some((m) => m.method === 'notifications/tools/list_changed'), 'the tool list change', 10_000);
        const changed = seen().find((m) => m.method === 'notifications/tools/list_changed')!;
        assert.equal(changed.params?._meta?.[SUBSCRIPTION_ID], 'sub');
        assert.ok(!seen().some((m) => m.id === 'sub'), 'the stream stays open');
      } finally {
        await stop();
      }
    });
  }
});

test('in front of a 2025 stdio server that announces between calls: its list changes reach the 2026 host\'s stream, stamped', { timeout: 15_000 }, async () => {
  const { lines: seen, send, stop } = rawBridge(['--', process.execPath, fixtureScript('test/fixtures/legacy-stdio-between.ts'), 'announce']);
  try {
    send({ id: 'sub', method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } });
    // No call runs: the server's announcements come between calls, on its session.
    await until(() => seen().some((m) => m.method === 'notifications/tools/list_changed'), 'a tool list change', 10_000);
    const changed = seen().find((m) => m.method === 'notifications/tools/list_changed')!;
    assert.equal(changed.params?._meta?.[SUBSCRIPTION_ID], 'sub');
  } finally {
    await stop();
  }
});
