// One contract, three storages of tasks: memory (the default, a Worker's unless it binds its own), SQLite (the
// instances of one host) and PostgreSQL (instances anywhere; a real server started for this file). Two handles on one
// database are two instances: what one writes, the other reads.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from './support/node-test.js';
import { memoryTaskStorage, TaskStoreFullError, type TaskRecord, type TaskStorage } from '../packages/servers/src/edge/task-storage.js';
import { TaskStore } from '../packages/servers/src/edge/tasks.js';
import { sqliteTaskStorage } from '../packages/servers/src/db/sqlite-tasks.js';
import { postgresTaskStorage } from '../packages/servers/src/db/postgres-tasks.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-task-storage-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let pg: TestPostgres;
before(async () => {
  pg = await startPostgres();
}, { timeout: 60_000 });
after(async () => pg?.stop(), { timeout: 30_000 });

let databases = 0;
async function freshDatabase(): Promise<string> {
  const name = `tasks_${++databases}`;
  const { default: postgres } = await import('postgres');
  const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return pg.url.replace(/\/postgres$/, `/${name}`);
}

/** Each test its own database; `open` gives another handle on it (another instance), except for memory, which has one. */
const storages: Record<string, () => Promise<{ open: () => TaskStorage; shared: boolean }>> = {
  memory: async () => {
    const one = memoryTaskStorage();
    return { open: () => one, shared: false };
  },
  sqlite: async () => {
    const file = join(scratch, `tasks-${++databases}.db`);
    return { open: () => sqliteTaskStorage(file, 'everything'), shared: true };
  },
  postgres: async () => {
    const url = await freshDatabase();
    return { open: () => postgresTaskStorage(url, 'everything'), shared: true };
  },
};

const T0 = Date.parse('2026-08-01T12:00:00Z');
const task = (taskId: string, client?: string, at = T0): TaskRecord => ({ taskId, ...(client !== undefined ? { client } : {}), status: 'working', createdAt: at, lastUpdatedAt: at, ttlMs: 60_000 });
const BOUNDS = { maxTasks: 3, maxTasksPerClient: 2 };

for (const [name, make] of Object.entries(storages)) {
  describe(`tasks in ${name}`, { timeout: 60_000 }, () => {
    test('a task kept by one handle is read, answered, moved on and ended through another', async () => {
      const { open } = await make();
      const a = open();
      const b = open();
      try {
        await a.create(task('t1', 'c1'), BOUNDS);
        const [read] = await b.get(['t1', 'nope'], T0 + 1);
        assert.deepEqual(read, task('t1', 'c1'));
        assert.equal(await b.transition('t1', ['working'], { status: 'input_required', inputRequests: { name: { method: 'elicitation/create' }, go: { method: 'elicitation/create' } }, inputResponses: {} }, T0 + 2), true);
        assert.equal(await b.answer('t1', { name: { action: 'accept' }, stray: 1 }, T0 + 3), 'answered');
        assert.equal(await a.answer('t1', { go: { action: 'decline' } }, T0 + 4), 'answered');
        const [waiting] = await a.get(['t1'], T0 + 5);
        assert.deepEqual(waiting.inputResponses, { name: { action: 'accept' }, go: { action: 'decline' } }, 'answers merge; a key not asked for is dropped');
        assert.equal(waiting.lastUpdatedAt, T0 + 4);
        assert.equal(await a.transition('t1', ['input_required'], { status: 'working' }, T0 + 6), true);
        assert.equal(await b.transition('t1', ['input_required'], { status: 'working' }, T0 + 6), false, 'one handle moves it on');
        assert.equal(await b.answer('t1', { name: 2 }, T0 + 7), 'not waiting');
        assert.equal(await b.transition('t1', ['working', 'input_required'], { status: 'cancelled' }, T0 + 8), true);
        assert.equal(await a.transition('t1', ['working', 'input_required'], { status: 'completed', result: { content: [] } }, T0 + 9), false, 'the first end wins');
        const [ended] = await a.get(['t1'], T0 + 10);
        assert.equal(ended.status, 'cancelled');
        assert.equal(ended.inputRequests, undefined, 'a step writes the whole state');
        assert.equal(await a.answer('nope', {}, T0), 'unknown');
      } finally {
        await a.close();
        if (b !== a) await b.close();
      }
    });

    test('bounds hold across handles: the oldest finished task makes room, unfinished ones never do; ttl forgets', async () => {
      const { open } = await make();
      const a = open();
      const b = open();
      try {
        await a.create(task('c1-done', 'c1'), BOUNDS);
        await a.transition('c1-done', ['working'], { status: 'completed', result: {} }, T0);
        await b.create(task('c1-run', 'c1'), BOUNDS);
        await a.create(task('c1-next', 'c1'), BOUNDS);
        assert.deepEqual((await b.get(['c1-done'], T0)).length, 0, 'the client\'s finished task made room for its next');
        await assert.rejects(b.create(task('c1-over', 'c1'), BOUNDS), (e: unknown) => e instanceof TaskStoreFullError && /already holds 2 unfinished tasks/.test(e.message));
        await b.create(task('c2-run', 'c2'), BOUNDS);
        await assert.rejects(a.create(task('c3-run', 'c3'), BOUNDS), (e: unknown) => e instanceof TaskStoreFullError && /already holds 3 tasks/.test(e.message));
        assert.deepEqual(await a.get(['c1-run'], T0 + 60_000), [], 'past its ttl a task is not read');
        await a.create(task('later', 'c3', T0 + 60_000), BOUNDS);
        assert.deepEqual((await b.get(['c1-run', 'c1-next', 'c2-run', 'later'], T0 + 60_000)).map((t) => t.taskId), ['later'], 'expired tasks made room');
      } finally {
        await a.close();
        if (b !== a) await b.close();
      }
    });

    test('a TaskStore runs the work where it started; an answer and a cancel given through another store reach it', async () => {
      const { open, shared } = await make();
      const here = new TaskStore({ storage: open(), watchMs: 20 });
      const there = shared ? new TaskStore({ storage: open(), watchMs: 20 }) : here;
      try {
        const asked = await here.start(async (run) => {
          const answers = await run.ask({ confirm: { method: 'elicitation/create', params: { message: 'Go?' } } });
          return { content: [{ type: 'text', text: JSON.stringify(answers.confirm) }] };
        });
        const id = asked.taskId as string;
        await until(async () => (await there.get(id))?.status === 'input_required');
        assert.deepEqual(Object.keys((await there.get(id))!.inputRequests as object), ['confirm']);
        assert.equal(await there.update(id, { confirm: { action: 'accept', content: { ok: true } } }), true);
        await until(async () => (await there.get(id))?.status === 'completed');
        assert.deepEqual((await there.get(id))!.result, { content: [{ type: 'text', text: '{"action":"accept","content":{"ok":true}}' }] });

        let stopped = false;
        const long = await here.start((run) => new Promise((_, reject) => run.signal.addEventListener('abort', () => ((stopped = true), reject(run.signal.reason)))));
        assert.equal(await there.cancel(long.taskId as string), true);
        await until(async () => stopped);
        assert.equal((await here.get(long.taskId as string))?.status, 'cancelled');
        assert.equal(await there.cancel('nope'), false);
      } finally {
        await here.close();
        if (there !== here) await there.close();
      }
    });
  });
}

async function until(condition: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
