import { UsageError, type Verb } from './usage.js';

export type EraChoice = 'auto' | 'modern' | 'legacy';

export interface CallFlags {
  config?: string;
  yes: boolean;
  answers?: string;
  roots: string[];
  trace: boolean;
  json: boolean;
  era: EraChoice;
  timeoutMs?: number;
}

export interface CallArgs {
  verb: Verb;
  server: string;
  /** The tool or prompt name, or the resource URI. */
  name: string;
  /** The key=value words, unparsed: their meaning depends on the tool's schema. */
  pairs: string[];
  flags: CallFlags;
}

const VALUE_FLAGS = new Set(['--config', '--answers', '--root', '--era', '--timeout']);
const SWITCHES = new Set(['--yes', '--trace', '--json']);
const WHAT: Record<Verb, string> = { call: 'TOOL', read: 'URI', prompt: 'NAME' };

/** `{ help: true }` for --help; throws UsageError for anything malformed. */
export function parseCallArgs(verb: Verb, args: readonly string[]): CallArgs | { help: true } {
  const flags: CallFlags = { yes: false, roots: [], trace: false, json: false, era: 'auto' };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      if (arg === '-h') return { help: true };
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (flag === '--help') return { help: true };
    if (SWITCHES.has(flag)) {
      if (eq > 0) throw new UsageError(`${flag} takes no value`, true);
      if (flag === '--yes') flags.yes = true;
      else if (flag === '--trace') flags.trace = true;
      else flags.json = true;
      continue;
    }
    if (!VALUE_FLAGS.has(flag)) throw new UsageError(`unknown option ${flag}`, true);
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--'))) throw new UsageError(`${flag} needs a value`, true);
    setValue(flags, flag, value);
  }
  const [server, name, ...pairs] = positional;
  if (server === undefined) throw new UsageError(`byhand ${verb} needs a SERVER and a ${WHAT[verb]}`, true);
  if (name === undefined) throw new UsageError(`byhand ${verb} ${server} needs a ${WHAT[verb]}`, true);
  if (verb === 'read' && pairs.length > 0) throw new UsageError(`byhand read takes one URI and no arguments (got ${pairs.join(' ')})`, true);
  return { verb, server, name, pairs, flags };
}

function setValue(flags: CallFlags, flag: string, value: string): void {
  switch (flag) {
    case '--config':
      flags.config = value;
      return;
    case '--answers':
      flags.answers = value;
      return;
    case '--root':
      flags.roots.push(value);
      return;
    case '--era':
      if (value !== 'auto' && value !== 'modern' && value !== 'legacy') throw new UsageError(`--era must be auto, modern or legacy, not ${JSON.stringify(value)}`, true);
      flags.era = value;
      return;
    case '--timeout':
      if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--timeout must be a positive number of milliseconds, not ${JSON.stringify(value)}`, true);
      flags.timeoutMs = Number(value);
      return;
  }
}
