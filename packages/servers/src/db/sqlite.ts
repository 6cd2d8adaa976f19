// A SQLite file for the toolboxes' storages (the Cookie Jar's notes, the tasks): the driver loads only when a file is
// asked for, better-sqlite3 when installed (an optional peer: it is a native build), else node:sqlite where the runtime
// has it (Node >= 22.5). Both expose prepare().run/get/all and exec. WAL and a busy timeout, because several processes
// may use one file: a writer that finds it locked waits instead of failing. A write is run with .run() or .all(), never
// .get(): .get() resets a statement before SQLite reports it done, and SQLite checkpoints its log only for one that is.

export interface Statement {
  run(...params: unknown[]): { changes: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface SqliteDatabase {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
}

/** `what` names the storage in the error a person reads: "the Cookie Jar's SQLite file". */
export async function openSqlite(path: string, what: string, busyTimeoutMs = 10_000): Promise<SqliteDatabase> {
  const db = await openDriver(path, what);
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  if (path !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  return db;
}

async function openDriver(path: string, what: string): Promise<SqliteDatabase> {
  const reasons: string[] = [];
  try {
    const { default: Database } = (await import('better-sqlite3')) as { default: new (path: string) => SqliteDatabase };
    return new Database(path);
  } catch (error) {
    reasons.push(`better-sqlite3: ${(error as Error).message.split('\n')[0]}`);
  }
  try {
    // @types/node 20 has no node:sqlite: a specifier typed as string keeps tsc from resolving it.
    const specifier: string = 'node:sqlite';
    const { DatabaseSync } = (await import(specifier)) as { DatabaseSync: new (path: string) => SqliteDatabase };
    return new DatabaseSync(path);
  } catch (error) {
    reasons.push(`node:sqlite: ${(error as Error).message.split('\n')[0]}`);
  }
  throw new Error(
    `Cannot open ${what} ${path}: no SQLite driver (${reasons.join('; ')}). ` +
      'Install better-sqlite3 (npm install better-sqlite3) or run on Node 22.5 or later.',
  );
}

/** Runs `work` in a write transaction taken at once (BEGIN IMMEDIATE), so writers in other processes wait their turn. */
export function immediate<T>(db: SqliteDatabase, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const out = work();
    db.exec('COMMIT');
    return out;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
