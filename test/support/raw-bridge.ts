// `byhand bridge ARGS` on stdio with the test as its host: raw JSON-RPC lines in, each line it writes parsed, its
// stderr and exit code kept. Nothing waits without a bound: `exitWithin` gives up, `stop` kills after 5 s.

import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bin } from './cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export type Line = Record<string, unknown> & { method?: string; id?: unknown; result?: unknown; error?: { code?: number; message?: string }; params?: Record<string, unknown> & { _meta?: Record<string, unknown> } };

export interface RawBridge {
  child: ChildProcessWithoutNullStreams;
  /** The exit code, or 'still running' after `ms`, so a bridge that does not exit fails the test instead of hanging it. */
  exitWithin(ms: number): Promise<number | 'still running'>;
  /** Ctrl-C: the bridge must exit 130 within two seconds, whatever it was doing. */
  interruptAndExpectPromptExit(): Promise<void>;
  stderr(): string;
  lines(): Line[];
  send(...messages: object[]): void;
  /** Closes stdin and waits for the exit, killing the bridge after 5 s. */
  stop(): Promise<void>;
}

export function rawBridge(args: string[]): RawBridge {
  const child = spawn(process.execPath, [bin, 'bridge', ...args], { cwd: root, env: { ...process.env, BYHAND_PROVIDER: 'offline', NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exit = new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : -1))));
  const exitWithin = async (ms: number): Promise<number | 'still running'> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([exit, new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), ms)))]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    child,
    exitWithin,
    interruptAndExpectPromptExit: async () => {
      const sent = Date.now();
      child.kill('SIGINT');
      assert.equal(await exitWithin(2_000), 130, err);
      assert.ok(Date.now() - sent < 2_000, `exited ${Date.now() - sent} ms after the signal`);
    },
    stderr: () => err,
    lines: () => out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line),
    send: (...messages) => {
      for (const message of messages) child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    },
    stop: async () => {
      child.stdin.end();
      if ((await exitWithin(5_000)) === 'still running') {
        child.kill('SIGKILL');
        await exit;
      }
    },
  };
}
