// Every way a request is sent again, in one place (ky's one engine, core/Ky.ts): a failed attempt is read by each
// rule in turn; the first that knows the failure does what makes another attempt worth it and says whether one is,
// and each rule sends a request again at most its own number of times. The rules are here, each with the spec line
// that asks for it; the engine runs at two depths, since a challenge belongs to the HTTP exchange (a notification and
// an answer to the server are authorized too) and the others to the request the caller made:
// - auth: a 401, or a 403 that names insufficient_scope: new credentials, then the same bytes (transport/http/http.ts);
// - version: -32022 naming a version byhand speaks: the request in that version (client.ts);
// - header: -32020 for an Mcp-Param header: the tools listed again, the call with the headers of the new schema;
// - verdict: a cached modern verdict the server contradicts: the era found again, the request sent on it.
// A 2025 session the server lost is renewed by the legacy era itself (legacy.ts), as a legacy answer's stream is
// resumed by its session (transport/http/legacy-http.ts): each is that era's own state, not a retry of a request.

import type { HttpAuth } from './transport/http/http.js';
import type { Deadline } from './deadline.js';
import type { RequestOptions } from './exchange.js';
import type { Connection } from './connection.js';
import { HttpStatusError, RpcError } from './errors.js';
import { contradicts, namedVersion } from './verdict.js';

/**
 * One rule: undefined when the failure is not its own, or when it has sent this request again as often as it may
 * (`used` times so far); else what it did, resolving to whether another attempt may help.
 */
export type Retry<C = undefined> = (error: unknown, context: C, used: number) => Promise<boolean> | undefined;

/**
 * The engine, entered with a request's first failure (so a request that succeeds pays nothing for it): each rule in
 * turn reads the failure, the first that knows it recovers, and `attempt` runs again, until it succeeds or no rule
 * will have it run again; then its failure is the caller's.
 */
export async function retryAfter<T, C>(failure: unknown, attempt: () => Promise<T>, rules: readonly Retry<C>[], context: C): Promise<T> {
  const used = rules.map(() => 0);
  for (let error = failure; ; ) {
    let recovered: Promise<boolean> | undefined;
    let rule = 0;
    while (rule < rules.length && (recovered = rules[rule](error, context, used[rule])) === undefined) rule++;
    if (recovered === undefined || (used[rule]++, !(await recovered))) throw error;
    try {
      return await attempt();
    } catch (again) {
      error = again;
    }
  }
}

/** An answer that asks for (other) credentials: a 401, or a 403 whose Bearer challenge names insufficient_scope. */
export function isChallenge(response: { status: number; header(name: string): string | null }): boolean {
  if (response.status === 401) return true;
  return response.status === 403 && /insufficient_scope/i.test(response.header('www-authenticate') ?? '');
}

/**
 * A challenge, met by the authorization (a login, a refresh, a step-up, a DPoP nonce); its time is not the server's.
 * Three attempts in all: a server that refuses every token must not loop us (conformance auth/scope-retry-limit).
 */
export function authRetry(auth: HttpAuth, url: string, deadline: Deadline): Retry {
  return (error, _, used) =>
    used < 2 && error instanceof HttpStatusError && isChallenge({ status: error.status, header: (name) => error.headers.get(name) })
      ? deadline.excluding(() => auth.challenged({ status: error.status, headers: error.headers, url }, deadline.signal))
      : undefined;
}

/** The request a rule reads a failure of. */
export interface Attempted {
  method: string;
  options: RequestOptions;
}

/** The server changed its versions under us (-32022): once more with one it names (spec versioning.mdx L69-71), read as the probe reads it. */
export function versionRetry(connection: () => Pick<Connection, 'useVersion'>): Retry<Attempted> {
  return (error, _, used) => {
    const taker = connection();
    const version = used < 1 && error instanceof RpcError && error.code === -32022 && taker.useVersion ? namedVersion(error.data) : undefined;
    if (version === undefined) return undefined;
    taker.useVersion!(version);
    return Promise.resolve(true);
  };
}

/** A schema that changed since tools/list shows as an Mcp-Param mismatch (-32020): list again, once (streamable-http.mdx L539-544). */
export function headerRetry(relist: (options: RequestOptions) => Promise<unknown>): Retry<Attempted> {
  return (error, { method, options }, used) =>
    used < 1 && method === 'tools/call' && error instanceof RpcError && error.code === -32020 && /Mcp-Param/i.test(error.message) ? relist(options).then(() => true) : undefined;
}

/**
 * A cached modern verdict that the server now contradicts (it was replaced by a legacy server) is found again, once.
 * `unconfirmed`: the era came from the cache without a word from the server.
 */
export function verdictRetry(unconfirmed: () => boolean, refind: (error: unknown) => Promise<void>): Retry<Attempted> {
  return (error, _, used) => (used < 1 && unconfirmed() && contradicts(error, 'modern') ? refind(error).then(() => true) : undefined);
}
