// Many instances, one URL: two `byhand serve` processes with one BYHAND_STATE_SECRET and one PostgreSQL jar behind
// a round-robin proxy, so consecutive rounds of one call land on different instances.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { connect } from '../packages/client/src/index.js';
import { startServer } from '../packages/servers/src/edge/serve.js';
import { initializeParams, legacyRpc, modernRpc, textOf } from './servers-support.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { roundRobin, startServe, type RoundRobin, type ServeProcess } from './support/instances.js';

const SECRET = 'one-secret-for-every-instance-0123456789';
let pg: TestPostgres;
let instances: ServeProcess[] = [];
let proxy: RoundRobin;

before(async () => {
  pg = await startPostgres();
  instances = await Promise.all([0, 1].map(() => startServe(['--db', pg.url], { BYHAND_STATE_SECRET: SECRET })));
  proxy = await roundRobin(instances.map((i) => i.url));
}, { timeout: 90_000 });
after(async () => {
  await proxy?.close();
  await Promise.all(instances.map((i) => i.stop()));
  await pg?.stop();
}, { timeout: 60_000 });

const at = (base: string, toolbox: string) => `${base}/api/${toolbox}`;

describe('two instances, one secret, one database, round-robin', { timeout: 60_000 }, () => {
  test('each round of a multi-round call may land on another instance, and the call completes', async (t) => {
    const cleanup = cleanupAfter(t);
    const client = cleanup(await connect(at(proxy.url, 'kitchen'), {
      host: {
        sample: async (params) => ({ role: 'assistant', content: { type: 'text', text: JSON.stringify(params.messages).includes('6 people') ? 'paella for six' : '?' }, model: 'm' }),
        elicit: async () => ({ action: 'accept', content: { people: 6, avoid: '' } }),
      },
    }));
    const before = proxy.served.length;
    assert.equal(textOf(await client.callTool('suggest_dinner', {})), 'paella for six');
    const rounds = proxy.served.slice(before);
    assert.equal(rounds.length, 3, 'three rounds: ask the diners, ask the model, answer');
    assert.deepEqual(new Set(rounds), new Set([0, 1]), 'both instances served rounds of the one call');
  });

  test('a note put through one instance is read, and forgotten after confirmation, through the other', async () => {
    const [a, b] = instances.map((i) => at(i.url, 'cookie-jar'));
    const put = await modernRpc(a, 'tools/call', { name: 'put_note', arguments: { text: 'shared across instances', ttl_seconds: 600 } });
    const id = put.body?.result?.structuredContent?.note?.id as number;
    assert.match(textOf((await modernRpc(b, 'tools/call', { name: 'list_notes', arguments: {} })).body?.result ?? {}), /shared across instances/);
    const ask = await modernRpc(a, 'tools/call', { name: 'forget_note', arguments: { id } });
    assert.equal(ask.body?.result?.resultType, 'input_required');
    const confirm = { confirm: { action: 'accept', content: { confirm: true } } };
    const done = await modernRpc(b, 'tools/call', { name: 'forget_note', arguments: { id }, inputResponses: confirm, requestState: ask.body?.result?.requestState });
    assert.match(textOf(done.body?.result ?? {}), new RegExp(`Forgot note #${id}`));
    assert.doesNotMatch(textOf((await modernRpc(a, 'tools/call', { name: 'list_notes', arguments: {} })).body?.result ?? {}), /shared across instances/);
  });

  test('a forged state and an expired state are refused by every instance', async (t) => {
    const cleanup = cleanupAfter(t);
    const jarA = at(instances[0].url, 'cookie-jar');
    const put = await modernRpc(jarA, 'tools/call', { name: 'put_note', arguments: { text: 'keep me', ttl_seconds: 600 } });
    const id = put.body?.result?.structuredContent?.note?.id as number;
    const ask = await modernRpc(jarA, 'tools/call', { name: 'forget_note', arguments: { id } });
    const genuine = ask.body?.result?.requestState as string;
    // Same secret, but it mints states that are already expired: what an instance sees once a state's TTL is over.
    const minter = cleanup(await startServer({ port: 0, toolboxes: ['cookie-jar'], stateSecret: SECRET, stateTtlSeconds: -1, dbPath: pg.url }));
    const old = await modernRpc(minter.urls['cookie-jar'], 'tools/call', { name: 'forget_note', arguments: { id } });
    const expired = old.body?.result?.requestState as string;
    const confirm = { confirm: { action: 'accept', content: { confirm: true } } };
    for (const instance of instances) {
      for (const state of [`${genuine.slice(0, -6)}AAAAAA`, expired]) {
        const answer = await modernRpc(at(instance.url, 'cookie-jar'), 'tools/call', { name: 'forget_note', arguments: { id }, inputResponses: confirm, requestState: state });
        assert.doesNotMatch(JSON.stringify(answer.body), /Forgot note/, `${instance.url} accepted a bad state`);
      }
    }
    assert.match(textOf((await modernRpc(at(instances[1].url, 'cookie-jar'), 'tools/call', { name: 'list_notes', arguments: {} })).body?.result ?? {}), /keep me/);
  });

  test('a 2025 session lives on one instance: the other says so, and names sticky routing', async () => {
    const kitchen = at(proxy.url, 'kitchen');
    const init = await legacyRpc(kitchen, 'initialize', initializeParams());
    const session = init.headers.get('mcp-session-id');
    assert.ok(session);
    const elsewhere = await legacyRpc(kitchen, 'tools/list', {}, session);
    assert.equal(elsewhere.status, 404);
    assert.match(JSON.stringify(elsewhere.body), /sticky/i);
  });
});
