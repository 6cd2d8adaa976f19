// The tasks extension (SEP-2663) from byhand's client against the Everything toolbox's task fixtures, over loopback:
// a tool that runs as a task is followed to its result, its input requests go through the host, failures and
// cancellation come back as errors, and without the extension declared the same tools answer synchronously or -32021.

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, before, describe, test } from './support/node-test.js';
import { AbortedError, connect, McpError, RpcError, type Task } from '../packages/client/src/index.js';
import { sleep } from '../packages/client/src/sleep.js';
import type { Host } from '../packages/client/src/types.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';

let server: RunningServer;
let url: string;
before(async () => {
  server = await startServer({ port: 0, toolboxes: ['everything'] });
  url = server.urls.everything!;
});
after(() => server.close());

/**
 * Polls every 10 ms whatever the server suggests: the test waits on the server's work, not on the poll interval. The
 * client's own sleep, so a poll leaves no listener behind on the call's signal (a hand-written one here once did, and
 * Node warned of a listener leak that was the test's).
 */
const quickPolls = { sleep: (_ms: number, signal: AbortSignal) => sleep(10, signal) };

const answering = (asked: string[]): Host => ({
  elicit: async (params) => {
    asked.push(params.message);
    const fields = Object.keys((params.requestedSchema as { properties?: object } | undefined)?.properties ?? {});
    return { action: 'accept', content: Object.fromEntries(fields.map((f) => [f, f === 'name' ? 'Ada' : true])) };
  },
});

describe('tools that run as tasks', { timeout: 30_000 }, () => {
  test('a task is polled to its result, and each status is reported', async () => {
    const client = await connect(url, quickPolls);
    try {
      const seen: Task['status'][] = [];
      const result = await client.callTool('slow_compute', { seconds: 0.2, label: 'pi' }, { onTask: (t) => seen.push(t.status) });
      assert.match(JSON.stringify(result.content), /Computed pi after 0\.2s/);
      assert.equal(seen[0], 'working');
      assert.equal(seen.at(-1), 'completed');
    } finally {
      await client.close();
    }
  });

  test("a task followed over many polls holds at most two listeners on the caller's signal, and none once it ends", async () => {
    // The polls are counted, not timed: the caller gives up after the 25th, whatever the machine's speed.
    const caller = new AbortController();
    let most = 0;
    let polls = 0;
    const counting = {
      sleep: (_ms: number, signal: AbortSignal) => {
        polls++;
        most = Math.max(most, getEventListeners(caller.signal, 'abort').length);
        if (polls === 25) caller.abort(new Error('enough polls'));
        return sleep(1, signal);
      },
    };
    const client = await connect(url, counting);
    try {
      await assert.rejects(client.callTool('slow_compute', { seconds: 60, label: 'e' }, { signal: caller.signal }), /enough polls/);
      assert.equal(polls, 25);
      assert.ok(most <= 2, `the caller's signal held ${most} listeners during the polls`);
      assert.equal(getEventListeners(caller.signal, 'abort').length, 0);
    } finally {
      await client.close();
    }
  });

  test("a task's input requests are fulfilled by the host and delivered with tasks/update", async () => {
    const asked: string[] = [];
    const client = await connect(url, { ...quickPolls, host: answering(asked) });
    try {
      assert.match(JSON.stringify((await client.callTool('confirm_delete', { filename: 'notes.txt' })).content), /Deleted notes\.txt/);
      assert.match(JSON.stringify((await client.callTool('multi_input', {})).content), /Thanks, Ada/);
      assert.match(JSON.stringify((await client.callTool('test_tool_with_task', {})).content), /Hello, Ada!/, 'MRTR first, then a task');
      assert.deepEqual(asked, ['Delete notes.txt?', 'Your name?', 'Go ahead?', 'What is your name?']);
    } finally {
      await client.close();
    }
  });

  test('a tool error is the result; a failed task throws its error', async () => {
    const client = await connect(url, quickPolls);
    try {
      const failed = await client.callTool('failing_job', {});
      assert.equal(failed.isError, true);
      await assert.rejects(client.callTool('protocol_error_job', {}), (error: McpError) => error.code === -32603 && /fails on purpose/.test(error.message));
    } finally {
      await client.close();
    }
  });

  test('aborting the call cancels the task on the server', async () => {
    const client = await connect(url, quickPolls);
    try {
      const controller = new AbortController();
      let taskId = '';
      const call = client.callTool('slow_compute', { seconds: 5 }, { signal: controller.signal, onTask: (t) => ((taskId = t.taskId), controller.abort()) });
      await assert.rejects(call, AbortedError);
      assert.equal((await client.getTask(taskId)).status, 'cancelled');
    } finally {
      await client.close();
    }
  });

  test('startTool returns the handle at once; getTask reads it later', async () => {
    const client = await connect(url, quickPolls);
    try {
      const started = await client.startTool('slow_compute', { seconds: 0.1 });
      assert.ok('task' in started);
      const { taskId } = started.task;
      let task = await client.getTask(taskId);
      for (let i = 0; i < 100 && task.status === 'working'; i++) {
        await quickPolls.sleep(10, new AbortController().signal);
        task = await client.getTask(taskId);
      }
      assert.equal(task.status, 'completed');
      assert.match(JSON.stringify(task.result), /Computed result/);
    } finally {
      await client.close();
    }
  });

  test('without the extension declared: the same tool answers synchronously, a task-only tool is -32021', async () => {
    const client = await connect(url, { ...quickPolls, tasks: false });
    try {
      assert.match(JSON.stringify((await client.callTool('slow_compute', { seconds: 0 })).content), /Computed result after 0s/);
      await assert.rejects(client.callTool('failing_job', {}), (error: RpcError) => error.code === -32021);
    } finally {
      await client.close();
    }
  });
});
