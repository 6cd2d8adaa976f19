// Tasks from the command line against a 2025-11-25 server (the official reference server over loopback HTTP,
// test/support/reference-http.ts): `byhand call` asks for the task, follows it and tells each status; `--detach`
// prints its id. That server keeps a task in its session (@modelcontextprotocol/sdk/dist/esm/experimental/tasks/stores/
// in-memory.js, InMemoryTaskStore), and a session ends with the process that opened it, so `byhand task` from another
// process finds no such task, and says so plainly.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { byhand } from './support/cli.js';
import { startReferenceServer, type ReferenceServer } from './support/reference-http.js';

let server: ReferenceServer;
before(async () => {
  server = await startReferenceServer();
});
after(() => server?.close());

describe('tasks on the command line, 2025-11-25 form', { timeout: 60_000 }, () => {
  test('call follows the task to its result and tells its statuses', async () => {
    const { code, stdout, stderr } = await byhand('call', server.url, 'simulate-research-query', 'topic=tides');
    assert.equal(code, 0, stderr);
    assert.match(stdout, /Research Report: tides/);
    assert.match(stderr, /2025-11-25/);
    assert.match(stderr, /^task [\w-]+: working \(Gathering sources\.\.\.\)$/m);
    assert.match(stderr, /^task [\w-]+: completed/m);
  });

  test('call --detach prints the id; task get from another session finds no such task', async () => {
    const detached = await byhand('call', server.url, 'simulate-research-query', 'topic=moss', '--detach');
    assert.equal(detached.code, 0, detached.stderr);
    const id = detached.stdout.trim();
    assert.match(id, /^[\w-]+$/);
    assert.match(detached.stderr, new RegExp(`runs as task ${id} \\(working\\)`));
    assert.match(detached.stderr, /may keep a task only as long as the session that started it/);
    const got = await byhand('task', server.url, 'get', id);
    assert.equal(got.code, 1);
    assert.match(got.stderr, new RegExp(`✗ task get ${id} on .*-32602.*Task not found`));
    assert.match(got.stderr, /may keep a task only as long as the session that started it/);
  });
});
