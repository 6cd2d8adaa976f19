// Tasks from the command line, the real binary against the Everything toolbox: `byhand call` follows a task and
// tells each status; `--detach` prints the id; `byhand task SERVER get|cancel ID` reads and cancels it.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { byhand } from './support/cli.js';
import { startServer, type RunningServer } from '../packages/servers/src/serve.js';

let server: RunningServer;
let url: string;
before(async () => {
  server = await startServer({ port: 0, toolboxes: ['everything'] });
  url = server.urls.everything!;
});
after(() => server.close());

describe('tasks on the command line', { timeout: 60_000 }, () => {
  test('call follows a task to its result and tells its statuses', async () => {
    const { code, stdout, stderr } = await byhand('call', url, 'slow_compute', 'seconds=0.3', 'label=pi');
    assert.equal(code, 0, stderr);
    assert.match(stdout, /Computed pi after 0\.3s/);
    assert.match(stderr, /^task [\w-]+: working$/m);
    assert.match(stderr, /^task [\w-]+: completed$/m);
  });

  test('call --detach prints the id; task get reads it, task cancel stops one still running', async () => {
    const detached = await byhand('call', url, 'slow_compute', 'seconds=0.2', '--detach');
    assert.equal(detached.code, 0, detached.stderr);
    const id = detached.stdout.trim();
    assert.match(id, /^[\w-]+$/);
    assert.match(detached.stderr, new RegExp(`byhand task \\S+ get ${id}`));
    let got = await byhand('task', url, 'get', id);
    for (let i = 0; i < 50 && /: working/.test(got.stdout); i++) got = await byhand('task', url, 'get', id);
    assert.match(got.stdout, new RegExp(`task ${id}: completed`));
    assert.match(got.stdout, /Computed result after 0\.2s/);

    const long = (await byhand('call', url, 'slow_compute', 'seconds=30', '--detach')).stdout.trim();
    const cancelled = await byhand('task', url, 'cancel', long);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    const after = await byhand('task', url, 'get', long, '--json');
    assert.equal(JSON.parse(after.stdout).status, 'cancelled');
    assert.equal(after.code, 1);
  });

  test('task get of an unknown id fails plainly', async () => {
    const { code, stderr } = await byhand('task', url, 'get', 'no-such-task');
    assert.equal(code, 1);
    assert.match(stderr, /✗ task get no-such-task on .*No task "no-such-task"/);
  });
});
