// Tasks from the command line, the built command (support/cli.ts) against the Everything toolbox: `byhand call` follows a task and
// tells each status; `--detach` prints the id; `byhand task SERVER get|cancel ID` reads and cancels it.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { byhand } from './support/cli.js';
import { connect, TimeoutError } from '../packages/client/src/index.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';

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

describe("a task's wait is the caller's", { timeout: 60_000 }, () => {
  const scratch = mkdtempSync(join(tmpdir(), 'byhand-task-deadline-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  // A modern stdio server whose one tool runs as a task that never ends, with a ttl and a poll interval of ages.
  const server = join(scratch, 'forever.cjs');
  writeFileSync(server, `
const readline = require('node:readline');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const task = { taskId: 't-1', status: 'working', ttlMs: 1e15, pollIntervalMs: process.argv[2] === undefined ? 1e12 : JSON.parse(process.argv[2]) };
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  const ok = (result) => send({ jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete', ...result } });
  if (msg.method === 'server/discover') return ok({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'forever', version: '1' } });
  if (msg.method === 'tools/list') return ok({ tools: [{ name: 'forever', inputSchema: { type: 'object' } }] });
  if (msg.method === 'tools/call') return send({ jsonrpc: '2.0', id: msg.id, result: { resultType: 'task', ...task } });
  if (msg.method === 'tasks/get') return ok(task);
  if (msg.method === 'tasks/cancel') return process.stderr.write('cancelled ' + msg.params.taskId + '\\n'), ok({});
  send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
});
`);

  // The timeout also bounds the stdio server's start, so it leaves room for a node start on a loaded machine;
  // the injected-clock test below pins the waits themselves.
  test('--timeout bounds the whole wait, whatever ttlMs and pollIntervalMs the server names', async () => {
    const started = Date.now();
    const { code, stderr } = await byhand('call', 'forever', '--timeout', '8000', '--', process.execPath, server);
    assert.equal(code, 4, stderr);
    assert.match(stderr, /✗ .*tools\/call forever \(task t-1\) got no answer within 8000 ms/);
    assert.ok(Date.now() - started < 40_000, 'the wait ended at the deadline, not at a poll interval of ages');
  });

  test('with an injected clock: the waits add up to the timeout, each within the clamp, and the task is cancelled', async (t) => {
    const cleanup = cleanupAfter(t);
    for (const [asked, each] of [[1e12, 5_000], [-5, 100], ['soon', 1_000]] as const) {
      let now = Date.now();
      const waits: number[] = [];
      const sent: string[] = [];
      const client = cleanup(await connect(
        { command: process.execPath, args: [server, JSON.stringify(asked)] },
        {
          timeoutMs: 5_000,
          now: () => now,
          sleep: async (ms) => void (waits.push(ms), (now += ms)),
          onTrace: (entry) => void (entry.direction === 'send' && entry.message && 'method' in entry.message && sent.push(entry.message.method)),
        },
      ));
      await assert.rejects(client.callTool('forever'), (error: Error) => error instanceof TimeoutError && /tools\/call forever \(task t-1\) got no answer within 5000 ms/.test(error.message));
      await client.close();
      assert.equal(waits.reduce((a, b) => a + b, 0), 5_000, `pollIntervalMs ${asked}: the waits add up to the timeout`);
      assert.ok(waits.every((ms) => ms === each), `pollIntervalMs ${asked}: each wait is ${each} ms, not ${waits.join(', ')}`);
      assert.ok(sent.includes('tasks/cancel'), 'the task given up on is cancelled');
    }
  });

  test('--detach names the stdio server in its hint with secret arguments redacted', async () => {
    const { code, stdout, stderr } = await byhand('call', 'forever', '--detach', '--', process.execPath, server, '1e12', '--api-key', 'sk-SECRET-1');
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 't-1\n');
    assert.match(stderr, /follow it with: byhand task '.*--api-key \(redacted\)' get t-1/);
    assert.doesNotMatch(stderr, /SECRET/);
  });
});
