// One contract, three backends: memory (the default and the Worker's), SQLite (one host), PostgreSQL (many
// instances, a real server started for this file). Same TTL expiry, cap, keyset pages and nothing-lost writes.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect as tcpConnect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { memoryStore } from '../packages/servers/src/toolboxes/cookie-jar/jar/memory-store.js';
import { postgresStore } from '../packages/servers/src/toolboxes/cookie-jar/jar/postgres-store.js';
import { sqliteStore } from '../packages/servers/src/toolboxes/cookie-jar/jar/sqlite-store.js';
import { JarFullError, type JarStorage, type StorageOptions } from '../packages/servers/src/toolboxes/cookie-jar/jar/storage.js';
import { startServe } from './support/instances.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { modernRpc } from './servers-support.js';
import { requireTestTool } from './support/test-tools.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-jar-storage-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let pg: TestPostgres;
before(async () => {
  pg = await startPostgres();
}, { timeout: 60_000 });
after(async () => pg?.stop(), { timeout: 30_000 });

let databases = 0;
/** A new, empty PostgreSQL database in the test cluster: its name. */
async function freshDatabase(): Promise<string> {
  const name = `jar_${++databases}`;
  const { default: postgres } = await import('postgres');
  const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return name;
}

/** Each test gets its own database (a Postgres database, a SQLite file), so tests do not see each other's notes. */
const backends: Record<string, (options: StorageOptions) => Promise<{ open: () => JarStorage }>> = {
  memory: async (options) => {
    const shared = memoryStore(options);
    return { open: () => shared };
  },
  sqlite: async (options) => {
    // On a Node without node:sqlite the driver is better-sqlite3, a test tool: a failed build says why here.
    if (!(await import('node:module')).isBuiltin('node:sqlite')) requireTestTool('tools/sqlite');
    const file = join(scratch, `jar-${++databases}.db`);
    return { open: () => sqliteStore(file, options) };
  },
  postgres: async (options) => {
    const name = await freshDatabase();
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

/** A loopback TCP relay to PostgreSQL: the database's address as serve knows it, which `cut()` takes down. */
async function relay(target: URL): Promise<{ port: number; cut(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = tcpConnect(Number(target.port), target.hostname);
    for (const [a, b] of [[inbound, outbound], [outbound, inbound]]) {
      sockets.add(a);
      a.on('error', () => b.destroy());
      a.once('close', () => sockets.delete(a));
      a.pipe(b);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const cut = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  return { port: (server.address() as AddressInfo).port, cut, close: cut };
}

test('a database failing under a running serve: the client gets "storage unavailable" and an id, serve\'s log the detail', { timeout: 60_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  const name = await freshDatabase();
  const database = cleanup(await relay(new URL(pg.url)));
  const serve = cleanup(await startServe(['--db', `postgres://byhand@127.0.0.1:${database.port}/${name}`], {}));
  const jar = `${serve.url}/api/cookie-jar`;
  const put = await modernRpc(jar, 'tools/call', { name: 'put_note', arguments: { text: 'while it works' } });
  assert.equal(put.body?.result?.isError, undefined, JSON.stringify(put.body));
  await database.cut();
  for (const [method, params] of [['tools/call', { name: 'put_note', arguments: { text: 'after' } }], ['resources/read', { uri: 'jar://notes' }]] as const) {
    const answer = JSON.stringify((await modernRpc(jar, method, params)).body);
    assert.doesNotMatch(answer, new RegExp(`127\\.0\\.0\\.1|${database.port}|ECONNREFUSED|byhand@|${name}`), `${method} shows nothing of the database`);
    const id = /Storage unavailable \(id ([0-9a-f]{8})\)/.exec(answer)?.[1];
    assert.ok(id !== undefined, `${method}: ${answer}`);
    for (const started = Date.now(); !serve.stderr().includes(id) && Date.now() - started < 20_000; ) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.match(serve.stderr(), new RegExp(`byhand serve: storage failure ${id}: .*127\\.0\\.0\\.1:${database.port}`), 'the log has the detail under the same id');
  }
});
