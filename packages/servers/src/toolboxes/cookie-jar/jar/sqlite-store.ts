// Notes in a SQLite file, so they outlive the process but not their TTL; several processes may share the file
// (db/sqlite.ts opens it).

import { openSqlite } from '../../../db/sqlite.js';
import { DEFAULT_MAX_NOTES, JarFullError, pageOf, toNote, type JarStorage, type NoteRow, type StorageOptions } from './storage.js';

export interface SqliteOptions extends StorageOptions {
  busyTimeoutMs?: number;
}

export function sqliteStore(path: string, options: SqliteOptions = {}): JarStorage {
  const now = options.now ?? Date.now;
  const maxNotes = options.maxNotes ?? DEFAULT_MAX_NOTES;
  let closed = false;
  const opening = openSqlite(path, "the Cookie Jar's SQLite file", options.busyTimeoutMs).then((db) => {
    db.exec(`CREATE TABLE IF NOT EXISTS notes (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      text TEXT NOT NULL,
      created_ms INTEGER NOT NULL,
      expires_ms INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS notes_expiry ON notes(expires_ms);`);
    return db;
  });
  opening.catch(() => {});
  const db = async () => {
    if (closed) throw new Error('The Cookie Jar is closed.');
    return opening;
  };
  const columns = 'id, text, created_ms, expires_ms';

  return {
    async put(text, ttlSeconds) {
      const created = now();
      // One statement, so the cap holds against writers in other processes too (SQLite serialises writes). Run to its
      // end with .all(): .get() resets it after the first row, before SQLite reports it done, and SQLite's automatic
      // checkpoint runs only for a statement that is, so the write-ahead log grew by every note.
      const [row] = (await db())
        .prepare(
          `INSERT INTO notes (text, created_ms, expires_ms) SELECT ?, ?, ?
           WHERE (SELECT count(*) FROM notes WHERE expires_ms > ?) < ? RETURNING ${columns}`,
        )
        .all(text, created, created + Math.round(ttlSeconds * 1000), created, maxNotes) as (NoteRow | undefined)[];
      if (row === undefined) throw new JarFullError(maxNotes);
      return toNote(row);
    },
    async page(after, limit) {
      const handle = await db();
      const t = now();
      handle.prepare('DELETE FROM notes WHERE expires_ms <= ?').run(t);
      const rows = handle
        .prepare(`SELECT ${columns} FROM notes WHERE id > ? AND expires_ms > ? ORDER BY id LIMIT ?`)
        .all(after, t, limit + 1) as NoteRow[];
      return pageOf(rows, limit);
    },
    async get(id) {
      const row = (await db()).prepare(`SELECT ${columns} FROM notes WHERE id = ? AND expires_ms > ?`).get(id, now()) as NoteRow | undefined;
      return row === undefined ? undefined : toNote(row);
    },
    async forget(id) {
      return Number((await db()).prepare('DELETE FROM notes WHERE id = ? AND expires_ms > ?').run(id, now()).changes) > 0;
    },
    async ready() {
      await db();
    },
    async close() {
      if (closed) return;
      closed = true;
      await opening.then((handle) => handle.close(), () => {});
    },
  };
}
