// Tasks in PostgreSQL (task-storage.ts has the contract), for several instances behind one URL: the table
// byhand_tasks. A new task is checked against the bounds and kept under a transaction-scoped advisory lock, so
// instances starting tasks at once cannot overshoot them; answers are merged under the row's lock.

import { roomFor, TaskStoreFullError, withAnswers, type TaskRecord, type TaskState, type TaskStorage } from '../edge/task-storage.js';
import { connectPostgres, redactUrl, type Sql } from './postgres.js';

/** Arbitrary constants naming the tasks' advisory locks. */
const CREATE_LOCK = 0x7461736b;
const SCHEMA_LOCK = 0x7461736c;

interface Row {
  task_id: string;
  client: string | null;
  status: TaskRecord['status'];
  state: Omit<TaskState, 'status'>;
  created_ms: string | number;
  updated_ms: string | number;
  ttl_ms: string | number;
}

/** `scope` keeps one toolbox's tasks apart from another's in the same database. */
export function postgresTaskStorage(url: string, scope: string): TaskStorage {
  let closed = false;
  const opening = connectPostgres(url, 'the tasks').then(async (sql) => {
    try {
      // Concurrent CREATE ... IF NOT EXISTS can still collide in the catalog, so instances take turns.
      await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`;
        await tx`CREATE TABLE IF NOT EXISTS byhand_tasks (
          id BIGSERIAL PRIMARY KEY,
          scope TEXT NOT NULL,
          task_id TEXT NOT NULL,
          client TEXT,
          status TEXT NOT NULL,
          state JSONB NOT NULL,
          created_ms BIGINT NOT NULL,
          updated_ms BIGINT NOT NULL,
          ttl_ms BIGINT NOT NULL,
          expires_ms BIGINT NOT NULL,
          UNIQUE (scope, task_id)
        )`;
        await tx`CREATE INDEX IF NOT EXISTS byhand_tasks_expiry ON byhand_tasks (scope, expires_ms)`;
      });
    } catch (error) {
      await sql.end({ timeout: 1 }).catch(() => {});
      throw new Error(`Cannot use PostgreSQL for the tasks (${redactUrl(url)}): ${(error as Error).message}`, { cause: error });
    }
    return sql;
  });
  opening.catch(() => {});
  const db = async (): Promise<Sql> => {
    if (closed) throw new Error('The tasks\' storage is closed.');
    return opening;
  };

  return {
    async create(task, bounds) {
      const sql = await db();
      await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${CREATE_LOCK})`;
        await tx`DELETE FROM byhand_tasks WHERE scope = ${scope} AND expires_ms <= ${task.createdAt}`;
        const held = (await tx`SELECT task_id, client, status FROM byhand_tasks WHERE scope = ${scope} ORDER BY id`) as unknown as Pick<Row, 'task_id' | 'client' | 'status'>[];
        const room = roomFor(held.map((t) => ({ taskId: t.task_id, status: t.status, ...(t.client !== null ? { client: t.client } : {}) })), task.client, bounds);
        if ('full' in room) throw new TaskStoreFullError(room.full);
        if (room.forget.length > 0) await tx`DELETE FROM byhand_tasks WHERE scope = ${scope} AND task_id = ANY(${room.forget})`;
        await tx`INSERT INTO byhand_tasks (scope, task_id, client, status, state, created_ms, updated_ms, ttl_ms, expires_ms)
          VALUES (${scope}, ${task.taskId}, ${task.client ?? null}, ${task.status}, ${tx.json(stateOf(task))}, ${task.createdAt}, ${task.lastUpdatedAt}, ${task.ttlMs}, ${task.createdAt + task.ttlMs})`;
      });
    },
    async get(taskIds, now) {
      const sql = await db();
      const rows = (await sql`SELECT task_id, client, status, state, created_ms, updated_ms, ttl_ms FROM byhand_tasks
        WHERE scope = ${scope} AND task_id = ANY(${taskIds as string[]}) AND expires_ms > ${now}`) as unknown as Row[];
      return rows.map(toRecord);
    },
    async transition(taskId, from, next, now) {
      const sql = await db();
      const result = await sql`UPDATE byhand_tasks SET status = ${next.status}, state = ${sql.json(stateOf(next))}, updated_ms = ${now}
        WHERE scope = ${scope} AND task_id = ${taskId} AND expires_ms > ${now} AND status = ANY(${from as string[]})`;
      return result.count > 0;
    },
    async answer(taskId, responses, now) {
      const sql = await db();
      return sql.begin(async (tx) => {
        const [row] = (await tx`SELECT task_id, client, status, state, created_ms, updated_ms, ttl_ms FROM byhand_tasks
          WHERE scope = ${scope} AND task_id = ${taskId} AND expires_ms > ${now} FOR UPDATE`) as unknown as Row[];
        if (row === undefined) return 'unknown' as const;
        if (row.status !== 'input_required') return 'not waiting' as const;
        const task = toRecord(row);
        await tx`UPDATE byhand_tasks SET state = ${tx.json(stateOf({ ...task, inputResponses: withAnswers(task, responses) }))}, updated_ms = ${now}
          WHERE scope = ${scope} AND task_id = ${taskId}`;
        return 'answered' as const;
      });
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

/** What changes as the task goes, as one JSONB column; absent fields left out, as JSON has no undefined. */
function stateOf({ result, error, inputRequests, inputResponses }: TaskState): Record<string, never> {
  return JSON.parse(JSON.stringify({ result, error, inputRequests, inputResponses })) as Record<string, never>;
}

function toRecord(row: Row): TaskRecord {
  return {
    taskId: row.task_id,
    ...(row.client !== null ? { client: row.client } : {}),
    status: row.status,
    ...row.state,
    createdAt: Number(row.created_ms),
    lastUpdatedAt: Number(row.updated_ms),
    ttlMs: Number(row.ttl_ms),
  };
}
