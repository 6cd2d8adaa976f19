// A signal stops the whole command, not only a question (issue 21, "Signals clean up"): the real binary,
// a stdio server started through an npx-style wrapper whose grandchild must not outlive byhand, and an SDK
// 2025 session server that must hear notifications/cancelled and then a DELETE.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import type { McpServer } from '@modelcontextprotocol/server';
import { buildServer, legacySessions, serve } from './fixtures/sdk-server.js';
import { startByhand, until, type RunningCli } from './support/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-signals-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

// What npx does: the wrapper starts the real server as its child and waits for it; the real server here
// writes its pid and then answers nothing, so byhand is still at work when the signal comes.
const wrapper = join(scratch, 'wrapper.mjs');
const grandchild = join(scratch, 'grandchild.mjs');
writeFileSync(wrapper, `import { spawn } from 'node:child_process';
const child = spawn(process.execPath, [${JSON.stringify(grandchild)}, process.argv[2]], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));
`);
writeFileSync(grandchild, `import { writeFileSync } from 'node:fs';
writeFileSync(process.argv[2], String(process.pid));
process.stdin.resume();
setInterval(() => {}, 1000);
`);

// A server that will not stop when asked: closing it takes the whole grace before SIGKILL.
const stubborn = join(scratch, 'stubborn.mjs');
// A server that ignores SIGTERM, and says when byhand's cleanup began (its stdin ended: the first step of close()).
writeFileSync(stubborn, `import { writeFileSync } from 'node:fs';
process.on('SIGTERM', () => {});
writeFileSync(process.argv[2], String(process.pid));
process.stdin.on('end', () => writeFileSync(process.argv[2] + '.closing', ''));
process.stdin.resume();
setInterval(() => {}, 1000);
`);

/** Gone, or a zombie: exited, and only waiting for a parent (or an init that may never reap it) to collect it. */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

const CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
const RUNS: [keyof typeof CODES, string[]][] = [
  ['SIGINT', ['call']],
  ['SIGTERM', ['list']],
  ['SIGHUP', ['watch']],
  ['SIGTERM', ['checkpoint']],
  ['SIGINT', ['list', '--json']],
];

for (const [signal, command] of RUNS) {
  test(`${signal} during byhand ${command.join(' ')} ends the stdio server's grandchild within 2 s and exits ${CODES[signal]}`, { skip: process.platform === 'win32', timeout: 30_000 }, async () => {
    const pidFile = join(scratch, `${signal}-${command.join('')}.pid`);
    let running: RunningCli | undefined;
    let pid: number | undefined;
    try {
      running = startByhand([...command, '--', process.execPath, wrapper, pidFile], { cwd: scratch });
      await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 'the grandchild to start');
      pid = Number(readFileSync(pidFile, 'utf8'));
      assert.ok(!gone(pid), 'the grandchild runs before the signal');
      running.child.kill(signal);
      const sent = Date.now();
      await until(() => gone(pid!), `the grandchild ${pid} to end after ${signal}`, 2000);
      assert.ok(Date.now() - sent <= 2000);
      assert.equal(await running.exit, CODES[signal], running.stderr());
      assert.match(running.stdout() + running.stderr(), new RegExp(`interrupted by ${signal}`));
      if (command.includes('--json')) {
        assert.deepEqual(JSON.parse(running.stdout()), { ok: false, error: { what: `list what ${process.execPath} ${wrapper} ${pidFile} offers`, code: 'interrupted', message: `interrupted by ${signal}` }, exitCode: CODES[signal] });
      }
    } finally {
      running?.child.kill('SIGKILL');
      if (pid !== undefined && !gone(pid)) process.kill(pid, 'SIGKILL');
    }
  });
}

test('SIGINT during a slow call on a 2025 session: the server hears notifications/cancelled, then the DELETE, and byhand exits 130', { timeout: 30_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  let toolAborted = false;
  const withSlowTool = (): McpServer => {
    const server = buildServer();
    server.registerTool('slow', { description: 'runs until cancelled' }, async (ctx) => {
      await new Promise<void>((resolve) => ctx.mcpReq.signal.addEventListener('abort', () => resolve(), { once: true }));
      toolAborted = true;
      return { content: [{ type: 'text', text: 'stopped' }] };
    });
    return server;
  };
  const served = cleanup(await serve(legacySessions(withSlowTool).handler));
  let running: RunningCli | undefined;
  try {
    running = startByhand(['call', served.url, 'slow', '--era', 'legacy'], { cwd: scratch });
    const bodies = () => served.requests.map((r) => (r.body ? (JSON.parse(r.body) as { id?: unknown; method?: string; params?: { requestId?: unknown } }) : {}));
    await until(() => bodies().some((b) => b.method === 'tools/call'), 'the tools/call');
    running.child.kill('SIGINT');
    assert.equal(await running.exit, 130, running.stderr());
    const call = bodies().find((b) => b.method === 'tools/call')!;
    const cancelled = bodies().findIndex((b) => b.method === 'notifications/cancelled' && b.params?.requestId === call.id);
    const deleted = served.requests.findIndex((r) => r.method === 'DELETE');
    assert.ok(cancelled >= 0, `no notifications/cancelled for the call: ${served.requests.map((r) => r.method).join(' ')}`);
    assert.ok(deleted > cancelled, 'the DELETE comes after the cancellation');
    await until(() => toolAborted, 'the tool to see the cancellation', 5000);
    assert.match(running.stderr(), /interrupted by SIGINT/);
  } finally {
    running?.child.kill('SIGKILL');
  }
});

test('a second signal during the cleanup exits at once, with its own code', { skip: process.platform === 'win32', timeout: 30_000 }, async () => {
  const pidFile = join(scratch, 'stubborn.pid');
  let running: RunningCli | undefined;
  let pid: number | undefined;
  try {
    running = startByhand(['list', '--', process.execPath, stubborn, pidFile], { cwd: scratch });
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 'the server to start');
    pid = Number(readFileSync(pidFile, 'utf8'));
    running.child.kill('SIGINT');
    // The cleanup has begun and, the server ignoring SIGTERM, has seconds to go: the second signal lands inside it.
    await until(() => existsSync(`${pidFile}.closing`), 'the cleanup to begin');
    running.child.kill('SIGTERM');
    // The server ignores SIGTERM, so a cleanup left to finish would end with the first signal's 130.
    assert.equal(await running.exit, 143, running.stderr());
  } finally {
    running?.child.kill('SIGKILL');
    // Its own process group: byhand left it, as a second signal allows.
    if (pid !== undefined && !gone(pid)) process.kill(-pid, 'SIGKILL');
  }
});
