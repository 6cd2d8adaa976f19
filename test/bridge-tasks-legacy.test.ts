// A 2025 host's tasks through `byhand bridge` in front of a 2026 server with the tasks extension (the Everything
// toolbox): the host is told the 2025-11-25 tasks capability and that every tool may run as a task, asks for one with
// `task` on tools/call, polls tasks/get, waits on tasks/result (which brings the server's form to it, and the task's
// changes of status as notifications/tasks/status) and cancels.
// Two real 2025 hosts: the SDK 1.x client over stdio (its experimental callToolStream), and byhand's client in its
// legacy era over the HTTP face (its clock injected). tasks/list's pages, on the bridge's task keeper itself.

import assert from 'node:assert/strict';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, TaskStatusNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { after, before, describe, test } from './support/node-test.js';
import { bin } from './support/cli.js';
import { answerAsLegacyHost } from './support/bridge-hosts.js';
import { listen } from './support/bridge-listen.js';
import { textOf } from './servers-support.js';
import { connect, type JsonObject, type Task } from '../packages/client/src/index.js';
import { LegacyTasks } from '../packages/switchboard/src/legacy-tasks.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';

let server: RunningServer;
let url: string;
before(async () => {
  server = await startServer({ port: 0, toolboxes: ['everything'] });
  url = server.urls.everything!;
});
after(() => server.close());

describe('the SDK 1.x client over stdio', () => {
  test('sees the tasks capability and taskSupport, and runs tasks to their results, a form on the way', { timeout: 30_000 }, async () => {
    const capabilities = { elicitation: {} };
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'bridge', url], env: { ...process.env, NO_COLOR: '1' }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new LegacyClient({ name: 'desktop-host', version: '1.0.0' }, { capabilities });
    const asked = answerAsLegacyHost(client, capabilities, 'desktop');
    // The SDK checks each notification against its own 2025 schema before its handler sees it.
    const told: string[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void told.push(`${n.params.taskId} ${n.params.status}`));
    try {
      await client.connect(transport);
      assert.deepEqual(client.getServerCapabilities()?.tasks, { requests: { tools: { call: {} } }, list: {}, cancel: {} }, stderr);
      const { tools } = await client.listTools();
      assert.equal(tools.find((t) => t.name === 'slow_compute')?.execution?.taskSupport, 'optional');

      const seen = async (name: string, args: Record<string, unknown>) => {
        const messages = [];
        for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { task: {} })) messages.push(message);
        return messages;
      };
      const computed = await seen('slow_compute', { seconds: 0, label: 'sum' });
      assert.equal(computed[0]?.type, 'taskCreated', JSON.stringify(computed));
      const last = computed.at(-1);
      assert.equal(last?.type, 'result', JSON.stringify(computed));
      assert.equal(textOf(last?.type === 'result' ? last.result : {}), 'Computed sum after 0s');

      const confirmed = await seen('confirm_delete', { filename: 'notes.txt' });
      const end = confirmed.at(-1);
      assert.equal(end?.type, 'result', JSON.stringify(confirmed));
      // The host's form answer is "desktop confirm", not true: the server keeps the file.
      assert.equal(textOf(end?.type === 'result' ? end.result : {}), 'Kept notes.txt');
      assert.deepEqual(asked.forms, ['Delete notes.txt?']);
      const created = confirmed[0]?.type === 'taskCreated' ? confirmed[0].task.taskId : undefined;
      assert.equal(told.at(-1), `${created} completed`, `the host is told the task ended: ${told.join(', ')}`);
    } finally {
      await client.close();
    }
  });
});

describe("byhand's client in its legacy era over the HTTP face", () => {
  test('a task is started, read, followed through its form with tasks/result, a finished one cannot be cancelled, and tasks/list lists them', { timeout: 30_000 }, async () => {
    const bridge = await listen([url]);
    const forms: string[] = [];
    const told: JsonObject[] = [];
    const client = await connect(bridge.url, {
      era: 'legacy',
      onNotification: (n) => n.method === 'notifications/tasks/status' && told.push(n.params ?? {}),
      host: { elicit: (params) => (forms.push(params.message), Promise.resolve({ action: 'accept', content: { confirm: true } })) },
      sleep: (_ms, signal) => new Promise((resolve, reject) => (signal.aborted ? reject(signal.reason as Error) : setImmediate(resolve))),
    });
    try {
      assert.equal(client.protocolVersion, '2025-11-25');
      const started = await client.startTool('slow_compute', { seconds: 0 });
      assert.ok('task' in started, JSON.stringify(started));
      await assert.rejects(client.request('tasks/get', {}), /tasks\/get needs a taskId/);
      const read = await client.getTask(started.task.taskId);
      assert.match(read.status, /^(working|completed)$/);

      const statuses: Task['status'][] = [];
      const deleted = await client.callTool('confirm_delete', { filename: 'a.txt' }, { onTask: (t) => statuses.push(t.status) });
      assert.equal(textOf(deleted), 'Deleted a.txt');
      assert.deepEqual(forms, ['Delete a.txt?']);
      assert.ok(statuses.includes('input_required') && statuses.at(-1) === 'completed', statuses.join(' '));
      // While it waited on tasks/result after the form, the host was told where the task went, in the 2025 form.
      const ended = told.at(-1);
      assert.equal(ended?.status, 'completed', JSON.stringify(told));
      assert.ok(typeof ended.createdAt === 'string' && typeof ended.lastUpdatedAt === 'string' && 'ttl' in ended && !('ttlMs' in ended) && !('result' in ended), JSON.stringify(ended));
      assert.ok(told.every((t) => t.taskId === ended.taskId && t.status !== 'input_required'), `only changes after the status the host read: ${JSON.stringify(told)}`);

      // greet never runs as a task: the bridge keeps its answer as a finished one.
      const greeted = await client.startTool('greet', { name: 'Ada' });
      assert.ok('task' in greeted, 'a 2025 host that asked for a task gets one');
      assert.equal((await client.getTask(greeted.task.taskId)).status, 'completed');
      await assert.rejects(client.cancelTask(greeted.task.taskId), /already ended/);

      // A host that stops waiting on tasks/result leaves the task running (it may wait again); tasks/cancel stops it.
      const slow = await client.startTool('slow_compute', { seconds: 60 });
      assert.ok('task' in slow);
      const waiting = new AbortController();
      const wait = client.request('tasks/result', { taskId: slow.task.taskId }, { signal: waiting.signal });
      await new Promise((resolve) => setTimeout(resolve, 100));
      waiting.abort(new Error('the host stopped waiting'));
      await assert.rejects(wait, /stopped waiting/);
      assert.equal((await client.getTask(slow.task.taskId)).status, 'working');
      await client.cancelTask(slow.task.taskId);
      assert.equal((await client.getTask(slow.task.taskId)).status, 'cancelled');

      // tasks/list: every task this host started, newest first, as tasks/get reads each.
      const listed = (await client.request('tasks/list', {})).tasks as { taskId: string; status: string }[];
      assert.deepEqual(listed.map((t) => t.taskId).slice(0, 2), [slow.task.taskId, greeted.task.taskId]);
      assert.deepEqual(listed.map((t) => t.status).slice(0, 2), ['cancelled', 'completed']);
      assert.ok(listed.some((t) => t.taskId === started.task.taskId), 'the first task is listed too');
      await assert.rejects(client.request('tasks/list', { cursor: 'not-one' }), /a cursor a tasks\/list gave/);
    } finally {
      await client.close();
      await bridge.stop();
    }
  });
});

describe('tasks/list', () => {
  test('pages through the tasks the host started, newest first', { timeout: 30_000 }, async () => {
    const client = await connect(url);
    // Two a page: the bridge's own pages are 50.
    const tasks = new LegacyTasks(client, { page: 2 });
    try {
      const ids: string[] = [];
      for (const name of ['Ada', 'Bo', 'Cy']) ids.push(String(((await tasks.call({ name: 'greet', arguments: { name }, task: {} }, {})).task as { taskId: string }).taskId));
      const first = await tasks.list(undefined, {});
      assert.deepEqual((first.tasks as { taskId: string }[]).map((t) => t.taskId), [ids[2], ids[1]]);
      assert.equal(first.nextCursor, '2');
      const second = await tasks.list(first.nextCursor, {});
      assert.deepEqual((second.tasks as { taskId: string }[]).map((t) => t.taskId), [ids[0]]);
      assert.equal(second.nextCursor, undefined);
    } finally {
      await client.close();
    }
  });
});
