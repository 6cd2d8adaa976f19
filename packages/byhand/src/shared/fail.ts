// The one error style: `✗ <what failed>: <why>`, then `  hint: …` naming CLI flags rather than
// library options; with --json the same three fields as one JSON line on stdout. The exit code comes
// from the one table (exit-codes.ts): 2 for usage, 3 auth, 4 unreachable, 1 the rest. Everything a server said is made printable, and secrets redacted, first.

import { ListLimitError, McpError, NetworkError, redactText } from '@byhand/client';
import { InterruptedError, printable } from '@byhand/host';
import { networkHint } from './cause-hints.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import type { CommandIO } from './io.js';
import { redactWords } from './redact-words.js';
import { interruptOf } from './signals.js';
import { UsageError } from './usage-error.js';

export interface FailContext {
  /** What was being done: "call summarise_week on kitchen". */
  what: string;
  json: boolean;
  /** Usage lines, printed under a malformed command line. */
  usage?: string;
  /** Errors that are the caller's to fix (exit 2), beyond UsageError. */
  isUsage?: (error: unknown) => boolean;
}

export interface Failure {
  what: string;
  code: string | number;
  message: string;
  hint?: string;
}

/**
 * The library's messages and hints name an option a caller can change in backticks (`timeoutMs`); a person at the
 * shell has a flag or a command for it. The one table: an option with no entry keeps its library name.
 */
const FLAG_FOR_OPTION: Record<string, string> = {
  timeoutMs: '--timeout MS',
  answersFile: '--answers FILE',
  roots: '--root',
  yes: '--yes',
  clientId: '--client-id',
  clientSecret: '--client-secret',
  headers: '--header',
  authorize: '`byhand login --headless`',
  listTools: '`byhand list SERVER`',
};

export function cliText(text: string): string {
  return text.replace(/`([A-Za-z.]+)`/g, (whole, option: string) => FLAG_FOR_OPTION[option] ?? whole);
}

/** The hint for the shell: the library's in the command's words, unless the failure under it says more. */
export function cliHint(error: McpError): string {
  return cliText((error instanceof NetworkError ? networkHint(error) : undefined) ?? error.hint);
}

/** Printable and redacted by the one rule (client redact.ts): "what" names the server as typed, URL query keys included. */
const safe = (text: string) => printable(redactText(text));

/** A list past its bound has no flag to raise: what a person can do is ask for less. */
export const ASK_FOR_LESS = 'the server sent more than byhand holds for one list; ask for less: one kind at a time (`byhand list SERVER tools`), a resource by its URI (`byhand read SERVER URI`)';

export function describeFailure(error: unknown, what: string): Failure {
  // "what" may be a command line (`call -- node server.js --token …`): its secret words go too. Messages are prose,
  // where `key=value` is a phrase, not a secret.
  const named = printable(redactWords(what));
  if (error instanceof ListLimitError) return { what: named, code: error.code, message: safe(error.message), hint: ASK_FOR_LESS };
  if (error instanceof McpError) return { what: named, code: error.code, message: safe(cliText(error.message)), hint: safe(cliHint(error)) };
  if (error instanceof UsageError) return { what: named, code: 'usage', message: safe(error.message) };
  const hint = listenHint(error);
  return { what: named, code: 'error', message: safe(cliText(error instanceof Error ? error.message : String(error))), ...(hint !== undefined ? { hint } : {}) };
}

/** A port that could not be listened on (serve, bridge --listen): why, and what to do. */
function listenHint(error: unknown): string | undefined {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'EADDRINUSE':
      return 'another program (another byhand, perhaps) already listens on that port: stop it, or choose another port (0 takes a free one)';
    case 'EACCES':
      return 'this user may not listen on that port (below 1024 needs privileges): choose a port of 1024 or above';
    case 'EADDRNOTAVAIL':
      return 'that address is not one of this machine\'s: listen on 127.0.0.1, or on an address the machine has';
    default:
      return undefined;
  }
}

/** Writes the failure and returns the exit code. */
export function fail(error: unknown, io: Pick<CommandIO, 'stdout' | 'stderr' | 'interrupt'>, ctx: FailContext): number {
  // A signal stopped the command: whatever failed after it failed because of it.
  const interrupted = interruptOf(io.interrupt);
  if (interrupted) return stopped(interrupted, io, ctx);
  const atQuestion = ctrlCAtQuestion(error);
  if (atQuestion) return stopped({ message: atQuestion.message, exitCode: EXIT.interrupted }, io, ctx);
  const usage = error instanceof UsageError || ctx.isUsage?.(error) === true;
  const exitCode = usage ? EXIT.usage : exitCodeFor(error);
  const failure = describeFailure(error, ctx.what);
  if (ctx.json) {
    io.stdout.write(`${JSON.stringify({ ok: false, error: failure, exitCode })}\n`);
    return exitCode;
  }
  // A usage mistake is its own "what": the message already names the word that was wrong.
  const lines = [usage ? `✗ ${failure.message}` : `✗ ${failure.what}: ${failure.message}`];
  if (failure.hint) lines.push(`  hint: ${failure.hint}`);
  if (error instanceof UsageError && error.showUsage && ctx.usage) lines.push(ctx.usage);
  io.stderr.write(`${lines.join('\n')}\n`);
  return exitCode;
}

/**
 * Ctrl-C at a question (a terminal in raw mode gives it to the question, not to the process as a signal), however
 * deep in the causes of what failed: a host callback's refusal carries it as its cause.
 */
function ctrlCAtQuestion(error: unknown): InterruptedError | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth++) {
    if (cause instanceof InterruptedError) return cause;
  }
  return undefined;
}

function stopped(interrupted: { message: string; exitCode: number }, io: Pick<CommandIO, 'stdout' | 'stderr'>, ctx: FailContext): number {
  const failure: Failure = { what: printable(redactWords(ctx.what)), code: 'interrupted', message: interrupted.message };
  if (ctx.json) io.stdout.write(`${JSON.stringify({ ok: false, error: failure, exitCode: interrupted.exitCode })}\n`);
  else io.stderr.write(`✗ ${failure.what}: ${failure.message}\n`);
  return interrupted.exitCode;
}
