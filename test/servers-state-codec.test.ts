// The requestState codec on its own: a round trip, and a refusal for every way a state can be wrong. The edge's own
// requestState tests (servers-edge.test.ts) check the same refusals end to end on the wire.

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from './support/node-test.js';
import { createStateCodec, hmacWith } from '../packages/servers/src/edge/state-codec.js';

const KEY = new Uint8Array(32).fill(7);
const OTHER_KEY = new Uint8Array(32).fill(8);

describe('requestState codec', () => {
  test('a state verifies under its key, for its binding, before it expires', { timeout: 5_000 }, async () => {
    const codec = createStateCodec(KEY, 60);
    const state = await codec.mint({ asked: 3, note: 'é' }, 'jar\0tools/call\0forget_note\0{"id":3}');
    assert.match(state, /^bh1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(await codec.verify(state, 'jar\0tools/call\0forget_note\0{"id":3}'), { asked: 3, note: 'é' });
  });

  test('another binding, another key, a changed body or MAC, an expired or malformed state: all refused', { timeout: 5_000 }, async () => {
    let clock = 1_000_000_000_000;
    const codec = createStateCodec(KEY, 60, () => clock);
    const binding = 'jar\0tools/call\0forget_note\0{"id":3}';
    const state = await codec.mint({ asked: 3 }, binding);
    await assert.rejects(codec.verify(state, 'jar\0tools/call\0forget_note\0{"id":4}'), /mac/);
    await assert.rejects(codec.verify(state, 'kitchen\0tools/call\0forget_note\0{"id":3}'), /mac/);
    await assert.rejects(createStateCodec(OTHER_KEY, 60, () => clock).verify(state, binding), /mac/);
    const [head, body, mac] = state.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), p: { asked: 4 } })).toString('base64url');
    await assert.rejects(codec.verify([head, forged, mac].join('.'), binding), /mac/);
    await assert.rejects(codec.verify(`${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`, binding), /mac/);
    for (const bad of ['', 'bh1.', 'bh1..', 'v1.abc.def', 'not-a-state', `${head}.${body}`]) await assert.rejects(codec.verify(bad, binding), /malformed|mac/, JSON.stringify(bad));
    clock += 61_000;
    await assert.rejects(codec.verify(state, binding), /expired/);
  });

  test('keys under 32 bytes are refused', { timeout: 5_000 }, () => {
    assert.throws(() => createStateCodec(new Uint8Array(31), 60), RangeError);
  });

  test('node:crypto and Web Crypto give the same MAC', { timeout: 5_000 }, async () => {
    const data = 'bh1.eyJwIjoxfQ\0kitchen\0tools/call';
    const expected = createHmac('sha256', KEY).update(data).digest();
    assert.deepEqual(Buffer.from(await hmacWith(KEY)(data)), expected);
    assert.deepEqual(Buffer.from(await hmacWith(KEY, null)(data)), expected);
  });
});
