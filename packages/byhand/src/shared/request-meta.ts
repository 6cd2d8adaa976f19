// --meta KEY=VALUE: the caller's own keys in the request's params._meta (the Inspector CLI has none).
// A value is JSON when it parses as JSON (3, true, null, {"a":1}, [1,2], "quoted"), else the text as
// typed. The protocol's own keys (io.modelcontextprotocol/…, progressToken) are refused here, with
// the flag named, before anything is sent.

import { isReservedMetaKey, type JsonObject } from '@byhand/client';
import { listFlag, type Values } from './kit.js';
import { UsageError } from './usage-error.js';

/** The --meta pairs as a `meta` request option, or nothing when none were given. */
export function requestMeta(values: Values): { meta: JsonObject } | Record<string, never> {
  const words = listFlag(values, 'meta');
  if (words.length === 0) return {};
  const meta: JsonObject = {};
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new UsageError(`--meta takes KEY=VALUE, not ${JSON.stringify(word)}`, true);
    const key = word.slice(0, eq);
    if (isReservedMetaKey(key)) throw new UsageError(`--meta ${key}: that key is the protocol's own (the envelope byhand sends, or progressToken), so it cannot be set by hand; use a key of your own, such as example.com/${key.split('/').pop()}`);
    meta[key] = jsonOrText(word.slice(eq + 1));
  }
  return { meta };
}

function jsonOrText(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
