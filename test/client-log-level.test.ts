// The client's setLogLevel: the server's log messages come at the level asked for from the next request on, in both
// eras. A 2026 server sends them only to a request whose envelope asks (SEP-2575); a 2025 session is told with
// logging/setLevel.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { connect, type JsonRpcNotification } from '../packages/client/src/index.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';

describe('setLogLevel', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ port: 0, toolboxes: ['everything'] });
  });
  after(() => server.close());

  for (const era of ['modern', 'legacy'] as const) {
    test(`${era}: the level asked for is the one the server's log messages come at, from the next request on`, { timeout: 15_000 }, async (t) => {
      const logged: unknown[] = [];
      const onNotification = (n: JsonRpcNotification) => void (n.method === 'notifications/message' && logged.push(n.params?.data));
      const client = await connect(server.urls.everything, { era, onNotification });
      t.after(() => client.close());
      assert.equal(client.era, era);
      await client.callTool('test_tool_with_logging', {});
      // Unasked, a 2026 server sends none; a 2025 session's level is the server's until it is told one.
      assert.equal(logged.length, era === 'modern' ? 0 : 3);
      const before = logged.length;
      await client.setLogLevel('error');
      await client.callTool('test_tool_with_logging', {});
      assert.equal(logged.length, before, 'info messages under an error level');
      await client.setLogLevel('info');
      await client.callTool('test_tool_with_logging', {});
      assert.deepEqual(logged.slice(before), ['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    });
  }
});
