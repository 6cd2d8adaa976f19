// The Cookie Jar's notes, in SQLite so they outlive the process but not their TTL.
// WAL + busy_timeout because several processes may write the same file at once: a writer that finds the database
// locked waits instead of failing, and readers never block writers.

import Database from 'better-sqlite3';

export interface Note {
  id: number;
  text: string;
  createdAt: string;
  expiresAt: string;
}

interface Row {
  id: number;
  text: string;
  created_ms: number;
  expires_ms: number;
}

export const MAX_NOTE_LENGTH = 280;
export const MAX_TTL_SECONDS = 30 * 24 * 3600;

export class JarStore {
  private readonly db: Database.Database;
  private readonly now: () => number;

  constructor(path: string, options: { now?: () => number; busyTimeoutMs?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.db = new Database(path);
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 10_000))}`);
    if (path !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS notes (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      text TEXT NOT NULL,
      created_ms INTEGER NOT NULL,
      expires_ms INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS notes_expiry ON notes(expires_ms);`);
  }

  private static toNote(row: Row): Note {
    return { id: row.id, text: row.text, createdAt: new Date(row.created_ms).toISOString(), expiresAt: new Date(row.expires_ms).toISOString() };
  }

  put(text: string, ttlSeconds: number): Note {
    const created = this.now();
    const expires = created + Math.round(ttlSeconds * 1000);
    const row = this.db
      .prepare('INSERT INTO notes (text, created_ms, expires_ms) VALUES (?, ?, ?) RETURNING id, text, created_ms, expires_ms')
      .get(text, created, expires) as Row;
    return JarStore.toNote(row);
  }

  /** Live notes, oldest first. Expired rows are swept on the way. */
  list(): Note[] {
    this.sweep();
    const rows = this.db.prepare('SELECT id, text, created_ms, expires_ms FROM notes WHERE expires_ms > ? ORDER BY id').all(this.now()) as Row[];
    return rows.map(JarStore.toNote);
  }

  get(id: number): Note | undefined {
    const row = this.db.prepare('SELECT id, text, created_ms, expires_ms FROM notes WHERE id = ? AND expires_ms > ?').get(id, this.now()) as Row | undefined;
    return row === undefined ? undefined : JarStore.toNote(row);
  }

  /** True when a live note was removed. */
  forget(id: number): boolean {
    return this.db.prepare('DELETE FROM notes WHERE id = ? AND expires_ms > ?').run(id, this.now()).changes > 0;
  }

  private sweep(): void {
    this.db.prepare('DELETE FROM notes WHERE expires_ms <= ?').run(this.now());
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
