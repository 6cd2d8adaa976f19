// The 2026 face's subscriptions in front of legacy backs (bridge/listen-face.ts), on real byhand clients of two 2025
// loopback servers: each back is a session of its own, so a resource is subscribed on each back a host stream asks it
// of, a notification reaches only the streams of the back it came from, and each back is unsubscribed when its own
// last stream ends. The count used to be shared: a second back was never subscribed, and heard the first one's.

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { until } from './support/cli.js';
import { json, legacySession, listen, type Loopback } from './fixtures/loopback.js';
import { connect, type Client, type JsonRpcNotification } from '../packages/client/src/index.js';
import { ListenFace } from '../packages/switchboard/src/listen-face.js';

const URI = 'file:///watched.txt';

test('resource subscriptions are per back: each is subscribed on its own server, hears its own, and is unsubscribed after its own last stream', { timeout: 20_000 }, async () => {
  const servers: Loopback[] = [];
  const clients: Client[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      servers.push(await listen(legacySession({ capabilities: { resources: { subscribe: true } }, request: (request, res) => json(res, { jsonrpc: '2.0', id: request.json?.id, result: {} }) })));
      clients.push(await connect(servers[i].url, { era: 'legacy' }));
    }
    const asked = (i: number, method: string) => servers[i].requests.filter((r) => r.json?.method === method && (r.json.params as { uri?: string } | undefined)?.uri === URI).length;
    const face = new ListenFace();
    const heard: JsonRpcNotification[][] = [[], []];
    const stops = [new AbortController(), new AbortController()];
    const listens = clients.map((client, i) =>
      face.listen({ client, scope: `back ${i}`, group: 'one group', quiet: new AbortController().signal }, `sub ${i}`, { notifications: { resourceSubscriptions: [URI] } }, stops[i].signal, (n) => void heard[i].push(n)),
    );
    // Each listen has subscribed once it acknowledged and sent its resources/subscribe.
    await until(() => asked(0, 'resources/subscribe') + asked(1, 'resources/subscribe') >= 2, 'both subscriptions', 10_000);
    assert.deepEqual([asked(0, 'resources/subscribe'), asked(1, 'resources/subscribe')], [1, 1]);

    face.relay({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: URI } }, { scope: 'back 0', group: 'one group' });
    assert.deepEqual(heard.map((h) => h.map((n) => n.method)), [['notifications/subscriptions/acknowledged', 'notifications/resources/updated'], ['notifications/subscriptions/acknowledged']]);
    assert.equal((heard[0][1]?.params?._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/subscriptionId'], 'sub 0');

    stops[0].abort();
    await listens[0];
    assert.deepEqual([asked(0, 'resources/unsubscribe'), asked(1, 'resources/unsubscribe')], [1, 0]);
    stops[1].abort();
    await listens[1];
    assert.deepEqual([asked(0, 'resources/unsubscribe'), asked(1, 'resources/unsubscribe')], [1, 1]);
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(servers.map((server) => server.close()));
  }
});
