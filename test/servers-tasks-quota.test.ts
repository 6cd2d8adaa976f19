// One client cannot take every task slot of a toolbox: each client address has a quota of unfinished tasks, and a
// client on another address is served while one sits at its quota.

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { startServer } from '../packages/servers/src/edge/serve.js';
import { DEFAULT_MAX_TASKS_PER_CLIENT, TaskStore } from '../packages/servers/src/edge/tasks.js';
import { ENVELOPE, MODERN, parseAnswer, type WireAnswer } from './servers-support.js';

const WITH_TASKS = {
  ...ENVELOPE,
  'io.modelcontextprotocol/clientCapabilities': { ...ENVELOPE['io.modelcontextprotocol/clientCapabilities'], extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

let nextId = 1;

/** tools/call slow_compute as a task, sent from `localAddress`. */
function startTask(url: string, localAddress: string): Promise<WireAnswer> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 300 }, _meta: WITH_TASKS } });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'slow_compute' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('end', () => resolve(parseAnswer(new Response(text, { status: res.statusCode ?? 0, headers: { 'content-type': String(res.headers['content-type'] ?? '') } }))));
        res.once('error', reject);
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

test('one address holds at most its quota of unfinished tasks; another address still starts one', { timeout: 60_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  const server = cleanup(await startServer({ port: 0, toolboxes: ['everything'] }));
  const url = server.urls.everything;
  for (let i = 0; i < DEFAULT_MAX_TASKS_PER_CLIENT; i++) {
    const answer = await startTask(url, '127.0.0.1');
    assert.equal(answer.body?.result?.resultType, 'task', `task ${i + 1}: ${answer.raw.slice(0, 200)}`);
  }
  const over = await startTask(url, '127.0.0.1');
  assert.notEqual(over.body?.result?.resultType, 'task', `one more from 127.0.0.1 is refused: ${over.raw.slice(0, 200)}`);
  assert.equal(over.body?.result?.isError, true);
  assert.match(JSON.stringify(over.body), new RegExp(`already holds ${DEFAULT_MAX_TASKS_PER_CLIENT} unfinished tasks`));
  const other = await startTask(url, '127.0.0.2');
  assert.equal(other.body?.result?.resultType, 'task', `127.0.0.2 is served: ${other.raw.slice(0, 200)}`);
});

test("a client's own oldest finished task makes room for its next; unfinished ones never do", { timeout: 10_000 }, async () => {
  const store = new TaskStore({ maxTasksPerClient: 2 });
  try {
    const done = await store.startingFor('a').start(async () => ({ content: [] }));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal((await store.get(done.taskId as string))?.status, 'completed');
    const forever = () => new Promise<Record<string, unknown>>(() => {});
    const first = await store.startingFor('a').start(forever);
    const second = await store.startingFor('a').start(forever);
    assert.equal(await store.get(done.taskId as string), undefined, 'the finished task made room');
    await assert.rejects(store.startingFor('a').start(forever), /already holds 2 unfinished tasks/);
    assert.ok((await store.get(first.taskId as string)) && (await store.get(second.taskId as string)));
    await store.startingFor('b').start(forever);
  } finally {
    await store.close();
  }
});
