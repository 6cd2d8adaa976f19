// The one argument parser every command uses (node:util parseArgs underneath), and the one help
// layout: synopsis, what the command does, every flag with its default. Mistakes are UsageErrors
// (exit 2) with a did-you-mean for flags.

import { parseArgs } from 'node:util';
import { didYouMean } from './did-you-mean.js';
import { EXIT_CODES_TEXT } from './exit-codes-text.js';
import { UsageError } from './usage-error.js';

export interface Flag {
  type: 'string' | 'boolean';
  /** The value's name in help: FILE, MS, K:V. */
  arg?: string;
  short?: string;
  /** May be given more than once; the values are collected in order. */
  multiple?: boolean;
  help: string;
  /** Shown in help as "(default: …)"; applying it is the command's job. */
  default?: string;
}

export interface CommandSpec {
  name: string;
  /** Usage lines without the "usage:" prefix. */
  synopsis: string[];
  about: string;
  flags: Record<string, Flag>;
  /** Text after the flags: what positional words mean, formats, environment variables. */
  notes?: string;
}

export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Parsed {
  values: Values;
  /** Words before a `--`. */
  positionals: string[];
  /** Words after a `--` (a server's command line), or undefined when there was none. */
  rest: string[] | undefined;
  help: boolean;
}

const HELP: Flag = { type: 'boolean', short: 'h', help: 'show this help' };

/** Throws UsageError for an unknown flag, a missing value or a value given to a switch. */
export function parseCommand(spec: CommandSpec, args: readonly string[]): Parsed {
  const flags: Record<string, Flag> = { ...spec.flags, help: HELP };
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, flag]) => [name, { type: flag.type, ...(flag.short ? { short: flag.short } : {}), ...(flag.multiple ? { multiple: true } : {}) }]),
  );
  // Not strict: unknown flags come back as tokens, so the message can name the command and suggest the nearest flag.
  const { values, tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  if (values.help === true) return { values, positionals: [], rest: undefined, help: true };
  const positionals: string[] = [];
  let rest: string[] | undefined;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') {
      rest = args.slice(token.index + 1);
      break;
    }
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    const flag = flags[token.name];
    if (!flag) {
      const names = Object.keys(flags).map((name) => `--${name}`);
      throw new UsageError(`byhand ${spec.name}: unknown option ${token.rawName}${didYouMean(token.rawName.replace(/^-+/, '--'), names)}`, true);
    }
    if (flag.type === 'boolean' && token.value !== undefined) throw new UsageError(`byhand ${spec.name}: ${token.rawName} takes no value`, true);
    if (flag.type === 'string' && (token.value === undefined || token.value === '' || (!token.inlineValue && token.value.startsWith('--')))) {
      throw new UsageError(`byhand ${spec.name}: ${token.rawName} needs a value${flag.arg ? ` (${flag.arg})` : ''}`, true);
    }
  }
  return { values, positionals, rest, help: false };
}

export function usageLines(spec: CommandSpec): string {
  return spec.synopsis.map((line, i) => `${i === 0 ? 'usage: ' : '       '}${line}`).join('\n');
}

export function helpText(spec: CommandSpec): string {
  const rows = Object.entries({ ...spec.flags, help: HELP }).map(([name, flag]) => {
    const left = `${flag.short ? `-${flag.short}, ` : ''}--${name}${flag.arg ? ` ${flag.arg}` : ''}`;
    const right = `${flag.help}${flag.multiple ? ' (repeatable)' : ''}${flag.default !== undefined ? ` (default: ${flag.default})` : ''}`;
    return [left, right] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length));
  const lines = [usageLines(spec), '', spec.about, '', 'options:', ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`)];
  if (spec.notes) lines.push('', spec.notes);
  // Every command exits by the one table; the checkpoint's notes say how several servers combine.
  if (!spec.notes?.includes(EXIT_CODES_TEXT)) lines.push('', EXIT_CODES_TEXT);
  return lines.join('\n');
}

export function stringFlag(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function listFlag(values: Values, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

export function booleanFlag(values: Values, name: string): boolean {
  return values[name] === true;
}

/** A positive whole number of milliseconds (every --timeout is in ms). */
export function msFlag(values: Values, name: string, fallback: number): number {
  const value = stringFlag(values, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a positive number of milliseconds, not ${JSON.stringify(value)}`, true);
  return Number(value);
}

export function positiveFlag(values: Values, name: string, fallback: number): number {
  const value = stringFlag(values, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a positive whole number, not ${JSON.stringify(value)}`, true);
  return Number(value);
}

export function choiceFlag<T extends string>(values: Values, name: string, choices: readonly T[], fallback: T): T {
  const value = stringFlag(values, name);
  if (value === undefined) return fallback;
  if (!(choices as readonly string[]).includes(value)) throw new UsageError(`--${name} must be ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}, not ${JSON.stringify(value)}`, true);
  return value as T;
}
