// The command lines of `call`, `read` and `prompt`: SERVER, then the name (none lists the
// choices), then key=value words. SERVER may also be a command line after `--`: the name is then
// given by --tool / --uri / --prompt or before the `--` (exact), or split off its end (a guess the
// command checks once connected: split-check.ts).

import { booleanFlag, listFlag, stringFlag, type Parsed } from '../shared/kit.js';
import type { JsonObject } from '@byhand/client';
import { requestMeta } from '../shared/request-meta.js';
import { LOG_LEVELS, NAME_FLAG, WHAT, type Verb } from './spec.js';
import type { ServerWord } from '../shared/resolve-server.js';
import { connectFlags, sourceFlags, type ConnectFlags, type SourceFlags } from '../shared/server-flags.js';
import { UsageError } from '../shared/usage-error.js';

export type { Verb } from './spec.js';

export interface CallFlags extends ConnectFlags {
  yes: boolean;
  answers?: string;
  roots: string[];
  logLevel?: string;
  out?: string;
  /** call: a tool that runs as a task returns its id at once instead of being followed. */
  detach: boolean;
  /** --meta: the caller's keys for params._meta. */
  meta?: JsonObject;
}

export interface CallArgs {
  verb: Verb;
  server: ServerWord;
  /** The tool or prompt name, or the resource URI; none lists the choices. */
  name?: string;
  /** The key=value words, unparsed: their meaning depends on the tool's schema. */
  pairs: string[];
  /** Set when the name was split off the end of the words after `--`, a guess: those words, and the options before `--`. */
  guessed?: { words: string[]; options: string[] };
  source: SourceFlags;
  flags: CallFlags;
}

/** `{ help: true }` for --help; throws UsageError for anything malformed. */
/** The command line of call, read or prompt, as the frame parsed it (`args` too: a guessed split names the words it came from). */
export function callArgsOf(verb: Verb, parsed: Parsed, args: readonly string[]): CallArgs {
  const { values } = parsed;
  const logLevel = stringFlag(values, 'log-level');
  if (logLevel !== undefined && !(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(logLevel)}`, true);
  const answers = stringFlag(values, 'answers');
  const out = stringFlag(values, 'out');
  const flags: CallFlags = {
    ...connectFlags(values),
    ...requestMeta(values),
    yes: booleanFlag(values, 'yes'),
    detach: verb === 'call' && booleanFlag(values, 'detach'),
    roots: listFlag(values, 'root'),
    ...(answers !== undefined ? { answers } : {}),
    ...(logLevel !== undefined ? { logLevel } : {}),
    ...(out !== undefined ? { out } : {}),
  };
  const source = sourceFlags(values);
  const named = stringFlag(values, NAME_FLAG[verb]);
  let server: ServerWord;
  let words: string[];
  let guessed: CallArgs['guessed'];
  if (named !== undefined) {
    if (parsed.rest !== undefined) server = { command: parsed.rest };
    else if (parsed.positionals[0] !== undefined) server = { word: parsed.positionals[0] };
    else throw new UsageError(`byhand ${verb} --${NAME_FLAG[verb]} needs a SERVER or a command line after --`, true);
    words = [named, ...parsed.positionals.slice(parsed.rest !== undefined ? 0 : 1)];
  } else if (parsed.rest !== undefined && parsed.positionals.length > 0) {
    server = { command: parsed.rest };
    words = parsed.positionals;
  } else if (parsed.rest !== undefined) {
    const split = splitCommandLine(verb, parsed.rest);
    server = { command: split.command };
    words = split.words;
    if (words.length > 0) guessed = { words: parsed.rest, options: args.slice(0, args.length - parsed.rest.length - 1) };
  } else {
    const [word, ...others] = parsed.positionals;
    if (word === undefined) throw new UsageError(`byhand ${verb} needs a SERVER and a ${WHAT[verb]}`, true);
    server = { word };
    words = others;
  }
  const [name, ...pairs] = words;
  if (verb === 'read' && pairs.length > 0) throw new UsageError(`byhand read takes one URI and no arguments (got ${pairs.join(' ')})`, true);
  return { verb, server, ...(name !== undefined ? { name } : {}), pairs, source, flags, ...(guessed ? { guessed } : {}) };
}

/** Commands that never run a server alone: the word after one is its package or script, not a tool. */
const RUNNERS = /^(?:npx|uvx|pipx|bunx|node|deno|bun|python3?|uv|docker|podman|pnpm|yarn|npm)$/;

/**
 * `-- node server.js TOOL k=v`: the key=value words at the end, then the name, are split off; a
 * word that looks like a file or a flag, or follows a runner alone, stays part of the command line.
 */
function splitCommandLine(verb: Verb, words: string[]): { command: string[]; words: string[] } {
  let end = words.length;
  if (verb !== 'read') while (end > 1 && /^[A-Za-z_][\w.-]*=/.test(words[end - 1])) end--;
  const last = words[end - 1];
  // What would be left: a runner and its flags (`npx -y pkg`) cannot be a whole command line.
  const afterRunner = RUNNERS.test(words[0].split(/[\\/]/).pop()!) && words.slice(1, end - 1).every((w) => w.startsWith('-'));
  const isName = end > 1 && !afterRunner && last !== undefined && (verb === 'read' ? /^[a-z][\w+.-]*:/i.test(last) : !/[\\/]|\.(?:[cm]?[jt]s|py|rb|sh|exe)$|^-/.test(last));
  return isName ? { command: words.slice(0, end - 1), words: words.slice(end - 1) } : { command: words.slice(0, end), words: words.slice(end) };
}
