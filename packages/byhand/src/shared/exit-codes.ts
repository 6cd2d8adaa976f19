// The exit codes, the same for every command, plain or --json, so a script can tell "fix your
// command line" from "log in" from "the server is not there" from "the tool said no". The MCP
// Inspector CLI has a table of its own (0 ok, 1 usage, 2 no app, 3 auth, 4 unreachable, 5 tool
// error); byhand keeps 2 for usage, as its commands always have, and shares 3, 4 and 5.

import { McpError, type ErrorKind } from '@byhand/client';
import { UsageError } from './usage-error.js';

export const EXIT = {
  ok: 0,
  /** The request failed on the way: a JSON-RPC error, a protocol or server bug, a limit. */
  failed: 1,
  /** The command line was wrong: an unknown flag, server, tool or prompt name, a bad value. */
  usage: 2,
  /** The server wants a login or refused the credentials (401, 403, OAuth). */
  auth: 3,
  /** Nothing answered: no server at the address, a command that cannot start, or no answer in time. */
  unreachable: 4,
  /** The server did the work and says it failed: a tool result with isError, a task that ended failed. */
  toolError: 5,
  /** Stopped by a signal, 128 + its number as a shell reports it (shared/signals.ts): SIGHUP, a closed terminal. */
  hangup: 129,
  /** Ctrl-C at a question or anywhere else (SIGINT). */
  interrupted: 130,
  /** SIGTERM, a supervisor's stop. */
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The code for an error that stopped a command. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError) return EXIT.usage;
  if (!(error instanceof McpError)) return EXIT.failed;
  return EXIT_FOR_KIND[error.kind];
}

/** The one mapping from the library's kinds of failure to exit codes. */
const EXIT_FOR_KIND: Record<ErrorKind, ExitCode> = {
  auth: EXIT.auth,
  unreachable: EXIT.unreachable,
  timeout: EXIT.unreachable,
  cancelled: EXIT.failed,
  limit: EXIT.failed,
  protocol: EXIT.failed,
  server: EXIT.failed,
  host: EXIT.failed,
};

/** Several servers (checkpoint): 0 when all were fine, the one code they failed with when they agree, else 1. */
export function combinedExitCode(codes: readonly ExitCode[]): ExitCode {
  const failed = new Set(codes.filter((c) => c !== EXIT.ok));
  if (failed.size === 0) return EXIT.ok;
  return failed.size === 1 ? [...failed][0] : EXIT.failed;
}
