// SERVER on the command line, for every command: a command line after `--`, an http(s) URL, a name
// in --config FILE (or in the configs discovered), a bundled toolbox, in that order, so a config
// entry can shadow a toolbox name on purpose (said in a notice). A folder's own config counts only
// once the folder is trusted, so a cloned folder cannot take a bundled name over.

import { resolve } from 'node:path';
import { isSecretName, type Target } from '@byhand/client';
import { ConfigError, loadConfig, type ServerEntry } from './config.js';
import { didYouMean } from './did-you-mean.js';
import { discoverConfigs, refuseBroken, type Discovered } from './discover.js';
import { embeddedNames, startEmbedded } from './embedded.js';
import { askInputs } from './inputs.js';
import type { CommandIO } from './io.js';
import { notice, shellQuote } from './output.js';
import { trustProject } from './project-trust.js';
import { redactWords } from './redact-words.js';
import { secretsOf } from './secret-values.js';
import type { SourceFlags } from './server-flags.js';
import { UsageError } from './usage-error.js';

export interface ResolvedServer {
  target: Target;
  /** For the narration: where it is and how it was found, its secret words redacted (redact-words.ts), since every command prints it. */
  describe: string;
  /** Stops what was started for this command (the embedded toolbox); a no-op otherwise. */
  close(): Promise<void>;
  /** How to log in to it, as `byhand login` arguments, when it is a remote HTTP server. */
  login?: string;
  /** Where the credential the user gave it came from (--header, a config's headers, an input), when one was given. */
  credential?: string;
}

export interface ServerWord {
  /** SERVER as typed, or undefined when the server is the command line in `command`. */
  word?: string;
  /** The words after `--`. */
  command?: string[];
}

const nothing = async () => undefined;

export async function resolveServer(spec: ServerWord, flags: SourceFlags, io: Pick<CommandIO, 'env' | 'stdin' | 'stderr' | 'cwd' | 'memory' | 'interrupt'>): Promise<ResolvedServer> {
  if (spec.command !== undefined) return adHocCommand(spec.command, flags, io);
  const word = spec.word!;
  if (/^https?:\/\//i.test(word)) return adHocUrl(word, flags, io);
  let configNames: string[] = [];
  let where = '';
  if (!flags.embedded) {
    const { entries, from, about } = await configEntries(flags, io);
    const entry = entries.find((e) => e.name === word);
    if (entry !== undefined) {
      for (const line of about.get(word) ?? []) notice(io, line);
      return fromEntry(await usable(entry, io), flags, io);
    }
    configNames = entries.map((e) => e.name);
    where = from;
  }
  if (embeddedNames().includes(word)) {
    const embedded = await startEmbedded([word]);
    const entry = embedded.entries[0];
    return { target: entry.connect!, describe: redactWords(`${word}, bundled, started in this process at ${entry.target}`), close: () => embedded.close() };
  }
  if (flags.transport === 'stdio') return adHocCommand([word], flags, io);
  if (flags.transport === 'http' || flags.transport === 'sse') return adHocUrl(`http://${word}`, flags, io);
  const known = [...configNames, ...embeddedNames()];
  const listed = configNames.length > 0 ? `, a name in ${where} (${configNames.join(', ')})` : where ? `; ${where} names no servers` : ', or a name from --config FILE';
  throw new UsageError(`unknown server ${JSON.stringify(word)}${didYouMean(word, known)}: give an http(s) URL, a command line after --, a bundled toolbox (${embeddedNames().join(', ')})${listed}`);
}

/**
 * The SERVER of a command line and the words after it: a command line after `--` (the words before it are the
 * rest), else the first positional word.
 */
export function serverAndWords(command: string, parsed: { positionals: string[]; rest?: string[] }): { server: ServerWord; words: string[] } {
  if (parsed.rest !== undefined) return { server: { command: parsed.rest }, words: parsed.positionals };
  const [word, ...words] = parsed.positionals;
  if (word === undefined) throw new UsageError(`byhand ${command} needs a SERVER`, true);
  return { server: { word }, words };
}

/**
 * The entries of --config FILE (the user named it: trusted), or of every config discovered, the folder's own only
 * once it is trusted (project-trust.ts); `from` names the file(s), `about` the notices about each entry.
 */
export async function configEntries(flags: SourceFlags, io: Pick<CommandIO, 'env' | 'stdin' | 'stderr' | 'cwd' | 'memory' | 'interrupt'>): Promise<{ entries: ServerEntry[]; from: string; about: Discovered['about'] }> {
  if (flags.config !== undefined) {
    try {
      return { entries: loadConfig(resolve(io.cwd, flags.config), io.env, { inputs: flags.inputs, onSecret: secretsOf(io) }), from: flags.config, about: new Map() };
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
  }
  const found = discoverConfigs(io.cwd, io.env, flags.inputs, await trustProject(flags.trust, io), secretsOf(io));
  refuseBroken(found);
  return { entries: found.entries, from: found.read.map((r) => r.file.path).join(', '), about: found.about };
}

/** An entry with its ${input:…} filled in, or the reason it cannot be used. */
export async function usable(entry: ServerEntry, io: Pick<CommandIO, 'stdin' | 'stderr' | 'interrupt'>): Promise<ServerEntry> {
  if (entry.disabled) throw new UsageError(`${entry.name} is disabled in ${entry.file ?? 'its config'} ("disabled": true)`);
  let ready = entry;
  if (entry.missingInputs !== undefined && entry.withInputs !== undefined) {
    const values = await askInputs(entry.missingInputs, io);
    // No terminal to ask at: the entry's own error says which --input to give.
    if (values === undefined) throw new UsageError(entry.error ?? `${entry.name} needs inputs`);
    ready = { ...entry.withInputs(values), file: entry.file, ...(entry.scope !== undefined ? { scope: entry.scope } : {}) };
  }
  if (ready.error !== undefined) throw new UsageError(ready.error);
  return ready;
}

function fromEntry(entry: ServerEntry, flags: SourceFlags, from: RunPlace): ResolvedServer {
  const connect = withFlags(entry.connect!, flags, from);
  const http = httpUrl(connect) !== undefined;
  return {
    target: connect,
    describe: redactWords(`${entry.name} from ${entry.file}${entry.scope !== undefined ? `, ${entry.scope}` : ''} (${entry.target})`),
    close: nothing,
    ...(http ? { login: loginArgs(entry) } : {}),
    ...(http ? credentialOf(flags, entry.credential) : {}),
  };
}

/**
 * `byhand login` arguments that find this entry again: its name in its file, or, for a scope within a file that
 * --config cannot pick (Claude Code's local scope), its name as discovered in this folder.
 */
export function loginArgs(entry: ServerEntry): string {
  if (entry.file === undefined) return shellQuote(entry.target);
  return entry.scope !== undefined ? shellQuote(entry.name) : `${shellQuote(entry.name)} --config ${shellQuote(entry.file)}`;
}

/** A credential given on the command line outranks the config's: it is the one sent (withFlags). */
export function credentialOf(flags: SourceFlags, fromConfig?: string): { credential?: string } {
  const name = Object.keys(flags.headers).find(isSecretName);
  const credential = name !== undefined ? `--header ${name}` : fromConfig;
  return credential !== undefined ? { credential } : {};
}

/** Where a command runs: a stdio server it starts runs there too, as from the process that runs the command. */
type RunPlace = Pick<CommandIO, 'cwd'>;

/**
 * --header, --env, --cwd and --transport sse apply to config entries as to ad-hoc targets. A stdio server starts in
 * the command's folder, named here so it is the command's even when that is not the process's own.
 */
export function withFlags(target: Target, flags: SourceFlags, from: RunPlace): Target {
  const url = httpUrl(target);
  if (url !== undefined) {
    const given = typeof target === 'object' && !(target instanceof URL) && 'url' in target ? target : undefined;
    const sse = flags.transport === 'sse' || given?.transport === 'sse';
    const headers = Object.keys(flags.headers).length > 0 || given?.headers ? { headers: { ...given?.headers, ...flags.headers } } : {};
    return sse || 'headers' in headers ? { url, ...headers, ...(sse ? { transport: 'sse' as const } : {}) } : url;
  }
  if (flags.transport === 'sse') throw new UsageError('--transport sse is for a server at an http(s) URL; this one is a command line (stdio)');
  const command = target as Exclude<Target, string | URL | { url: string }>;
  return { ...command, env: { ...command.env, ...flags.env }, cwd: resolve(from.cwd, flags.cwd ?? command.cwd ?? '.') };
}

function adHocUrl(word: string, flags: SourceFlags, from: RunPlace): ResolvedServer {
  try {
    new URL(word);
  } catch {
    throw new UsageError(`${JSON.stringify(word)} is not a valid URL`);
  }
  return { target: withFlags(word, flags, from), describe: redactWords(word), close: nothing, login: shellQuote(word), ...credentialOf(flags) };
}

export function adHocCommand(words: string[], flags: SourceFlags, from: RunPlace): ResolvedServer {
  if (words.length === 0) throw new UsageError('nothing after --: give the command line of a stdio server, such as -- node server.js', true);
  const [command, ...args] = words;
  return { target: withFlags({ command: command, args }, flags, from), describe: redactWords(`${words.map(shellQuote).join(' ')}, started as a stdio server`), close: nothing };
}

/** The URL of a server reached over HTTP; undefined for a command (stdio). */
export function httpUrl(target: Target | undefined): string | undefined {
  if (target === undefined || typeof target === 'string') return target;
  if (target instanceof URL) return target.href;
  return 'url' in target ? target.url : undefined;
}

/** A target as a person reads it: the URL, or the command line. */
export function targetText(target: Target): string {
  if (typeof target === 'string') return target;
  if (target instanceof URL) return target.href;
  if ('url' in target) return target.url;
  return [target.command, ...(target.args ?? [])].map(shellQuote).join(' ');
}
