// BYHAND_STATE_SECRET is the requestState HMAC key itself: under 32 bytes it could be guessed offline from one
// signed state, so it is refused, by the library and by `byhand serve`, instead of being stretched.

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { createKitchen } from '../packages/servers/src/toolboxes/create.js';
import { startServer } from '../packages/servers/src/edge/serve.js';
import { stateKeyFromSecret } from '../packages/servers/src/edge/state.js';
import { startServe } from './support/instances.js';

test('a secret under 32 bytes is refused with the reason and a way to make one', { timeout: 10_000 }, async () => {
  assert.throws(() => stateKeyFromSecret('hunter2'), /7 bytes; it must be at least 32 .*openssl rand -base64 32/);
  assert.throws(() => createKitchen({ stateSecret: 'x'.repeat(31) }), /31 bytes/);
  await assert.rejects(startServer({ port: 0, stateSecret: 'short' }), /at least 32/);
  assert.equal(stateKeyFromSecret('é'.repeat(16)).byteLength, 32, 'bytes, not characters');
});

test('byhand serve refuses a short BYHAND_STATE_SECRET at start and exits non-zero', { timeout: 30_000 }, async () => {
  await assert.rejects(startServe([], { BYHAND_STATE_SECRET: 'too-short' }), /exited \(1\).*at least 32/s);
});

