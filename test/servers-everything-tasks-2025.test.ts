// The Everything toolbox's task fixtures on a 2025 session, where no task can be made (a 2025 request has no
// extension to declare): each says in its 2025 listing that it may run as a task (`execution.taskSupport`, left out
// of the 2026 listing), and a task-only tool runs in the call as a 2025 server runs every tool: what it asks is
// pushed over the session, two questions at once for multi_input, and a protocol error is the call's JSON-RPC error.
// byhand's client against the toolbox as `byhand serve` runs it, over loopback HTTP.

import assert from 'node:assert/strict';
import { after, before, test } from './support/node-test.js';
import { connect, RpcError, type ElicitParams } from '../packages/client/src/index.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { textOf } from './servers-support.js';

const TASK_TOOLS = ['slow_compute', 'failing_job', 'protocol_error_job', 'confirm_delete', 'multi_input', 'test_tool_with_task'];

let server: RunningServer;
before(async () => {
  server = await startServer({ port: 0, host: '127.0.0.1', toolboxes: ['everything'] });
});
after(() => server?.close());

test('the task fixtures say in their 2025 listing that they may run as a task, and not in the 2026 one', async () => {
  const legacy = await connect(server.urls.everything, { era: 'legacy' });
  try {
    const listed = new Map((await legacy.listTools()).map((tool) => [tool.name, (tool as { execution?: unknown }).execution]));
    for (const name of TASK_TOOLS) assert.deepEqual(listed.get(name), { taskSupport: 'optional' }, name);
    assert.equal(listed.get('greet'), undefined, 'greet runs in the call only');
  } finally {
    await legacy.close();
  }
  const modern = await connect(server.urls.everything, { era: 'modern' });
  try {
    assert.deepEqual((await modern.listTools()).filter((tool) => 'execution' in tool).map((tool) => tool.name), []);
  } finally {
    await modern.close();
  }
});

// A server that asked one question after the other would leave the first answer waiting for ever: the test's timeout says so.
test('on a 2025 session a task-only tool runs in the call: its questions are pushed, its protocol error is a JSON-RPC error', { timeout: 20_000 }, async () => {
  const asked: ElicitParams[] = [];
  let both = false;
  let bothAsked = () => undefined as void;
  const bothOut = new Promise<void>((resolve) => (bothAsked = resolve));
  const client = await connect(server.urls.everything, {
    era: 'legacy',
    host: {
      elicit: async (params) => {
        asked.push(params);
        if (asked.length === 2) bothAsked();
        if (both) await bothOut;
        return { action: 'accept', content: { name: 'Ada', confirm: true } };
      },
    },
  });
  try {
    assert.equal(textOf(await client.callTool('confirm_delete', { filename: 'notes.txt' })), 'Deleted notes.txt');
    assert.deepEqual(asked.map((p) => p.message), ['Delete notes.txt?']);
    asked.length = 0;
    // Both questions are out before either is answered, on the call's own stream.
    both = true;
    assert.equal(textOf(await client.callTool('multi_input', {})), 'Thanks, Ada');
    assert.deepEqual(asked.map((p) => p.message).sort(), ['Go ahead?', 'Your name?']);
    const failed = await client.callTool('failing_job', {});
    assert.equal(failed.isError, true);
    assert.equal(textOf(failed), 'The job failed, as it always does');
    await assert.rejects(client.callTool('protocol_error_job', {}), (error: unknown) => error instanceof RpcError && error.code === -32603 && /fails on purpose/.test(error.message));
  } finally {
    await client.close();
  }
});
