// One contract, three backends: memory (the default and the Worker's), SQLite (one host), PostgreSQL (many
// instances, a real server started for this file). Same TTL expiry, cap, keyset pages and nothing-lost writes.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from './support/node-test.js';
import { memoryStore } from '../packages/servers/src/jar/memory-store.js';
import { postgresStore } from '../packages/servers/src/jar/postgres-store.js';
import { sqliteStore } from '../packages/servers/src/jar/sqlite-store.js';
import { JarFullError, type JarStorage, type StorageOptions } from '../packages/servers/src/jar/storage.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-jar-storage-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let pg: TestPostgres;
before(async () => {
  pg = await startPostgres();
}, { timeout: 60_000 });
after(async () => pg?.stop(), { timeout: 30_000 });

let databases = 0;
/** Each test gets its own database (a Postgres database, a SQLite file), so tests do not see each other's notes. */
const backends: Record<string, (options: StorageOptions) => Promise<{ open: () => JarStorage }>> = {
  memory: async (options) => {
    const shared = memoryStore(options);
    return { open: () => shared };
  },
  sqlite: async (options) => {
    const file = join(scratch, `jar-${++databases}.db`);
    return { open: () => sqliteStore(file, options) };
  },
  postgres: async (options) => {
    const name = `jar_${++databases}`;
    const { default: postgres } = await import('postgres');
    const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    return { open: () => postgresStore(pg.url.replace(/\/postgres$/, `/${name}`), options) };
  },
};

function fakeClock(start = Date.parse('2026-08-01T12:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

async function all(store: JarStorage, pageSize = 7): Promise<string[]> {
  const texts: string[] = [];
  let after = 0;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await store.page(after, pageSize);
    texts.push(...page.notes.map((n) => n.text));
    if (page.next === undefined) return texts;
    after = page.next;
  }
  throw new Error('paging did not end');
}

for (const [name, backend] of Object.entries(backends)) {
  describe(`Cookie Jar storage: ${name}`, { timeout: 60_000 }, () => {
    test('put, get, forget; expired notes are gone from get, pages and forget', async () => {
      const clock = fakeClock();
      const store = (await backend({ now: clock.now })).open();
      try {
        await store.ready();
        const short = await store.put('short-lived', 10);
        const long = await store.put('long-lived', 3600);
        assert.equal((await store.get(short.id))?.text, 'short-lived');
        assert.equal(short.expiresAt, new Date(clock.now() + 10_000).toISOString());
        clock.advance(10_000);
        assert.equal(await store.get(short.id), undefined);
        assert.equal(await store.forget(short.id), false);
        assert.deepEqual(await all(store), ['long-lived']);
        assert.equal(await store.forget(long.id), true);
        assert.equal(await store.forget(long.id), false);
        assert.deepEqual(await all(store), []);
      } finally {
        await store.close();
      }
    });

    test('pages are keyset pages, oldest first, and end', async () => {
      const store = (await backend({})).open();
      try {
        for (let i = 0; i < 23; i++) await store.put(`n${i}`, 3600);
        const first = await store.page(0, 10);
        assert.equal(first.notes.length, 10);
        assert.equal(first.next, first.notes[9].id);
        assert.deepEqual(await all(store, 10), Array.from({ length: 23 }, (_, i) => `n${i}`));
        const last = await store.page(first.notes[9].id, 100);
        assert.equal(last.notes.length, 13);
        assert.equal(last.next, undefined);
      } finally {
        await store.close();
      }
    });

    test('the cap holds under concurrent writers on separate connections, and expiry frees room', async () => {
      const clock = fakeClock();
      const made = await backend({ now: clock.now, maxNotes: 10 });
      const stores = [made.open(), made.open(), made.open()];
      try {
        const attempts = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => stores[i % 3].put(`c${i}`, 60)));
        const stored = attempts.filter((a) => a.status === 'fulfilled');
        const refused = attempts.filter((a) => a.status === 'rejected');
        assert.equal(stored.length, 10);
        assert.ok(refused.every((r) => (r).reason instanceof JarFullError));
        assert.equal((await all(stores[0])).length, 10);
        clock.advance(60_000);
        await stores[1].put('after expiry', 60);
        assert.deepEqual(await all(stores[2]), ['after expiry']);
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });

    test('every acknowledged concurrent write is there, seen through another connection', async () => {
      const made = await backend({});
      const writers = [made.open(), made.open()];
      const reader = made.open();
      try {
        const acknowledged = await Promise.all(Array.from({ length: 120 }, (_, i) => writers[i % 2].put(`w${i}`, 3600)));
        assert.equal(new Set(acknowledged.map((n) => n.id)).size, 120, 'ids are unique');
        assert.deepEqual((await all(reader, 50)).sort(), acknowledged.map((n) => n.text).sort());
      } finally {
        await Promise.all([...writers, reader].map((s) => s.close()));
      }
    });
  });
}

test('a database that cannot be reached is an error from ready(), naming it without its password', { timeout: 30_000 }, async () => {
  const store = postgresStore('postgres://byhand:hunter2@127.0.0.1:1/nothing');
  try {
    await assert.rejects(store.ready(), (error: Error) => !error.message.includes('hunter2'));
  } finally {
    await store.close();
  }
});
