// `--db` to the tasks' storage, beside the Cookie Jar's (Node entry only, so web bundles never see a database driver):
// a postgres:// URL, a SQLite file, or nothing / `:memory:` for this process's memory.

import { memoryTaskStorage, type TaskStorage } from '../edge/task-storage.js';
import { postgresTaskStorage } from './postgres-tasks.js';
import { sqliteTaskStorage } from './sqlite-tasks.js';

/** `scope`: the toolbox whose tasks they are. */
export function openTaskStorage(db: string | undefined, scope: string): TaskStorage {
  if (db === undefined || db === ':memory:') return memoryTaskStorage();
  if (/^postgres(ql)?:\/\//i.test(db)) return postgresTaskStorage(db, scope);
  return sqliteTaskStorage(db, scope);
}
