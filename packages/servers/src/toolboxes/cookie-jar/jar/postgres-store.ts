// Notes in PostgreSQL, for several instances serving one jar. The driver is `postgres` (porsager/postgres: pure
// JS, no dependencies), an optional peer loaded only when a postgres:// URL is given.
// The cap is checked and the row inserted under a transaction-scoped advisory lock, so concurrent writers on
// any instance cannot overshoot it.

import { connectPostgres, redactUrl } from '../../../db/postgres.js';
import { DEFAULT_MAX_NOTES, JarFullError, pageOf, toNote, type JarStorage, type NoteRow, type StorageOptions } from './storage.js';

/** Arbitrary constants naming the jar's advisory locks. */
const CAP_LOCK = 0x6a6172;
const SCHEMA_LOCK = 0x6a6173;

export function postgresStore(url: string, options: StorageOptions = {}): JarStorage {
  const now = options.now ?? Date.now;
  const maxNotes = options.maxNotes ?? DEFAULT_MAX_NOTES;
  let closed = false;
  const opening = connectPostgres(url, 'the Cookie Jar').then(async (sql) => {
    try {
      // Concurrent CREATE ... IF NOT EXISTS can still collide in the catalog, so instances take turns.
      await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`;
        await tx`CREATE TABLE IF NOT EXISTS byhand_jar_notes (
          id BIGSERIAL PRIMARY KEY,
          text TEXT NOT NULL,
          created_ms BIGINT NOT NULL,
          expires_ms BIGINT NOT NULL
        )`;
        await tx`CREATE INDEX IF NOT EXISTS byhand_jar_notes_expiry ON byhand_jar_notes (expires_ms)`;
      });
    } catch (error) {
      await sql.end({ timeout: 1 }).catch(() => {});
      throw new Error(`Cannot use PostgreSQL for the Cookie Jar (${redactUrl(url)}): ${(error as Error).message}`, { cause: error });
    }
    return sql;
  });
  opening.catch(() => {});
  const db = async () => {
    if (closed) throw new Error('The Cookie Jar is closed.');
    return opening;
  };

  return {
    async put(text, ttlSeconds) {
      const sql = await db();
      const created = now();
      const expires = created + Math.round(ttlSeconds * 1000);
      const rows = await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${CAP_LOCK})`;
        const [{ live }] = (await tx`SELECT count(*)::int AS live FROM byhand_jar_notes WHERE expires_ms > ${created}`) as unknown as [{ live: number }];
        if (live >= maxNotes) return [];
        return tx`INSERT INTO byhand_jar_notes (text, created_ms, expires_ms) VALUES (${text}, ${created}, ${expires})
          RETURNING id, text, created_ms, expires_ms`;
      });
      const row = (rows as unknown as NoteRow[])[0];
      if (row === undefined) throw new JarFullError(maxNotes);
      return toNote(row);
    },
    async page(after, limit) {
      const sql = await db();
      const t = now();
      await sql`DELETE FROM byhand_jar_notes WHERE expires_ms <= ${t}`;
      const rows = await sql`SELECT id, text, created_ms, expires_ms FROM byhand_jar_notes
        WHERE id > ${after} AND expires_ms > ${t} ORDER BY id LIMIT ${limit + 1}`;
      return pageOf(rows as unknown as NoteRow[], limit);
    },
    async get(id) {
      const sql = await db();
      const rows = await sql`SELECT id, text, created_ms, expires_ms FROM byhand_jar_notes WHERE id = ${id} AND expires_ms > ${now()}`;
      const row = (rows as unknown as NoteRow[])[0];
      return row === undefined ? undefined : toNote(row);
    },
    async forget(id) {
      const sql = await db();
      const result = await sql`DELETE FROM byhand_jar_notes WHERE id = ${id} AND expires_ms > ${now()}`;
      return result.count > 0;
    },
    async ready() {
      await db();
    },
    async close() {
      if (closed) return;
      closed = true;
      await opening.then((sql) => sql.end({ timeout: 5 }), () => {});
    },
  };
}
