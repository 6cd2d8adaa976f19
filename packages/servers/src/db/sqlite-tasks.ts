// Tasks in a SQLite file (task-storage.ts has the contract): the instances of one host that share the file share
// their tasks. Each step that reads and then writes runs in one immediate transaction, so other processes wait.

import { roomFor, TaskStoreFullError, withAnswers, type TaskRecord, type TaskState, type TaskStorage } from '../edge/task-storage.js';
import { immediate, openSqlite, type SqliteDatabase } from './sqlite.js';

interface Row {
  task_id: string;
  client: string | null;
  status: TaskRecord['status'];
  state: string;
  created_ms: number | bigint;
  updated_ms: number | bigint;
  ttl_ms: number | bigint;
}

const COLUMNS = 'task_id, client, status, state, created_ms, updated_ms, ttl_ms';

/** `scope` keeps one toolbox's tasks apart from another's in the same file. */
export function sqliteTaskStorage(path: string, scope: string): TaskStorage {
  let closed = false;
  const opening = openSqlite(path, 'the tasks\' SQLite file').then((db) => {
    db.exec(`CREATE TABLE IF NOT EXISTS tasks (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      scope TEXT NOT NULL,
      task_id TEXT NOT NULL,
      client TEXT,
      status TEXT NOT NULL,
      state TEXT NOT NULL,
      created_ms INTEGER NOT NULL,
      updated_ms INTEGER NOT NULL,
      ttl_ms INTEGER NOT NULL,
      expires_ms INTEGER NOT NULL,
      UNIQUE (scope, task_id)
    );
    CREATE INDEX IF NOT EXISTS tasks_expiry ON tasks(scope, expires_ms);`);
    return db;
  });
  opening.catch(() => {});
  const db = async (): Promise<SqliteDatabase> => {
    if (closed) throw new Error('The tasks\' storage is closed.');
    return opening;
  };
  const read = (handle: SqliteDatabase, taskId: string, now: number) =>
    handle.prepare(`SELECT ${COLUMNS} FROM tasks WHERE scope = ? AND task_id = ? AND expires_ms > ?`).all(scope, taskId, now)[0] as Row | undefined;

  return {
    async create(task, bounds) {
      const handle = await db();
      immediate(handle, () => {
        handle.prepare('DELETE FROM tasks WHERE scope = ? AND expires_ms <= ?').run(scope, task.createdAt);
        const held = handle.prepare('SELECT task_id AS taskId, client, status FROM tasks WHERE scope = ? ORDER BY id').all(scope) as Pick<TaskRecord, 'taskId' | 'client' | 'status'>[];
        const room = roomFor(held.map((t) => ({ ...t, client: t.client ?? undefined })), task.client, bounds);
        if ('full' in room) throw new TaskStoreFullError(room.full);
        if (room.forget.length > 0) handle.prepare('DELETE FROM tasks WHERE scope = ? AND task_id IN (SELECT value FROM json_each(?))').run(scope, JSON.stringify(room.forget));
        handle
          .prepare('INSERT INTO tasks (scope, task_id, client, status, state, created_ms, updated_ms, ttl_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(scope, task.taskId, task.client ?? null, task.status, stateOf(task), task.createdAt, task.lastUpdatedAt, task.ttlMs, task.createdAt + task.ttlMs);
      });
    },
    async get(taskIds, now) {
      const rows = (await db())
        .prepare(`SELECT ${COLUMNS} FROM tasks WHERE scope = ? AND task_id IN (SELECT value FROM json_each(?)) AND expires_ms > ?`)
        .all(scope, JSON.stringify(taskIds), now) as Row[];
      return rows.map(toRecord);
    },
    async transition(taskId, from, next, now) {
      const changed = (await db())
        .prepare('UPDATE tasks SET status = ?, state = ?, updated_ms = ? WHERE scope = ? AND task_id = ? AND expires_ms > ? AND status IN (SELECT value FROM json_each(?))')
        .run(next.status, stateOf(next), now, scope, taskId, now, JSON.stringify(from)).changes;
      return Number(changed) > 0;
    },
    async answer(taskId, responses, now) {
      const handle = await db();
      return immediate(handle, () => {
        const row = read(handle, taskId, now);
        if (row === undefined) return 'unknown';
        if (row.status !== 'input_required') return 'not waiting';
        const task = toRecord(row);
        handle.prepare('UPDATE tasks SET state = ?, updated_ms = ? WHERE scope = ? AND task_id = ?').run(stateOf({ ...task, inputResponses: withAnswers(task, responses) }), now, scope, taskId);
        return 'answered';
      });
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

/** What changes as the task goes, as one JSON column. */
function stateOf({ result, error, inputRequests, inputResponses }: TaskState): string {
  return JSON.stringify({ result, error, inputRequests, inputResponses });
}

function toRecord(row: Row): TaskRecord {
  const state = JSON.parse(row.state) as Omit<TaskState, 'status'>;
  return {
    taskId: row.task_id,
    ...(row.client !== null ? { client: row.client } : {}),
    status: row.status,
    ...state,
    createdAt: Number(row.created_ms),
    lastUpdatedAt: Number(row.updated_ms),
    ttlMs: Number(row.ttl_ms),
  };
}
