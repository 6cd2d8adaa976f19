// Forged requestStates. A state is opaque to a client (spec basic/patterns/mrtr: "opaque string meaningful only to the
// server"), but an attacker reads what it can: many states are base64 or base64url JSON, whole or as one part of a
// dotted token (a payload and its MAC, a JWT). A value changed inside such a JSON, and the state re-encoded as it came,
// is the forgery an attacker makes; a state changed in one character is the one that breaks a MAC.

import { isObject } from './raw.js';

/** The string check puts in a forged state: an answer that carries it was steered by the forgery. */
export const FORGED = 'byhand-forged';
/** The string argument a second call is made with, to mint a state for other arguments. */
export const REPLAYED = 'byhand-replayed';

export interface Forgery {
  how: string;
  state: string;
  /** Present in an answer only if the server used the forged value. */
  marker?: string;
}

/** The forgeries of `state`: a value changed in each part that is base64 JSON, and one character changed. */
export function forgeries(state: string): Forgery[] {
  const out: Forgery[] = [];
  const parts = state.split('.');
  for (const [i, part] of parts.entries()) {
    const decoded = decodeJson(part);
    if (decoded === undefined) continue;
    const forged = [...parts];
    forged[i] = encodeLike(part, JSON.stringify(changed(decoded.value)));
    out.push({ how: `a value inside its base64 JSON${parts.length > 1 ? ` (part ${i + 1} of ${parts.length})` : ''} changed, re-encoded`, state: forged.join('.'), marker: FORGED });
  }
  out.push({ how: 'one character changed', state: tamper(state) });
  return out;
}

/** One character changed, in the middle, where a MAC or a signature covers it. */
export function tamper(state: string): string {
  const at = Math.floor(state.length / 2);
  const swap = state[at] === 'A' ? 'B' : 'A';
  return `${state.slice(0, at)}${swap}${state.slice(at + 1)}`;
}

function decodeJson(part: string): { value: unknown } | undefined {
  if (part.length < 4 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(part)) return undefined;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(part.replaceAll('-', '+').replaceAll('_', '/'), 'base64'));
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? { value } : undefined;
  } catch {
    return undefined;
  }
}

/** `json` in the alphabet and padding `like` came in. */
function encodeLike(like: string, json: string): string {
  const url = /[-_]/.test(like) || !/[+/]/.test(like) && !like.endsWith('=');
  const encoded = Buffer.from(json).toString(url ? 'base64url' : 'base64');
  return like.endsWith('=') ? encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '=') : encoded.replace(/=+$/, '');
}

/** Every string value replaced by the marker, every number moved by one, every boolean flipped; keys kept. */
function changed(value: unknown): unknown {
  if (typeof value === 'string') return FORGED;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return value.map(changed);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, changed(v)]));
  return value;
}
