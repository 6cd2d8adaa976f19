// The checkpoint reads the credentials store once per run, hands out copies, and reads again after its own write.

import assert from 'node:assert/strict';
import { describe, test } from './support/node-test.js';
import { memoryStore, type CredentialStore } from '../packages/client/src/auth/index.ts';
import { readOncePerRun } from '../packages/byhand/src/checkpoint/credentials.ts';

function counted(store: CredentialStore): CredentialStore & { reads: number } {
  const wrapped = {
    reads: 0,
    where: store.where,
    read: () => {
      wrapped.reads++;
      return store.read();
    },
    update: (change: Parameters<CredentialStore['update']>[0]) => store.update(change),
  };
  return wrapped;
}

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
});
