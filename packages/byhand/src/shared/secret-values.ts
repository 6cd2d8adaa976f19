// Redaction by origin. A value a config took from the environment (`${env:X}`, `${X}`, `$X`) or that the user gave
// for an `${input:id}` is secret wherever it lands: in a URL query under a harmless name (`?q=`), in a server's error
// quoting its own URL, in a trace. Redaction by name (client/src/redact.ts) cannot see those, so every line a
// command writes has such values replaced, as written and as JSON and a URL would escape them.

import { REDACTED } from '@byhand/client';
import type { OutputStream } from '@byhand/host';
import type { CommandIO } from './io.js';

/** What every stdio server is given anyway (the client's inherited allow-list) and what names a place, not a secret. */
const NOT_SECRET = new Set(['HOME', 'USERPROFILE', 'LOGNAME', 'USER', 'USERNAME', 'PATH', 'SHELL', 'TERM', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TMP', 'TEMP', 'PWD']);

/**
 * Shorter values are left alone: `true`, `false`, `8080` or `eu` from a variable would otherwise be cut out of every
 * line, JSON included, and a secret that short protects nothing.
 */
const MIN_LENGTH = 6;

/** The `onSecret` a config is read with (config.ts): what it reports is kept out of what this run prints. */
export function secretsOf(io: Pick<CommandIO, 'memory'>): (value: string, variable?: string) => void {
  return (value, variable) => keepSecret(io.memory.secrets, value, variable);
}

/** Keeps `value` (of `variable`, when a variable gave it) out of what this run prints, in each form it is printed in. */
export function keepSecret(secrets: Set<string>, value: string, variable?: string): void {
  if (value.length < MIN_LENGTH || (variable !== undefined && NOT_SECRET.has(variable))) return;
  for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value), encodeURI(value)]) secrets.add(form);
}

/** The text with each secret value replaced, the longest first, so a value that contains another goes whole. */
export function withoutSecrets(text: string, secrets: ReadonlySet<string>): string {
  if (secrets.size === 0) return text;
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  }
  return out;
}

/**
 * The command's streams, each line through `withoutSecrets` with the values this run has learnt so far. `stdout` stays
 * as it is where it carries a protocol rather than a report (the bridge's face to its host).
 */
export function secretsMasked(io: CommandIO, options: { stdout: boolean }): CommandIO {
  const secrets = io.memory.secrets;
  const masked = (stream: OutputStream): OutputStream => {
    const view = Object.create(stream) as OutputStream & Record<string, unknown>;
    // Listeners go on the stream itself, which is what emits: on a view they would land in a listener table of its own
    // once the stream's count reaches zero, and a wait for 'drain' would never end.
    for (const method of ['on', 'once', 'off', 'addListener', 'removeListener', 'prependListener', 'prependOnceListener', 'removeAllListeners', 'emit', 'listenerCount']) {
      const own = (stream as unknown as Record<string, unknown>)[method];
      if (typeof own === 'function') view[method] = own.bind(stream);
    }
    view.write = (chunk: string | Uint8Array, ...rest: unknown[]) => (stream.write as (...a: unknown[]) => boolean)(typeof chunk === 'string' ? withoutSecrets(chunk, secrets) : chunk, ...rest);
    return view;
  };
  return { ...io, stderr: masked(io.stderr), ...(options.stdout ? { stdout: masked(io.stdout) } : {}) };
}
