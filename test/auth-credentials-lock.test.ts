// The credentials file under concurrent writers: two real processes each make 100 updates at once through the
// file store, and none is lost; a lock left by a holder that died, or one too old, is recovered from.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { after, describe, test } from './support/node-test.js';
import { fileStore } from '../packages/client/src/auth/file-store.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-lock-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const built = pathToFileURL(fileURLToPath(new URL('../packages/client/dist/auth/file-store.js', import.meta.url))).href;

// Adds N clients named WHO-0 … WHO-(N-1), one update each, as fast as it can.
const writer = join(scratch, 'writer.mjs');
writeFileSync(writer, `
const { fileStore } = await import(${JSON.stringify(built)});
const [file, who, n] = [process.argv[2], process.argv[3], Number(process.argv[4])];
const store = fileStore(file);
for (let i = 0; i < n; i++) await store.update((doc) => void (doc.clients[who + '-' + i] = { client_id: who + '-' + i, via: 'pre-registered' }));
`);

function run(file: string, who: string, n: number): Promise<number | null> {
  const child = spawn(process.execPath, [writer, file, who, String(n)], { stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

const clients = (file: string) => Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { clients: object }).clients);

describe('the credentials file under concurrent writers', { timeout: 60_000 }, () => {
  test('two processes × 100 updates at once: all 200 are kept', async () => {
    const file = join(scratch, 'two', 'credentials.json');
    const codes = await Promise.all([run(file, 'a', 100), run(file, 'b', 100)]);
    assert.deepEqual(codes, [0, 0]);
    const kept = clients(file);
    assert.equal(kept.length, 200, `lost ${200 - kept.length} of 200 updates`);
    assert.equal(existsSync(`${file}.lock`), false, 'the lock is released');
  });

  test("a lock left by a process that died, or one past its age, is taken over", async () => {
    const file = join(scratch, 'stale', 'credentials.json');
    const store = fileStore(file);
    await store.update((doc) => void (doc.clients.first = { client_id: 'first', via: 'pre-registered' }));
    // The pid of a process that has exited.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(`${file}.lock`, `${dead}\n`);
    await store.update((doc) => void (doc.clients.second = { client_id: 'second', via: 'pre-registered' }));
    // A live pid (ours) whose lock is older than any update holds one.
    writeFileSync(`${file}.lock`, `${process.pid}\n`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    await store.update((doc) => void (doc.clients.third = { client_id: 'third', via: 'pre-registered' }));
    assert.deepEqual(clients(file).sort(), ['first', 'second', 'third']);
    assert.equal(existsSync(`${file}.lock`), false);
  });
});

describe('reading the credentials file', () => {
  test('read once while it is unchanged; a write by this process or another, or an edit, is seen at once', { timeout: 10_000 }, async () => {
    const file = join(scratch, 'cached', 'credentials.json');
    const store = fileStore(file);
    await store.update((doc) => void (doc.clients.first = { client_id: 'first', via: 'pre-registered' }));
    const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
    const original = fs.readFileSync;
    let reads = 0;
    fs.readFileSync = ((...args: Parameters<typeof original>) => (String(args[0]) === file && reads++, original(...args))) as typeof original;
    syncBuiltinESMExports();
    try {
      for (let i = 0; i < 5; i++) assert.deepEqual(Object.keys((await store.read()).clients), ['first']);
      assert.equal(reads, 1, 'five reads of an unchanged file read it once');
      await store.update((doc) => void (doc.clients.second = { client_id: 'second', via: 'pre-registered' }));
      assert.deepEqual(Object.keys((await store.read()).clients).sort(), ['first', 'second'], "this process's write");
      // Another writer renames a new file in place, as the store does.
      const other = JSON.parse(original(file, 'utf8')) as { clients: Record<string, unknown> };
      other.clients.third = { client_id: 'third', via: 'pre-registered' };
      writeFileSync(`${file}.new`, JSON.stringify(other));
      renameSync(`${file}.new`, file);
      assert.deepEqual(Object.keys((await store.read()).clients).sort(), ['first', 'second', 'third'], "another process's write");
    } finally {
      fs.readFileSync = original;
      syncBuiltinESMExports();
    }
  });
});
