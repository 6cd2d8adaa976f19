// The streams and environment a command runs with: the real process by default, injected in tests,
// so a command never reaches for process.* itself.

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
  /** Aborted when the command is to stop (a signal: shared/signals.ts): the work in flight is given up and the server closed. */
  interrupt?: AbortSignal;
}

export function processIO(): CommandIO {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/** Writes whole lines. */
export function lineWriter(stream: OutputStream): (line?: string) => void {
  return (line = '') => void stream.write(`${line}\n`);
}
