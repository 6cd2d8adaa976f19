// The real binary in a child process, from the repository root, with the offline provider: its exit code and both
// streams, whether it succeeded or not.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = fileURLToPath(new URL('../../packages/byhand/bin/byhand.js', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function byhand(...args: string[]): Promise<CliRun> {
  return byhandIn({ cwd: root }, ...args);
}

/** In another folder (a project's), with the environment changed (a temporary HOME): `undefined` unsets a variable. */
export async function byhandIn(where: { cwd: string; env?: Record<string, string | undefined> }, ...args: string[]): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, BYHAND_PROVIDER: 'offline', ...where.env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: where.cwd, env, timeout: 30_000 });
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
 * The binary left running, for what happens while it works (signals): stdin ignored, both streams kept. It is killed
 * (SIGKILL, exit 137) after `capMs`, so a test awaiting an exit that never comes fails instead of holding the run
 * open; a caller that stops it itself, and may run it longer, passes Infinity.
 */
export function startByhand(args: string[], cwd = root, capMs = 45_000): RunningCli {
  const child = spawn(process.execPath, [join(root, 'packages/byhand/bin/byhand.js'), ...args], { cwd, env: { ...process.env, BYHAND_PROVIDER: 'offline', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
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
