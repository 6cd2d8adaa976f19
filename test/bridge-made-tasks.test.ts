// Tasks the bridge makes itself (made-tasks.ts) for a 2026 host that declares the tasks extension, in front of a 2025
// server that runs none of its own: the Everything toolbox with its 2026 era taken away
// (test/support/legacy-only-everything.ts), whose task fixtures say in their 2025 listing that they may run as tasks.
// The host is byhand's client in its modern era through `byhand bridge --listen`, and hand-written lines on the pipe
// face; what the server was told is read where it arrives. Then the task keeper alone, its clock injected: the ttl
// and the bounds.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { listen, type Listening } from './support/bridge-listen.js';
import { until } from './support/cli.js';
import { envelope } from './support/modern-post.js';
import { rawBridge } from './support/raw-bridge.js';
import { startLegacyOnlyEverything, type LegacyOnlyServer } from './support/legacy-only-everything.js';
import { textOf } from './servers-support.js';
import { connect, RpcError, TASKS_EXTENSION, type Client, type ConnectOptions, type JsonObject, type Task } from '../packages/client/src/index.js';
import { sleep } from '../packages/client/src/sleep.js';
import { MadeTasks } from '../packages/switchboard/src/made-tasks.js';
import { AnswerError } from '../packages/switchboard/src/json-rpc-peer.js';
import type { CallStart, DetachedCall } from '../packages/switchboard/src/pending-calls.js';

describe('byhand bridge: the tasks of a 2025 server that runs none, made by the bridge', { timeout: 60_000, concurrency: true }, () => {
  const seen: Record<string, unknown>[] = [];
  let server: LegacyOnlyServer;
  let bridge: Listening;
  before(async () => {
    server = await startLegacyOnlyEverything({ seen: (message) => void seen.push(message) });
    bridge = await listen([server.url]);
  });
  after(async () => {
    await bridge?.stop();
    await server?.close();
  });

  /** A 2026 host on the bridge; its polls wait 50 ms, whatever interval the task names. */
  async function host(options: ConnectOptions = {}, url = bridge.url): Promise<Client> {
    const client = await connect(url, { era: 'modern', sleep: (_ms, signal) => sleep(50, signal), ...options });
    assert.equal(client.era, 'modern');
    return client;
  }

  /** A poll's pause, as until() makes it. */
  const pause = () => sleep(25, AbortSignal.timeout(1_000));

  /** tasks/get until the task is in `status` (or has ended). */
  async function reached(client: Client, taskId: string, status: Task['status']): Promise<Task> {
    let task = await client.getTask(taskId);
    for (let polls = 0; task.status !== status && !['completed', 'failed', 'cancelled'].includes(task.status); polls++) {
      assert.ok(polls < 400, `task ${taskId} still ${task.status}, waiting for ${status}`);
      await pause();
      task = await client.getTask(taskId);
    }
    return task;
  }

  test('server/discover names the extension; a tool the server says may run as a task is one, followed to its result; greet answers in the call', async () => {
    const client = await host();
    try {
      assert.deepEqual((client.serverCapabilities.extensions as JsonObject | undefined)?.[TASKS_EXTENSION], {});
      assert.equal(client.serverCapabilities.tasks, undefined, 'the 2025 capability is not a 2026 one');
      const greeted = await client.startTool('greet', { name: 'Ada' });
      assert.ok('result' in greeted, JSON.stringify(greeted));
      assert.equal(textOf(greeted.result), 'Hello, Ada!');
      const started = await client.startTool('slow_compute', { seconds: 0.2, label: 'sum' });
      assert.ok('task' in started, JSON.stringify(started));
      const { task } = started;
      assert.equal(task.status, 'working');
      assert.equal(task.ttlMs, 600_000);
      assert.equal(task.pollIntervalMs, 500);
      assert.match(String(task.createdAt), /^\d{4}-\d\d-\d\dT/);
      const done = await reached(client, task.taskId, 'completed');
      assert.equal(done.status, 'completed');
      assert.equal(textOf(done.result ?? {}), 'Computed sum after 0.2s');
      const statuses: Task['status'][] = [];
      const result = await client.callTool('slow_compute', { seconds: 0.1 }, { onTask: (t) => void statuses.push(t.status) });
      assert.equal(textOf(result), 'Computed result after 0.1s');
      assert.equal(statuses[0], 'working');
      assert.equal(statuses.at(-1), 'completed');
    } finally {
      await client.close();
    }
  });

  test("what the server asks during a task is the task's inputRequests, answered with tasks/update, some at a time", async () => {
    const client = await host({ host: { elicit: async () => ({ action: 'accept', content: { confirm: true } }) } });
    try {
      const statuses: Task['status'][] = [];
      assert.equal(textOf(await client.callTool('confirm_delete', { filename: 'notes.txt' }, { onTask: (t) => void statuses.push(t.status) })), 'Deleted notes.txt');
      assert.ok(statuses.includes('input_required'), statuses.join(' '));
      const started = await client.startTool('multi_input', {});
      assert.ok('task' in started);
      const { taskId } = started.task;
      let asking: Task;
      for (let polls = 0; ; polls++) {
        asking = await reached(client, taskId, 'input_required');
        if (Object.keys(asking.inputRequests ?? {}).length === 2) break;
        assert.ok(polls < 400, `still ${JSON.stringify(asking.inputRequests)}`);
        await pause();
      }
      const keyOf = (message: string) => Object.entries(asking.inputRequests ?? {}).find(([, request]) => (request as { params?: { message?: string } }).params?.message === message)?.[0];
      const name = keyOf('Your name?');
      const confirm = keyOf('Go ahead?');
      assert.ok(name !== undefined && confirm !== undefined, JSON.stringify(asking.inputRequests));
      assert.deepEqual(await client.request('tasks/update', { taskId, inputResponses: { [name]: { action: 'accept', content: { name: 'Ada' } } } }), { resultType: 'complete' });
      const half = await client.getTask(taskId);
      assert.equal(half.status, 'input_required');
      assert.deepEqual(Object.keys(half.inputRequests ?? {}), [confirm], 'the answered key is gone, the other waits');
      // A key not waiting (answered, or never asked) is ignored, and the ack is the same.
      assert.deepEqual(await client.request('tasks/update', { taskId, inputResponses: { [name]: { action: 'decline' }, nonsense: {} } }), { resultType: 'complete' });
      await client.request('tasks/update', { taskId, inputResponses: { [confirm]: { action: 'accept', content: { confirm: true } } } });
      const done = await reached(client, taskId, 'completed');
      assert.equal(textOf(done.result ?? {}), 'Thanks, Ada');
    } finally {
      await client.close();
    }
  });

  test('a tool error ends the task completed with it; a JSON-RPC error ends it failed, with that error and no result', async () => {
    const client = await host();
    try {
      const failing = await client.callTool('failing_job', {});
      assert.equal(failing.isError, true);
      assert.equal(textOf(failing), 'The job failed, as it always does');
      const started = await client.startTool('protocol_error_job', {});
      assert.ok('task' in started);
      const failed = await reached(client, started.task.taskId, 'failed');
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error?.code, -32603);
      assert.match(failed.error?.message ?? '', /fails on purpose/);
      assert.equal(failed.result, undefined);
    } finally {
      await client.close();
    }
  });

  test('tasks/cancel gives the call up: the task is cancelled, and the server is told', async () => {
    const client = await host();
    try {
      const started = await client.startTool('slow_compute', { seconds: 60, label: 'cancel-me' });
      assert.ok('task' in started);
      const sent = () => seen.find((m) => m.method === 'tools/call' && (m.params as { arguments?: { label?: string } }).arguments?.label === 'cancel-me');
      await until(() => sent() !== undefined, 'the call to reach the server');
      await client.cancelTask(started.task.taskId);
      const cancelled = await client.getTask(started.task.taskId);
      assert.equal(cancelled.status, 'cancelled');
      await until(() => seen.some((m) => m.method === 'notifications/cancelled' && (m.params as { requestId?: unknown }).requestId === sent()?.id), 'the server to be told the call was cancelled');
      // Cancelling an ended task is the same empty ack.
      assert.deepEqual(await client.request('tasks/cancel', { taskId: started.task.taskId }), { resultType: 'complete' });
    } finally {
      await client.close();
    }
  });

  test('a host that does not declare the extension gets the result in the call, and -32021 for the tasks methods', async () => {
    const client = await host({ tasks: false });
    try {
      const started = await client.startTool('slow_compute', { seconds: 0 });
      assert.ok('result' in started, JSON.stringify(started));
      assert.equal(textOf(started.result), 'Computed result after 0s');
      await assert.rejects(client.getTask('any'), (e: unknown) => e instanceof RpcError && e.code === -32021);
    } finally {
      await client.close();
    }
  });

  test('on the pipe face too: server/discover names the extension, a call is a task, tasks/get follows it to its result', async () => {
    const pipe = rawBridge([server.url]);
    try {
      const _meta = envelope({ extensions: { [TASKS_EXTENSION]: {} } });
      pipe.send({ id: 1, method: 'server/discover', params: { _meta } }, { id: 2, method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 0.1 }, _meta } });
      const answer = (id: number) => pipe.lines().find((line) => line.id === id);
      await until(() => answer(2) !== undefined, `the call's answer (stderr: ${pipe.stderr()})`);
      const capabilities = (answer(1)?.result as { capabilities?: { extensions?: JsonObject } }).capabilities;
      assert.deepEqual(capabilities?.extensions?.[TASKS_EXTENSION], {});
      const handle = answer(2)?.result as JsonObject;
      assert.equal(handle.resultType, 'task');
      let task: JsonObject | undefined;
      for (let id = 3; task?.status !== 'completed'; id++) {
        assert.ok(id < 400, `still ${JSON.stringify(task)}`);
        pipe.send({ id, method: 'tasks/get', params: { taskId: handle.taskId, _meta } });
        await until(() => answer(id) !== undefined, 'the answer to tasks/get');
        task = answer(id)?.result as JsonObject;
        if (task.status !== 'completed') await pause();
      }
      assert.equal(task.resultType, 'complete');
      assert.equal(textOf(task.result as JsonObject), 'Computed result after 0.1s');
    } finally {
      await pipe.stop();
    }
  });

  test('a task lives where it was made: another bridge instance says so; an unknown id is -32602', async () => {
    const other = await listen([server.url]);
    const client = await host();
    const elsewhere = await host({}, other.url);
    try {
      const started = await client.startTool('slow_compute', { seconds: 60 });
      assert.ok('task' in started);
      await assert.rejects(elsewhere.getTask(started.task.taskId), (e: unknown) => e instanceof RpcError && e.code === -32602 && /another bridge instance/.test(e.message));
      await assert.rejects(client.getTask('no-such-task'), (e: unknown) => e instanceof RpcError && e.code === -32602 && /no task no-such-task/.test(e.message));
      await client.cancelTask(started.task.taskId);
    } finally {
      await elsewhere.close();
      await client.close();
      await other.stop();
    }
  });
});

describe('the task keeper (made-tasks.ts), its clock injected', () => {
  /** A call the test ends by hand. */
  function fakeCall(): DetachedCall & { end(result: JsonObject): void; gaveUp: Error[]; asking: JsonObject } {
    let settle!: (result: JsonObject) => void;
    let fail!: (error: Error) => void;
    const outcome = new Promise<JsonObject>((resolve, reject) => ((settle = resolve), (fail = reject)));
    outcome.catch(() => undefined);
    const call = {
      asking: {} as JsonObject,
      gaveUp: [] as Error[],
      questions: () => call.asking,
      answer: () => false,
      outcome,
      giveUp: (error: Error) => (call.gaveUp.push(error), fail(error)),
      end: (result: JsonObject) => settle(result),
    };
    return call;
  }

  function keeper(options: ConstructorParameters<typeof MadeTasks>[1] = {}) {
    const calls: ReturnType<typeof fakeCall>[] = [];
    const timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
    const said: string[] = [];
    let now = Date.parse('2026-12-01T10:00:00Z');
    const tasks = new MadeTasks(
      {
        instance: 'this-instance',
        detach: () => {
          const call = fakeCall();
          calls.push(call);
          return call;
        },
      },
      {
        now: () => now,
        schedule: (run, ms) => {
          const timer = { run, ms, cancelled: false };
          timers.push(timer);
          return { cancel: () => void (timer.cancelled = true) };
        },
        warn: (text) => void said.push(text),
        ...options,
      },
    );
    const start = (caller = 'host-a') => String(tasks.start({ caller } as CallStart).taskId);
    return { tasks, calls, timers, said, start, later: (ms: number) => void (now += ms) };
  }

  const refused = (code: number, pattern: RegExp) => (error: unknown) => error instanceof AnswerError && error.error.code === code && pattern.test(error.error.message);

  test('a task still running at its ttl is given up, said once, and forgotten; an ended one is just forgotten', async () => {
    const { tasks, calls, timers, said, start } = keeper({ ttlMs: 1_000 });
    const running = start();
    const ended = start();
    calls[1].end({ content: [] });
    await Promise.resolve();
    assert.equal(tasks.get(ended).status, 'completed');
    assert.deepEqual(timers.map((t) => t.ms), [1_000, 1_000]);
    for (const timer of timers) timer.run();
    assert.equal(calls[0].gaveUp.length, 1);
    assert.match(calls[0].gaveUp[0].message, /ran past its ttl/);
    assert.equal(calls[1].gaveUp.length, 0);
    assert.equal(said.length, 1);
    assert.match(said[0], /whole ttl/);
    for (const taskId of [running, ended]) assert.throws(() => tasks.get(taskId), refused(-32602, /ttl of 1 s ran out/));
  });

  test("past a caller's bound its oldest ended task is forgotten, and with none ended the call is refused; the bound in all likewise", async () => {
    const { tasks, calls, start } = keeper({ maxPerCaller: 2, max: 3 });
    const first = start('a');
    start('a');
    assert.throws(() => start('a'), refused(-32603, /this caller has 2 tasks running/));
    calls[0].end({ content: [] });
    await Promise.resolve();
    start('a');
    assert.throws(() => tasks.get(first), refused(-32602, /no task/));
    // Three kept in all: b's first takes the third place, its second finds none ended (a's are running).
    start('b');
    assert.throws(() => start('b'), refused(-32603, /3 tasks are running/));
  });

  test('the results kept are bounded in bytes, the oldest ended forgotten first; one that cannot be serialised ends the task failed', async () => {
    const { tasks, calls, start } = keeper({ maxBytes: 200 });
    const result = { content: [{ type: 'text', text: 'x'.repeat(100) }] };
    const first = start();
    const second = start();
    calls[0].end(result);
    await Promise.resolve();
    assert.equal(tasks.get(first).status, 'completed');
    calls[1].end(result);
    await Promise.resolve();
    assert.throws(() => tasks.get(first), refused(-32602, /no task/));
    assert.deepEqual(tasks.get(second).result, result);
    let deep: JsonObject = {};
    for (let level = 0; level < 100_000; level++) deep = { deeper: deep };
    const third = start();
    calls[2].end(deep);
    await Promise.resolve();
    const failed = tasks.get(third);
    assert.equal(failed.status, 'failed');
    assert.match(JSON.stringify(failed.error), /nested too deeply/);
  });

  test('input_required while the server asks, lastUpdatedAt when it changes; a task of another instance is said to be', () => {
    const { tasks, calls, start, later } = keeper();
    const taskId = start();
    const created = tasks.get(taskId);
    assert.equal(created.status, 'working');
    calls[0].asking = { '7': { method: 'elicitation/create', params: { message: 'Sure?' } } };
    assert.equal(tasks.get(taskId).status, 'input_required');
    assert.deepEqual(tasks.get(taskId).inputRequests, calls[0].asking);
    later(5_000);
    tasks.cancel(taskId);
    const cancelled = tasks.get(taskId);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.inputRequests, undefined);
    assert.equal(Date.parse(String(cancelled.lastUpdatedAt)) - Date.parse(String(created.lastUpdatedAt)), 5_000);
    assert.equal(calls[0].gaveUp.length, 1);
    assert.throws(() => tasks.get('1f0e.another-instance'), refused(-32602, /another bridge instance/));
  });
});
