// The frame of every command: the flags parsed, --help, one failure style (fail.ts, JSON with --json) with the
// exit code from the one table, and whatever the command opened closed however it ends. A command is its spec
// and a body; shared/server-command.ts builds the frame of the commands that open one server on this one.

import { fail } from './fail.js';
import type { CommandIO } from './io.js';
import { helpText, parseCommand, usageLines, type CommandSpec, type Parsed } from './kit.js';

export interface CommandContext {
  parsed: Parsed;
  /** How a failure is reported: change `what` once the command knows what it is doing, `json` once flags are read. */
  failure: { what: string; json: boolean };
  /** Closes `close` however the command ends, after the failure (if any) is written; the last deferred closes first. */
  defer(close: () => unknown): void;
}

export interface CommandOptions {
  /** Told of a failure before it is written: a command's extra note, or the exit code when the command reported the failure itself. */
  onFailure?: (error: unknown) => number | void;
  /** Failures that are the command line's or the environment's (exit 2, with the usage), beside a UsageError. */
  isUsage?: (error: unknown) => boolean;
}

export async function runCommand(
  spec: CommandSpec,
  args: string[],
  io: CommandIO,
  body: (command: CommandContext) => Promise<number>,
  options: CommandOptions = {},
): Promise<number> {
  const failure = { what: `byhand ${spec.name}`, json: args.includes('--json') };
  const closes: (() => unknown)[] = [];
  try {
    const parsed = parseCommand(spec, args);
    if (parsed.help) return void io.stdout.write(`${helpText(spec)}\n`), 0;
    return await body({ parsed, failure, defer: (close) => void closes.push(close) });
  } catch (error) {
    const reported = options.onFailure?.(error);
    if (typeof reported === 'number') return reported;
    return fail(error, io, { ...failure, usage: usageLines(spec), ...(options.isUsage ? { isUsage: options.isUsage } : {}) });
  } finally {
    for (const close of closes.reverse()) await close();
  }
}
