// byhand as a user runs it, two ways. `byhand`/`byhandIn`: the built command (dist/bin/cli.js, the code the binary
// runs) called in the test's own process, with its streams, folder and environment injected: a test file loads the
// command and the toolboxes once, not once per command line. `byhandBinary` and `startByhand`: the binary in a child
// process, for what only a process shows (exit codes set by the binary, signals, what a child inherits). Both with the
// offline provider, and both give the exit code and both streams, whether the command succeeded or not.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { CommandIO } from '../../packages/byhand/src/shared/io.js';
import { collector, runOwn } from './collector.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = fileURLToPath(new URL('../../packages/byhand/bin/byhand.js', import.meta.url));
const builtCli = pathToFileURL(fileURLToPath(new URL('../../packages/byhand/dist/bin/cli.js', import.meta.url))).href;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

interface Where {
  cwd: string;
  /** Added to the test process's environment; `undefined` unsets a variable. */
  env?: Record<string, string | undefined>;
  /** Replaces the environment: the command sees these variables and no others. */
  onlyEnv?: Record<string, string>;
  /** Given up (the command's interrupt) after this long. */
  timeoutMs?: number;
}

function environment(where: Where): Record<string, string> {
  const env: Record<string, string | undefined> = where.onlyEnv ?? { ...process.env, BYHAND_PROVIDER: 'offline', ...where.env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env as Record<string, string>;
}

type Main = (args: string[], io: CommandIO) => Promise<number>;
let built: Promise<Main> | undefined;

export function byhand(...args: string[]): Promise<CliRun> {
  return byhandIn({ cwd: root }, ...args);
}

/**
 * In a folder (a project's), with the environment changed (a temporary HOME). stdin is empty and not a terminal, as
 * from </dev/null. Relative paths on the command line, and the variables a stdio server it starts inherits, are the
 * test process's: a test about those runs `byhandBinary`.
 */
export async function byhandIn(where: Where, ...args: string[]): Promise<CliRun> {
  // Not a literal: the test bundler leaves it alone, so the test runs the build, as the binary does.
  const main = await (built ??= import(builtCli).then((module: { main: Main }) => module.main));
  const stdout = collector();
  const stderr = collector();
  const stdin = new PassThrough();
  stdin.end();
  const interrupt = AbortSignal.timeout(where.timeoutMs ?? 30_000);
  const code = await main(args, { stdout, stderr, stdin, env: environment(where), ...runOwn(where.cwd), interrupt });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The binary in a child process. */
export async function byhandBinary(where: Where, ...args: string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: where.cwd, env: environment(where), timeout: where.timeoutMs ?? 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The exit code, or 128 + the signal's number when a signal ended it, as a shell reports it. */
  exit: Promise<number>;
}

/**
 * The binary left running, for what happens while it works (signals, a watch): stdin ignored, both streams kept, in
 * `cwd`, with the test process's environment or `onlyEnv`. It is killed (SIGKILL, exit 137) after `capMs`, so a test
 * awaiting an exit that never comes fails instead of holding the run open; a caller that stops it itself, and may run
 * it longer, passes Infinity.
 */
export function startByhand(args: string[], { cwd = root, onlyEnv, env = {}, capMs = 45_000 }: { cwd?: string; onlyEnv?: Record<string, string>; env?: Record<string, string>; capMs?: number } = {}): RunningCli {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env: environment({ cwd, onlyEnv, env: { NO_COLOR: '1', ...env } }), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const cap = Number.isFinite(capMs) ? setTimeout(() => child.kill('SIGKILL'), capMs) : undefined;
  const exit = new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? 128 + (signal ? constants.signals[signal] : 0)))).finally(() => clearTimeout(cap));
  return { child, stdout: () => out, stderr: () => err, exit };
}

/** Polls `condition` every 25 ms until it holds, for at most `ms`. */
export async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
