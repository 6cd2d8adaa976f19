// The stored login of a long-running command (a bridge, a watch): a server with no login kept costs no read of the
// store per request, a login made meanwhile is used once the recheck comes round (or at once after a challenge), and
// a server with a login kept has the store read on every request, so a token refreshed elsewhere is seen at once.

import assert from 'node:assert/strict';
import { describe, test } from './support/node-test.js';
import { counted } from './support/counted-store.js';
import { memoryStore, serverKey, type CredentialStore } from '../packages/client/src/auth/index.ts';
import { RECHECK_MS, storedLogin } from '../packages/byhand/src/shared/stored-login.ts';

const URL = 'https://mcp.example/api';
const signal = new AbortController().signal;

/** What `byhand login` keeps for URL: one bearer token, with no expiry. */
function login(store: CredentialStore, token: string): Promise<void> {
  return store.update((doc) => {
    doc.servers[serverKey(URL)] = { issuer: 'https://auth.example', resource: URL, tokens: { 'https://auth.example': { access_token: token, token_type: 'Bearer', resource: URL } } };
  });
}

describe('a stored login in a long-running command', () => {
  test('no login kept: one read per recheck, however many requests; a login made meanwhile is used after it', { timeout: 5_000 }, async () => {
    let now = 0;
    const store = counted(memoryStore());
    const auth = storedLogin({}, URL, store, () => now);
    for (let i = 0; i < 50; i++) assert.deepEqual(await auth.headers(URL, signal), {});
    assert.equal(store.reads, 1);

    await login(store, 'made-meanwhile');
    now += RECHECK_MS - 1;
    assert.deepEqual(await auth.headers(URL, signal), {}, 'not yet rechecked');
    now += 1;
    assert.deepEqual(await auth.headers(URL, signal), { Authorization: 'Bearer made-meanwhile' });
  });

  test('a challenge rechecks at once', { timeout: 5_000 }, async () => {
    const store = counted(memoryStore());
    const auth = storedLogin({}, URL, store, () => 0);
    assert.deepEqual(await auth.headers(URL, signal), {});
    await login(store, 'after-the-challenge');
    // The provider answers the challenge from the store: there is a token now, so the request may go again.
    assert.equal(await auth.challenged({ status: 401, headers: new Headers({ 'www-authenticate': 'Bearer' }), url: URL }, signal), true);
    assert.deepEqual(await auth.headers(URL, signal), { Authorization: 'Bearer after-the-challenge' });
  });

  test('a login kept: the store is read on every request, so a token changed elsewhere is sent at once', { timeout: 5_000 }, async () => {
    const store = counted(memoryStore());
    await login(store, 'first');
    const auth = storedLogin({}, URL, store, () => 0);
    assert.deepEqual(await auth.headers(URL, signal), { Authorization: 'Bearer first' });
    const before = store.reads;
    await login(store, 'refreshed-elsewhere');
    assert.deepEqual(await auth.headers(URL, signal), { Authorization: 'Bearer refreshed-elsewhere' });
    assert.ok(store.reads > before);
  });

  test('another server has a login: this one still sends none', { timeout: 5_000 }, async () => {
    const store = memoryStore();
    await login(store, 'for-the-api');
    const auth = storedLogin({}, URL, store, () => 0);
    assert.deepEqual(await auth.headers('https://mcp.example/other', signal), {});
    assert.deepEqual(await auth.headers(URL, signal), { Authorization: 'Bearer for-the-api' });
  });
});
