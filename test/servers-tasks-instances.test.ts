// Tasks beyond one process: two `byhand serve` instances with one secret and one --db (a SQLite file, then a
// PostgreSQL database) behind a round-robin, as a deployment without sticky routing runs them. A task started through
// one instance is followed, answered and cancelled through the other, by byhand's client, by raw requests and by the
// command line; and without a --db, an instance that does not know a task says it may be another instance's.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from './support/node-test.js';
import { connect } from '../packages/client/src/index.js';
import { ENVELOPE, modernRpc, textOf } from './servers-support.js';
import { byhandIn, until } from './support/cli.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { roundRobin, startServe, type RoundRobin, type ServeProcess } from './support/instances.js';

const SECRET = 'one-secret-for-every-instance-0123456789';
const WITH_TASKS = { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { ...ENVELOPE['io.modelcontextprotocol/clientCapabilities'], extensions: { 'io.modelcontextprotocol/tasks': {} } } };

const scratch = mkdtempSync(join(tmpdir(), 'byhand-tasks-instances-'));
let pg: TestPostgres | undefined;
before(async () => {
  pg = await startPostgres();
}, { timeout: 60_000 });
after(async () => {
  await pg?.stop();
  rmSync(scratch, { recursive: true, force: true });
}, { timeout: 30_000 });

interface Deployment {
  instances: ServeProcess[];
  proxy: RoundRobin;
}

async function deploy(args: string[]): Promise<Deployment> {
  const instances: ServeProcess[] = [];
  try {
    // One at a time: the first makes the tables.
    for (let i = 0; i < 2; i++) instances.push(await startServe(args, { BYHAND_STATE_SECRET: SECRET }));
    return { instances, proxy: await roundRobin(instances.map((i) => i.url)) };
  } catch (error) {
    await Promise.all(instances.map((i) => i.stop()));
    throw error;
  }
}

async function undeploy(deployment: Deployment | undefined): Promise<void> {
  await deployment?.proxy.close();
  await Promise.all(deployment?.instances.map((i) => i.stop()) ?? []);
}

const everything = (base: string) => `${base}/api/everything`;

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`tasks on two instances sharing ${backend}`, { timeout: 120_000 }, () => {
    let at: Deployment | undefined;
    before(async () => {
      at = await deploy(['--db', backend === 'sqlite' ? join(scratch, 'shared.db') : pg!.url]);
    }, { timeout: 60_000 });
    after(() => undeploy(at), { timeout: 30_000 });

    test("byhand's client: a task is followed to its end, and a task's question answered, through either instance", async () => {
      const client = await connect(everything(at!.proxy.url), { host: { elicit: async () => ({ action: 'accept', content: { confirm: true } }) } });
      try {
        const before = at!.proxy.served.length;
        assert.equal(textOf(await client.callTool('slow_compute', { seconds: 1, label: 'shared' })), 'Computed shared after 1s');
        assert.equal(textOf(await client.callTool('confirm_delete', { filename: 'notes.txt' })), 'Deleted notes.txt');
        assert.deepEqual(new Set(at!.proxy.served.slice(before)), new Set([0, 1]), 'both instances served requests of the tasks');
      } finally {
        await client.close();
      }
    });

    test('started on one instance, cancelled on the other: both say cancelled', async () => {
      const [a, b] = at!.instances.map((i) => everything(i.url));
      const started = await modernRpc(a, 'tools/call', { name: 'slow_compute', arguments: { seconds: 300 } }, { meta: WITH_TASKS });
      assert.equal(started.body?.result?.resultType, 'task', started.raw.slice(0, 300));
      const taskId = started.body?.result?.taskId as string;
      // The tasks methods name their task in Mcp-Name.
      const task = { meta: WITH_TASKS, headers: { 'mcp-name': taskId } };
      const elsewhere = await modernRpc(b, 'tasks/get', { taskId }, task);
      assert.equal(elsewhere.body?.result?.status, 'working', elsewhere.raw.slice(0, 300));
      const cancelled = await modernRpc(b, 'tasks/cancel', { taskId }, task);
      assert.equal(cancelled.body?.result?.resultType, 'complete', cancelled.raw.slice(0, 300));
      for (const url of [a, b]) assert.equal((await modernRpc(url, 'tasks/get', { taskId }, task)).body?.result?.status, 'cancelled');
    });

    test('call --detach, then task get, through the round-robin', async () => {
      const url = everything(at!.proxy.url);
      const detached = await byhandIn({ cwd: scratch }, 'call', url, 'slow_compute', 'seconds=0', '--detach');
      assert.equal(detached.code, 0, detached.stderr);
      const taskId = detached.stdout.trim();
      assert.match(taskId, /^[0-9a-f-]{36}$/);
      const get = async () => {
        const got = await byhandIn({ cwd: scratch }, 'task', url, 'get', taskId, '--json');
        assert.equal(got.code, 0, got.stderr);
        return (JSON.parse(got.stdout) as { status: string }).status;
      };
      const deadline = Date.now() + 10_000;
      while ((await get()) !== 'completed') assert.ok(Date.now() < deadline, 'the task did not complete');
      // Which instance a command's tasks/get lands on depends on how many requests came before it: ask each.
      for (const instance of at!.instances) {
        const direct = await modernRpc(everything(instance.url), 'tasks/get', { taskId }, { meta: WITH_TASKS, headers: { 'mcp-name': taskId } });
        assert.equal(direct.body?.result?.status, 'completed', direct.raw.slice(0, 300));
      }
    });
  });
}

describe('two instances without a --db', { timeout: 120_000 }, () => {
  let at: Deployment | undefined;
  before(async () => {
    at = await deploy([]);
  }, { timeout: 60_000 });
  after(() => undeploy(at), { timeout: 30_000 });

  test('each says at start that its tasks are its own; one that does not know a task says it may be the other\'s', async () => {
    for (const instance of at!.instances) {
      assert.match(instance.banner, /Cookie Jar notes and tasks are in this process's memory, unseen by any other instance/);
      await until(() => /BYHAND_STATE_SECRET is set, as for several instances behind one URL, but there is no --db: each instance keeps its own notes and tasks/.test(instance.stderr()), 'the warning', 10_000);
    }
    const [a, b] = at!.instances.map((i) => everything(i.url));
    const started = await modernRpc(a, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0 } }, { meta: WITH_TASKS });
    const taskId = started.body?.result?.taskId as string;
    const unknown = await modernRpc(b, 'tasks/get', { taskId }, { meta: WITH_TASKS, headers: { 'mcp-name': taskId } });
    assert.match(String(unknown.body?.error?.message), /or another instance of this server started it: this one keeps its tasks in its own memory \(byhand serve --db shares them\)/);
  });
});
