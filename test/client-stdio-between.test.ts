// A 2025 stdio server speaks between requests (the SDK's McpServer on a StdioServerTransport, as such servers are
// written): its notifications reach the client's onNotification and its own requests (roots/list) are answered by
// the host with no request in flight. stdio used to hand notifications only to requests in flight, and to refuse
// a request that none could own.

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { until } from './support/cli.js';
import { fixtureScript } from './support/fixture-bundle.js';
import { connect, type JsonRpcNotification } from '../packages/client/src/index.js';

test('between requests on stdio: a list change reaches onNotification, and the server\'s roots/list is answered by the host', { timeout: 30_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  const seen: JsonRpcNotification[] = [];
  const client = cleanup(await connect(
    { command: process.execPath, args: [fixtureScript('test/fixtures/legacy-stdio-between.ts'), 'ask'] },
    { host: { roots: async () => ({ roots: [{ uri: 'file:///work/here', name: 'here' }] }) }, onNotification: (notification) => void seen.push(notification) },
  ));
  assert.equal(client.era, 'legacy');
  await until(() => seen.some((n) => n.method === 'notifications/message') && seen.some((n) => n.method === 'notifications/tools/list_changed'), 'the server\'s log of the roots and a list change', 10_000);
  const logged = seen.find((n) => n.method === 'notifications/message');
  assert.deepEqual(logged?.params?.data, { roots: ['file:///work/here'] });
});
