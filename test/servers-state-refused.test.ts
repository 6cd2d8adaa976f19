// Two `byhand serve` instances on one --db behind a round-robin, as a deployment without BYHAND_STATE_SECRET runs
// them: each warns at start that it signs requestState with a key of its own; a call whose round 2 reaches the other
// instance is refused, the client's error says why and what to do (not "check that the tool exists"), and the instance
// that refused it logs the reason.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from './support/node-test.js';
import { connect, RpcError } from '../packages/client/src/index.js';
import { roundRobin, startServe, type RoundRobin, type ServeProcess } from './support/instances.js';
import { until } from './support/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-state-refused-'));
const instances: ServeProcess[] = [];
let proxy: RoundRobin;

before(async () => {
  const db = join(scratch, 'jar.db');
  // One at a time: both create the jar's tables in the one file.
  for (let i = 0; i < 2; i++) instances.push(await startServe(['--db', db], { BYHAND_STATE_SECRET: '' }));
  proxy = await roundRobin(instances.map((i) => i.url));
}, { timeout: 60_000 });
after(async () => {
  await proxy?.close();
  await Promise.all(instances.map((i) => i.stop()));
  rmSync(scratch, { recursive: true, force: true });
}, { timeout: 30_000 });

test('each instance warns at start that, without one secret, a round that reaches another is refused', { timeout: 30_000 }, async () => {
  const warning = /^byhand serve: ⚠ BYHAND_STATE_SECRET is not set, so this instance signs requestState with a key of its own: .* Give every instance the same BYHAND_STATE_SECRET/m;
  for (const instance of instances) await until(() => warning.test(instance.stderr()), 'the warning', 10_000);
});

test('round 2 on the other instance: the client is told why and what to do, the instance that refused logs why', { timeout: 60_000 }, async () => {
  const client = await connect(`${proxy.url}/api/kitchen`, {
    host: {
      sample: async () => ({ role: 'assistant', content: { type: 'text', text: 'soup' }, model: 'm' }),
      elicit: async () => ({ action: 'accept', content: { people: 2, avoid: '' } }),
    },
  });
  try {
    await assert.rejects(client.callTool('suggest_dinner', {}), (error: unknown) => {
      assert.ok(error instanceof RpcError, String(error));
      assert.equal(error.code, -32602);
      assert.match(error.hint, /refused the requestState of an earlier round: it expired, or another instance signed it with a key this one lacks \(instances behind one URL must share it\)/);
      assert.doesNotMatch(error.hint, /check that/);
      return true;
    });
  } finally {
    await client.close();
  }
  const logged = /^byhand serve: refused the requestState of a tools\/call on kitchen: it was not signed with this instance's key \(or was altered\): every instance behind one URL needs the same BYHAND_STATE_SECRET/m;
  await until(() => instances.some((i) => logged.test(i.stderr())), 'the refusal in a log', 10_000);
});
