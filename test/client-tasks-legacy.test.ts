// Tasks in their 2025-11-25 form (a capability agreed at initialize, `task: {}` on tools/call, CreateTaskResult,
// tasks/get, tasks/result, tasks/cancel), from byhand's client against the official reference server over loopback
// HTTP (test/support/reference-http.ts); then the polling bounds, against a scripted server with an injected clock.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { connect, RpcError, type Task } from '../packages/client/src/index.js';
import { legacyEra } from '../packages/client/src/legacy-door.js';
import type { Send } from '../packages/client/src/connection.js';
import { sleep } from '../packages/client/src/sleep.js';
import { followTask } from '../packages/client/src/tasks.js';
import { TimeoutError } from '../packages/client/src/errors.js';
import type { JsonObject, JsonRpcMessage } from '../packages/client/src/types.js';
import { startReferenceServer, type ReferenceServer } from './support/reference-http.js';

const era = await legacyEra();
/** The 2025-11-25 task form as followTask uses it; cancel is the client's, the same in both eras. */
const legacyTaskOps = (send: Send) => ({ ...era.legacyTaskOps(send), cancel: (taskId: string) => send('tasks/cancel', { taskId }) });

let server: ReferenceServer;
before(async () => {
  server = await startReferenceServer();
});
after(() => server?.close());

const TOOL = 'simulate-research-query';

function sent(trace: JsonRpcMessage[], method: string): JsonObject[] {
  return trace.filter((m) => 'method' in m && m.method === method && 'id' in m).map((m) => (m as { params?: JsonObject }).params ?? {});
}

// Concurrent: the reference server's work takes seconds of its own real time (its stages are setTimeout calls in
// dist/tools/simulate-research-query.js), and each test has its own client and session.
describe('tasks on a 2025-11-25 server (the reference server)', { timeout: 60_000, concurrency: true }, () => {
  test('callTool asks for a task, polls tasks/get at its pollInterval, and returns what tasks/result holds', async (t) => {
    const cleanup = cleanupAfter(t);
    const trace: JsonRpcMessage[] = [];
    const waits: number[] = [];
    const client = cleanup(await connect(server.url, {
      era: 'legacy',
      onTrace: (entry) => entry.direction === 'send' && entry.message && trace.push(entry.message),
      // The server's work takes four seconds whatever the client does; the waits are recorded and kept short.
      sleep: (ms, signal) => (waits.push(ms), sleep(50, signal)),
    }));
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.deepEqual(sent(trace, 'initialize')[0]?.capabilities && (sent(trace, 'initialize')[0].capabilities as JsonObject).tasks, {});
    const seen: Task[] = [];
    const result = await client.callTool(TOOL, { topic: 'tides' }, { onTask: (t) => seen.push(t) });
    assert.match(JSON.stringify(result.content), /Research Report: tides/);
    assert.deepEqual(sent(trace, 'tools/call').at(-1)?.task, {});
    assert.equal(seen[0]?.status, 'working');
    assert.equal(seen[0]?.pollIntervalMs, 1000, "the 2025-11-25 pollInterval, renamed");
    assert.equal(seen[0]?.ttlMs, 300_000);
    assert.ok(seen.some((t) => t.statusMessage === 'Analyzing content...'), 'each statusMessage is told');
    assert.equal(seen.at(-1)?.status, 'completed');
    assert.ok(waits.length > 0 && waits.every((ms) => ms === 1000), `waits honour pollInterval: ${waits.join(', ')}`);
    assert.equal(sent(trace, 'tasks/result').length, 1);
  });

  test("a task's elicitation arrives on tasks/result's stream and is answered by the host", async (t) => {
    const cleanup = cleanupAfter(t);
    const asked: string[] = [];
    const client = cleanup(await connect(server.url, {
      era: 'legacy',
      host: {
        elicit: async (params) => {
          asked.push(params.message);
          return { action: 'accept', content: { interpretation: 'historical' } };
        },
      },
      sleep: (_ms, signal) => sleep(50, signal),
    }));
    const statuses: string[] = [];
    const result = await client.callTool(TOOL, { topic: 'python', ambiguous: true }, { onTask: (t) => statuses.push(t.status) });
    assert.equal(asked.length, 1);
    assert.match(asked[0], /could have multiple interpretations/);
    assert.match(JSON.stringify(result.content), /Research Report: python \(historical\)/);
    assert.ok(statuses.includes('input_required'), statuses.join(' '));
    assert.equal(statuses.at(-1), 'completed');
  });

  test('startTool returns the task; getTask reads it, cancelTask stops it, a second cancel is refused', async (t) => {
    const cleanup = cleanupAfter(t);
    const client = cleanup(await connect(server.url, { era: 'legacy' }));
    const started = await client.startTool(TOOL, { topic: 'moss' });
    assert.ok('task' in started, 'a task-only tool starts as a task');
    const { taskId } = started.task;
    assert.equal((await client.getTask(taskId)).status, 'working');
    await client.cancelTask(taskId);
    const cancelled = await client.getTask(taskId);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.result, undefined);
    await assert.rejects(client.cancelTask(taskId), (e: unknown) => e instanceof RpcError && e.code === -32602);
    await assert.rejects(client.getTask('no-such-task'), (e: unknown) => e instanceof RpcError && e.code === -32602);
  });

  test('with tasks off the client asks for none, and a task-only tool is refused', async (t) => {
    const cleanup = cleanupAfter(t);
    const client = cleanup(await connect(server.url, { era: 'legacy', tasks: false }));
    // The spec says -32601 (tasks.mdx, Tool-Level Negotiation); SDK 1.x's McpServer makes every tool failure an
    // isError result (@modelcontextprotocol/sdk/dist/esm/server/mcp.js, the tools/call handler's catch).
    const refused = await client.callTool(TOOL, { topic: 'x' });
    assert.equal(refused.isError, true);
    assert.match(JSON.stringify(refused.content), /-32601: Tool simulate-research-query requires task augmentation/);
    assert.match(JSON.stringify((await client.callTool('echo', { message: 'hi' })).content), /hi/, 'other tools are called as before');
  });
});

/** A scripted 2025-11-25 server: each tasks/get answers the next status; tasks/result answers `outcome`. */
function scripted(statuses: string[], outcome: () => Promise<JsonObject>, calls: string[]): Send {
  let polls = 0;
  return async (method) => {
    calls.push(method);
    if (method === 'tasks/get') return { taskId: 't1', status: statuses[Math.min(polls++, statuses.length - 1)], ttl: 5_000, pollInterval: 2_000, createdAt: '', lastUpdatedAt: '' };
    if (method === 'tasks/result') return outcome();
    return {};
  };
}

describe('following a 2025-11-25 task: the bounds', { timeout: 10_000 }, () => {
  const handle: Task = { taskId: 't1', status: 'working', ttlMs: 5_000, pollIntervalMs: 2_000 };

  test('a task that never ends is given up at its ttl, by the injected clock, after a bounded number of polls', async () => {
    let now = 0;
    const calls: string[] = [];
    const waits: number[] = [];
    const sleep = async (ms: number) => void (waits.push(ms), (now += ms));
    const follow = followTask(legacyTaskOps(scripted(['working'], async () => ({}), calls)), handle, { host: {}, name: 'job', signal: new AbortController().signal, maxRounds: 10, sleep, now: () => now });
    await assert.rejects(follow, /did not finish within its ttl of 5000 ms/);
    assert.deepEqual(waits, [2000, 2000, 2000], 'pollInterval honoured until the ttl ran out');
    assert.deepEqual(calls, ['tasks/get', 'tasks/get', 'tasks/get']);
  });

  test('input_required opens tasks/result; when that outlasts the request timeout, polling goes on', async () => {
    let now = 0;
    const calls: string[] = [];
    let results = 0;
    const outcome = async () => {
      if (++results === 1) throw new TimeoutError('tasks/result', 30_000);
      return { content: [{ type: 'text', text: 'done' }] };
    };
    const send = scripted(['input_required', 'input_required', 'completed'], outcome, calls);
    const result = await followTask(legacyTaskOps(send), handle, { host: {}, name: 'job', signal: new AbortController().signal, maxRounds: 10, sleep: async (ms) => void (now += ms), now: () => now });
    assert.deepEqual(result, { content: [{ type: 'text', text: 'done' }] });
    assert.deepEqual(calls, ['tasks/get', 'tasks/result', 'tasks/get', 'tasks/result', 'tasks/get']);
  });

  test('a failed task carries its tool result (isError) or its JSON-RPC error', async () => {
    const failedWithResult = scripted(['failed'], async () => ({ content: [{ type: 'text', text: 'no' }], isError: true }), []);
    const result = await followTask(legacyTaskOps(failedWithResult), handle, { host: {}, name: 'job', signal: new AbortController().signal, maxRounds: 10, sleep: async () => undefined });
    assert.equal(result.isError, true);
    const failedWithError = scripted(['failed'], async () => {
      throw new RpcError({ code: -32603, message: 'boom' }, { method: 'tasks/result', params: {} } as never);
    }, []);
    await assert.rejects(
      followTask(legacyTaskOps(failedWithError), handle, { host: {}, name: 'job', signal: new AbortController().signal, maxRounds: 10, sleep: async () => undefined }),
      /task t1 \(job\) failed: boom/,
    );
  });
});
