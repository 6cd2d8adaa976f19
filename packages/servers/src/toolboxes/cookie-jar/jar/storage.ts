// The Cookie Jar's storage, as the one interface the tools use, so the jar runs on a Worker (memory), one host
// (SQLite) or many instances (PostgreSQL) with the same semantics: TTL expiry, a cap on live notes, keyset pages.

export interface Note {
  id: number;
  text: string;
  createdAt: string;
  expiresAt: string;
}

export interface NotePage {
  notes: Note[];
  /** The id to pass as `after` for the next page, when there is one. */
  next?: number;
}

export class JarFullError extends Error {
  constructor(readonly limit: number) {
    super(`The jar is full: it remembers at most ${limit} notes at once. Forget one, or wait for one to expire.`);
    this.name = 'JarFullError';
  }
}

export interface JarStorage {
  /** The notes live in this process only, and are gone when it ends. */
  readonly inMemory?: boolean;
  /** Stores a note, or throws JarFullError when `maxNotes` live notes are already stored. */
  put(text: string, ttlSeconds: number): Promise<Note>;
  /** Live notes with id > after, oldest first, at most `limit`. */
  page(after: number, limit: number): Promise<NotePage>;
  get(id: number): Promise<Note | undefined>;
  /** True when a live note was removed. */
  forget(id: number): Promise<boolean>;
  /** Resolves once the storage is reachable; rejects with the reason it is not. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface StorageOptions {
  now?: () => number;
  maxNotes?: number;
}

export const MAX_NOTE_LENGTH = 280;
export const MAX_TTL_SECONDS = 30 * 24 * 3600;
/** 10,000 notes of at most 280 characters: under 3 MB of text, whatever the backend. */
export const DEFAULT_MAX_NOTES = 10_000;
export const MAX_PAGE = 100;

export interface NoteRow {
  id: number | bigint | string;
  text: string;
  created_ms: number | bigint | string;
  expires_ms: number | bigint | string;
}

export function toNote(row: NoteRow): Note {
  return {
    id: Number(row.id),
    text: row.text,
    createdAt: new Date(Number(row.created_ms)).toISOString(),
    expiresAt: new Date(Number(row.expires_ms)).toISOString(),
  };
}

/** One row more than asked tells whether there is a next page without a count. */
export function pageOf(rows: NoteRow[], limit: number): NotePage {
  const notes = rows.slice(0, limit).map(toNote);
  return rows.length > limit ? { notes, next: notes[notes.length - 1].id } : { notes };
}
