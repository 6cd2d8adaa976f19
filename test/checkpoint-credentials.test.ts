// The checkpoint reads the credentials store once per run, hands out copies, and reads again after its own write.
// A server with no stored login is probed with no authorization, and again with one only when it challenges (a 401,
// or a 403 that names insufficient_scope).

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from './support/node-test.js';
import { counted } from './support/counted-store.js';
import { memoryStore, type CredentialStore } from '../packages/client/src/auth/index.ts';
import type { HttpAuth } from '../packages/client/src/index.ts';
import { readOncePerRun } from '../packages/byhand/src/checkpoint/credentials.ts';
import { keepsLoginFor, serversWithLogins } from '../packages/byhand/src/shared/stored-login.ts';
import { probeServer } from '../packages/byhand/src/checkpoint/probe.ts';

describe('checkpoint credentials', () => {
  test('one read for many requests, each given its own copy', { timeout: 5_000 }, async () => {
    const inner = counted(memoryStore());
    const store = readOncePerRun(inner);
    const docs = await Promise.all(Array.from({ length: 50 }, () => store.read()));
    assert.equal(inner.reads, 1);
    docs[0].servers['http://x/'] = { issuer: 'i', resource: 'r', tokens: {} };
    assert.deepEqual((await store.read()).servers, {});
    assert.equal(inner.reads, 1);
  });

  test('a write through it (a refresh) is seen by the next read', { timeout: 5_000 }, async () => {
    const inner = counted(memoryStore());
    const store = readOncePerRun(inner);
    await store.read();
    await store.update((doc) => void (doc.servers['http://x/'] = { issuer: 'i', resource: 'r', tokens: {} }));
    assert.deepEqual(Object.keys((await store.read()).servers), ['http://x/']);
    assert.equal(inner.reads, 2);
  });

  test('a read that fails fails every caller the same way, and is not hidden', { timeout: 5_000 }, async () => {
    const failing: CredentialStore = { where: 'broken', read: async () => Promise.reject(new Error('not valid JSON')), update: async () => undefined };
    const store = readOncePerRun(failing);
    await assert.rejects(store.read(), /not valid JSON/);
    await assert.rejects(store.read(), /not valid JSON/);
  });

  test('a login is kept for a server by its URL without the fragment; a store that cannot be read counts as keeping one', { timeout: 5_000 }, async () => {
    const store = memoryStore();
    await store.update((doc) => void (doc.servers['https://mcp.example/api'] = { issuer: 'i', resource: 'r', tokens: {} }));
    const kept = await serversWithLogins(store);
    assert.equal(keepsLoginFor(kept, 'https://mcp.example/api#part'), true);
    assert.equal(keepsLoginFor(kept, 'https://mcp.example/other'), false);
    const failing: CredentialStore = { where: 'broken', read: async () => Promise.reject(new Error('not valid JSON')), update: async () => undefined };
    assert.equal(keepsLoginFor(await serversWithLogins(failing), 'https://mcp.example/api'), true);
  });

  test('probed without authorization; again with it only when the server challenges (401, or 403 insufficient_scope)', { timeout: 10_000 }, async () => {
    let status = 401;
    let challenge = 'Bearer realm="test"';
    const seen: Array<string | undefined> = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      req.resume();
      res.writeHead(status, { 'www-authenticate': challenge }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const challenges: number[] = [];
      const auth: HttpAuth = { headers: async () => ({ authorization: 'Bearer stored' }), challenged: async ({ status }) => (challenges.push(status), false) };
      const entry = { name: 'guarded', target: url, connect: url };
      const challenged = await probeServer(entry, { timeoutMs: 5_000, whenChallenged: () => auth });
      assert.equal(challenged.ok, false);
      assert.deepEqual(challenges, [401], 'the second probe carried the authorization and met the challenge');
      assert.equal(seen[0], undefined, 'the first request went without authorization');
      assert.equal(seen.at(-1), 'Bearer stored');

      status = 404;
      seen.length = 0;
      challenges.length = 0;
      const missing = await probeServer(entry, { timeoutMs: 5_000, whenChallenged: () => assert.fail('a 404 is not a challenge') });
      assert.equal(missing.ok, false);
      assert.deepEqual(seen.filter((a) => a !== undefined), []);

      // A 403 is a challenge only with a Bearer error of insufficient_scope, as the client's transport reads it.
      status = 403;
      const refused = await probeServer(entry, { timeoutMs: 5_000, whenChallenged: () => assert.fail('a 403 without insufficient_scope is no challenge') });
      assert.equal(refused.ok, false);
      challenge = 'Bearer error="insufficient_scope", scope="admin"';
      seen.length = 0;
      await probeServer(entry, { timeoutMs: 5_000, whenChallenged: () => auth });
      assert.deepEqual(challenges, [403]);
      assert.equal(seen.at(-1), 'Bearer stored');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
