// `--db` to a storage (Node entry only, so web bundles never see a database driver): a postgres:// URL, a SQLite
// file, or nothing / `:memory:` for memory.

import { memoryStore } from './memory-store.js';
import { postgresStore } from './postgres-store.js';
import { sqliteStore } from './sqlite-store.js';
import type { JarStorage, StorageOptions } from './storage.js';

export function openJarStorage(db: string | undefined, options: StorageOptions = {}): JarStorage {
  if (db === undefined || db === ':memory:') return memoryStore(options);
  if (/^postgres(ql)?:\/\//i.test(db)) return postgresStore(db, options);
  return sqliteStore(db, options);
}
