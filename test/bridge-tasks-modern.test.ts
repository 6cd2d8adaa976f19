// A 2025 server's tasks for a 2026 host through `byhand bridge --listen`: byhand's client speaks the modern era to the
// bridge and declares the tasks extension (SEP-2663); behind the bridge the official reference server runs its
// task-only tool in the 2025-11-25 form (test/support/reference-http.ts). The host gets the task's handle, follows it
// with tasks/get, answers the elicitation the task asks on tasks/result with tasks/update, and cancels with
// tasks/cancel. A host that does not declare the extension gets the task's result in the call. Each test has its
// own client (the reference server's work takes seconds of its own real time, so they run at once). A 2025 server
// that runs no 2025 tasks has its tasks made by the bridge (test/bridge-made-tasks.test.ts).

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { listen, type Listening } from './support/bridge-listen.js';
import { startReferenceServer, type ReferenceServer } from './support/reference-http.js';
import { connect, RpcError, TASKS_EXTENSION, type Client, type ConnectOptions, type Task } from '../packages/client/src/index.js';
import { sleep } from '../packages/client/src/sleep.js';

const TOOL = 'simulate-research-query';

describe('byhand bridge: a 2025 server\'s tasks for a 2026 host', { timeout: 60_000, concurrency: true }, () => {
  let server: ReferenceServer;
  let bridge: Listening;
  before(async () => {
    server = await startReferenceServer();
    bridge = await listen([server.url]);
  });
  after(async () => {
    await bridge?.stop();
    await server?.close();
  });

  /** A 2026 host on the bridge; its polls wait 50 ms, whatever interval the task names. */
  async function host(options: ConnectOptions = {}): Promise<Client> {
    const client = await connect(bridge.url, { era: 'modern', sleep: (_ms, signal) => sleep(50, signal), ...options });
    assert.equal(client.era, 'modern');
    return client;
  }

  test('the server says it runs tasks as the extension; a call runs as a task, and its elicitation is answered with tasks/update', async () => {
    const asked: string[] = [];
    const client = await host({
      host: {
        elicit: async (params) => {
          asked.push(params.message);
          return { action: 'accept', content: { interpretation: 'historical' } };
        },
      },
    });
    try {
      const extensions = client.serverCapabilities.extensions as Record<string, unknown> | undefined;
      assert.deepEqual(extensions?.[TASKS_EXTENSION], {});
      assert.equal(client.serverCapabilities.tasks, undefined, 'the 2025 capability is not a 2026 one');
      const statuses: Task['status'][] = [];
      const result = await client.callTool(TOOL, { topic: 'python', ambiguous: true }, { onTask: (t) => statuses.push(t.status) });
      assert.match(JSON.stringify(result.content), /Research Report: python \(historical\)/);
      assert.equal(asked.length, 1);
      assert.match(asked[0], /could have multiple interpretations/);
      assert.equal(statuses[0], 'working');
      assert.ok(statuses.includes('input_required'), statuses.join(' '));
      assert.equal(statuses.at(-1), 'completed');
    } finally {
      await client.close();
    }
  });

  test('startTool gets the handle; tasks/get reads the task, tasks/cancel stops it; an unknown task is refused', async () => {
    const client = await host();
    try {
      const started = await client.startTool(TOOL, { topic: 'moss' });
      assert.ok('task' in started, JSON.stringify(started));
      const { taskId } = started.task;
      assert.equal(started.task.ttlMs, 300_000);
      assert.equal((await client.getTask(taskId)).status, 'working');
      await client.cancelTask(taskId);
      assert.equal((await client.getTask(taskId)).status, 'cancelled');
      await assert.rejects(client.getTask('no-such-task'), (e: unknown) => e instanceof RpcError && e.code === -32602);
    } finally {
      await client.close();
    }
  });

  test("a host that declares the extension hears the progress of a call the server answers at once, under its own token", async () => {
    const client = await host();
    try {
      const heard: number[] = [];
      const result = await client.callTool('trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onProgress: (p) => void heard.push(p.progress) });
      assert.match(JSON.stringify(result.content), /Long running operation completed/);
      assert.deepEqual(heard, [1, 2, 3]);
    } finally {
      await client.close();
    }
  });

  test('a host that does not declare the extension gets the result in the call, the bridge following the task', async () => {
    const client = await host({ tasks: false });
    try {
      const result = await client.callTool(TOOL, { topic: 'tides' });
      assert.match(JSON.stringify(result.content), /Research Report: tides/);
      await assert.rejects(client.getTask('any'), (e: unknown) => e instanceof RpcError && e.code === -32021);
    } finally {
      await client.close();
    }
  });
});
