// The Cookie Jar's SQLite file under a jar that mostly receives writes: its write-ahead log is checkpointed as the
// writes go, so it stays near SQLite's automatic checkpoint size (1,000 pages) instead of growing by every note
// (about 13 KB each, 130 MB at the 10,000-note cap). A statement run with .get() ends before SQLite says it is done,
// and SQLite checkpoints only on a statement that is.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from './support/node-test.js';
import { sqliteStore } from '../packages/servers/src/toolboxes/cookie-jar/jar/sqlite-store.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-jar-wal-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const NOTES = 3000;
/** SQLite checkpoints past 1,000 pages of 4 KiB; twice that leaves room for the frames of the write that crosses it. */
const WAL_BOUND = 8 * 1024 * 1024;

test(`${NOTES} notes put one after another: the write-ahead log stays under ${WAL_BOUND / 1024 / 1024} MiB`, { timeout: 120_000 }, async () => {
  const file = join(scratch, 'jar.db');
  const jar = sqliteStore(file);
  try {
    await jar.ready();
    let largest = 0;
    for (let i = 0; i < NOTES; i++) {
      await jar.put(`note ${i}: ${'x'.repeat(200)}`, 3600);
      if (i % 100 === 99) largest = Math.max(largest, statSync(`${file}-wal`).size);
    }
    assert.ok(largest < WAL_BOUND, `the log reached ${largest} bytes after ${NOTES} notes`);
    assert.equal((await jar.page(0, 100)).notes.length, 100, 'the notes are there');
  } finally {
    await jar.close();
  }
});
