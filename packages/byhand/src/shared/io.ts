// The streams, folder and environment a command runs with: the real process's by default, injected in tests, so a
// command never reaches for process.* itself and several can run in one process.

import type { VerdictCache } from '@byhand/client';
import type { Env } from '@byhand/host';
import type { InputStream, OutputStream } from '@byhand/host';

export interface CommandIO {
  /** Results only, so `byhand call ... | jq` works. */
  stdout: OutputStream;
  /** Narration, prompts, traces and errors. */
  stderr: OutputStream;
  /** Where form answers and approvals are typed. */
  stdin: InputStream;
  /** Chooses the sampling provider and expands ${VAR} in config files. */
  env: Env;
  /** The folder the command runs in: its own config is looked for there, a stdio server starts there, roots start there. */
  cwd: string;
  /** What this run has found out so far. */
  memory: RunMemory;
  /** Aborted when the command is to stop (a signal: shared/signals.ts): the work in flight is given up and the server closed. */
  interrupt?: AbortSignal;
}

/** What one run learns as it goes, kept for that run alone: a process is one run, and runs in one process share none of it. */
export interface RunMemory {
  /** The servers' eras as found; made by the first connection (runVerdicts), so a command that opens none loads no client. */
  verdicts?: VerdictCache;
  /** Each folder's trust, decided once: a command that resolves several names asks once. */
  trust: Map<string, Promise<boolean>>;
  /** Values a config took from a variable or an input, in each form they are printed in: left out of every line (secret-values.ts). */
  secrets: Set<string>;
}

export function newRunMemory(): RunMemory {
  return { trust: new Map(), secrets: new Set() };
}

export function processIO(): CommandIO {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd(), memory: newRunMemory() };
}

/** Writes whole lines. */
export function lineWriter(stream: OutputStream): (line?: string) => void {
  return (line = '') => void stream.write(`${line}\n`);
}
