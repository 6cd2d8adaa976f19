// The stored login of a long-running command (a bridge, a watch): a server with no login kept costs no read of the
// store per request, and no work on the request's way out (no promise to wait for, no AbortSignal); a login made
// meanwhile is used once the recheck comes round (or at once after a challenge), and a server with a login kept has
// the store read on every request, so a token refreshed elsewhere is seen at once.

import assert from 'node:assert/strict';
import { describe, test } from './support/node-test.js';
import { counted } from './support/counted-store.js';
import { memoryStore, serverKey, type CredentialStore } from '../packages/client/src/auth/index.ts';
import type { AuthRequest } from '../packages/client/src/index.ts';
import { Deadline } from '../packages/client/src/deadline.ts';
import { DEFAULT_LIMITS } from '../packages/client/src/limits.ts';
import { HttpTransport } from '../packages/client/src/transport/http/http.ts';
import type { Requester, WireRequest } from '../packages/client/src/transport/http/wire.ts';
import { RECHECK_MS, storedLogin } from '../packages/byhand/src/shared/stored-login.ts';

const URL = 'https://mcp.example/api';
const signal = new AbortController().signal;
const request = (url = URL): AuthRequest => ({ url, method: 'POST', signal });

/** What `byhand login` keeps for URL: one bearer token, with no expiry. */
function login(store: CredentialStore, token: string): Promise<void> {
  return store.update((doc) => {
    doc.servers[serverKey(URL)] = { issuer: 'https://auth.example', resource: URL, tokens: { 'https://auth.example': { access_token: token, token_type: 'Bearer', resource: URL } } };
  });
}

/** A deadline that counts how often its AbortSignal is asked for (the first ask makes one). */
class WatchedDeadline extends Deadline {
  signalReads = 0;
  override get signal(): AbortSignal {
    this.signalReads++;
    return super.signal;
  }
}

/** A requester that answers every POST with an empty JSON-RPC result at once, and records what it was asked. */
function answering(): Requester & { sent: WireRequest[] } {
  const sent: WireRequest[] = [];
  const requester = (wire: WireRequest) => {
    sent.push(wire);
    const { id } = JSON.parse(wire.body!) as { id: number };
    const body = new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id, result: {} }));
    let read = false;
    return Promise.resolve({
      status: 200,
      header: (name: string) => (name === 'content-type' ? 'application/json' : null),
      headers: () => new Headers({ 'content-type': 'application/json' }),
      body: { read: async () => (read ? undefined : ((read = true), body)), cancel: async () => undefined },
    });
  };
  return Object.assign(requester, { sent });
}

describe('a stored login in a long-running command', () => {
  test('no login kept: one read per recheck, however many requests; a login made meanwhile is used after it', { timeout: 5_000 }, async () => {
    let now = 0;
    const store = counted(memoryStore());
    const auth = storedLogin({}, URL, store, () => now);
    for (let i = 0; i < 50; i++) assert.equal(await auth.headers(request()), undefined);
    assert.equal(store.reads, 1);

    await login(store, 'made-meanwhile');
    now += RECHECK_MS - 1;
    assert.equal(await auth.headers(request()), undefined, 'not yet rechecked');
    now += 1;
    assert.deepEqual(await auth.headers(request()), { Authorization: 'Bearer made-meanwhile' });
  });

  test('no login kept: once the store has answered, a request is sent in the turn it is made, and its deadline makes no AbortSignal', { timeout: 5_000 }, async () => {
    const auth = storedLogin({}, URL, memoryStore(), () => 0);
    const requester = answering();
    const transport = new HttpTransport({ url: URL, requester, limits: DEFAULT_LIMITS, auth });
    const send = async (id: number) => {
      const deadline = new WatchedDeadline('tools/list', 5_000);
      try {
        const reply = transport.request({ jsonrpc: '2.0', id, method: 'tools/list' }, { deadline, headers: {} });
        const sentAtOnce = requester.sent.length === id;
        await reply;
        return { sentAtOnce, signalReads: deadline.signalReads };
      } finally {
        deadline.dispose();
      }
    };
    try {
      await send(1); // the first reads the store
      assert.deepEqual(await send(2), { sentAtOnce: true, signalReads: 0 });
      assert.equal(requester.sent[1].headers.authorization, undefined);
      assert.equal(requester.sent[1].headers.Authorization, undefined);
    } finally {
      await transport.close();
    }
  });

  test('a challenge rechecks at once', { timeout: 5_000 }, async () => {
    const store = counted(memoryStore());
    const auth = storedLogin({}, URL, store, () => 0);
    assert.equal(await auth.headers(request()), undefined);
    await login(store, 'after-the-challenge');
    // The provider answers the challenge from the store: there is a token now, so the request may go again.
    assert.equal(await auth.challenged({ status: 401, headers: new Headers({ 'www-authenticate': 'Bearer' }), url: URL }, signal), true);
    assert.deepEqual(await auth.headers(request()), { Authorization: 'Bearer after-the-challenge' });
  });

  test('a login kept: the store is read on every request, so a token changed elsewhere is sent at once', { timeout: 5_000 }, async () => {
    const store = counted(memoryStore());
    await login(store, 'first');
    const auth = storedLogin({}, URL, store, () => 0);
    assert.deepEqual(await auth.headers(request()), { Authorization: 'Bearer first' });
    const before = store.reads;
    await login(store, 'refreshed-elsewhere');
    assert.deepEqual(await auth.headers(request()), { Authorization: 'Bearer refreshed-elsewhere' });
    assert.ok(store.reads > before);
  });

  test('another server has a login: this one still sends none', { timeout: 5_000 }, async () => {
    const store = memoryStore();
    await login(store, 'for-the-api');
    const auth = storedLogin({}, URL, store, () => 0);
    assert.equal(await auth.headers(request('https://mcp.example/other')), undefined);
    assert.deepEqual(await auth.headers(request()), { Authorization: 'Bearer for-the-api' });
  });
});
