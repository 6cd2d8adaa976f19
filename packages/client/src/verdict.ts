// Reading era evidence (spec basic/versioning.mdx, basic/transports/streamable-http.mdx "Backward
// Compatibility", basic/transports/stdio.mdx): a result or a recognised modern error means modern;
// anything else means legacy. The fallback is never keyed to one error code, and outages (5xx,
// network, 401/403) are never taken as era evidence. A verdict is an object that says what was found,
// how and when; verdicts found by probing are cached per endpoint, pins never are.

import { HttpStatusError, McpError, ProtocolError, RpcError, StreamClosedError, TimeoutError } from './errors.js';
import type { Reply } from './transport/transport.js';
import type { DiscoverResult, Era } from './types.js';
import { isModernVersion, pickVersion } from './versions.js';

/** The codes only a modern server sends (spec basic/index.mdx "Error Codes"). */
export const MODERN_ERROR_CODES = new Set([-32020, -32021, -32022]);

/** How a legacy server turns away a request it does not take (no session, no such endpoint, no POST there): with no modern error, evidence of the legacy era. */
export const REFUSED_STATUSES = [400, 404, 405];

export type ProbeVerdict =
  | { kind: 'modern'; version: string; result: Record<string, unknown> }
  | { kind: 'retry'; version: string }
  | { kind: 'legacy'; reason: string; version?: string }
  | { kind: 'error'; error: McpError | Reply };
// An 'error' Reply always carries a JSON-RPC error: the caller turns it into an RpcError.

/** Reads the answer to a `server/discover` probe sent with `version`; `refusesSilently`: the transport's (transport.ts). */
export function classifyProbe(outcome: Reply | Error, version: string, refusesSilently = false): ProbeVerdict {
  if (outcome instanceof Error) {
    if (outcome instanceof HttpStatusError) {
      if (REFUSED_STATUSES.includes(outcome.status)) return { kind: 'legacy', reason: `HTTP ${outcome.status} without a modern error` };
      return { kind: 'error', error: outcome };
    }
    // A stdio server may ignore an unknown pre-initialize request, or exit on it (spec stdio.mdx L121-147).
    if (refusesSilently && (outcome instanceof TimeoutError || outcome instanceof StreamClosedError)) {
      return { kind: 'legacy', reason: outcome instanceof TimeoutError ? 'no answer to server/discover' : 'the process exited on server/discover' };
    }
    return { kind: 'error', error: outcome instanceof McpError ? outcome : new McpError('protocol', outcome.message, 'unexpected failure while probing the era') };
  }
  const { message } = outcome;
  if (message.result) {
    // A result that is no DiscoverResult is not era evidence: old mocks answer any method generically.
    if (!Array.isArray(message.result.supportedVersions)) return { kind: 'legacy', reason: 'server/discover answered without supportedVersions' };
    const offered: unknown[] = message.result.supportedVersions;
    if (offered.includes(version)) return { kind: 'modern', version, result: message.result };
    const modern = pickVersion(offered.filter((v) => typeof v === 'string' && isModernVersion(v)));
    if (modern) return { kind: 'modern', version: modern, result: message.result };
    const legacy = pickVersion(offered);
    if (legacy) return { kind: 'legacy', reason: `server/discover offers only ${legacy}`, version: legacy };
    return { kind: 'error', error: new ProtocolError(`the server speaks ${offered.join(', ')}, and byhand none of them`, 'no protocol version is shared: upgrade one side') };
  }
  const error = message.error!;
  if (error.code === -32022) {
    const modern = namedVersion(error.data);
    if (modern) return { kind: 'retry', version: modern };
    const legacy = pickVersion(supportedIn(error.data));
    // A dual-era server that lists only a legacy version asks for the handshake (spec versioning.mdx).
    if (legacy) return { kind: 'legacy', reason: `the server supports ${legacy}`, version: legacy };
    return { kind: 'error', error: outcome };
  }
  if (MODERN_ERROR_CODES.has(error.code)) return { kind: 'error', error: outcome };
  return { kind: 'legacy', reason: `server/discover answered ${error.code} ${error.message}` };
}

/** The `supported` list of a -32022's data (spec versioning.mdx L48-52). */
function supportedIn(data: unknown): unknown[] {
  const supported = (data as { supported?: unknown } | null | undefined)?.supported;
  return Array.isArray(supported) ? supported : [];
}

/** The modern version to try again with, of those a -32022 names. */
export function namedVersion(data: unknown): string | undefined {
  return pickVersion(supportedIn(data).filter((v) => typeof v === 'string' && isModernVersion(v)));
}

/**
 * An answer that says a cached verdict is stale rather than that the server is down. For a legacy verdict, any
 * JSON-RPC error or a 400, 404 or 405. For a modern one, a 400, 404 or 405 without a modern error, read as the probe
 * reads one: a legacy server answers so to a request without its session, the SDK's with -32000 "Server not
 * initialized" in a JSON-RPC error at 400, not only with a bare status.
 */
export function contradicts(error: unknown, cached: Era): boolean {
  if (error instanceof HttpStatusError) return REFUSED_STATUSES.includes(error.status);
  return error instanceof RpcError && (cached === 'legacy' || (REFUSED_STATUSES.includes(error.status!) && !MODERN_ERROR_CODES.has(error.code as number)));
}

/** What the client decided about a server's era, and why. */
export interface EraVerdict {
  era: Era;
  /** The protocol version in use: '2026-07-28', or what initialize agreed. */
  version: string;
  /** probe: found by trying now; cached: an earlier probe's verdict, reused; pinned: the caller chose. */
  how: 'probe' | 'cached' | 'pinned';
  /** The evidence, in words: what the server answered. */
  evidence: string;
  /** When the verdict was reached (ms since the epoch); for a cached one, when it was first reached. */
  at: number;
  /** Set when a -32022 made the client retry with another version. */
  retriedWith?: string;
  /** Set when a cached verdict was contradicted and the era found again. */
  revalidated?: string;
}

/**
 * Probed verdicts per endpoint (URL, or command line). One process-wide cache serves every client unless another is
 * given. A modern verdict keeps the server/discover answer it was found with, so that a client that takes the era from
 * here still knows who the server is, for as long as that answer's ttlMs lets it be reused (SEP-2549, DiscoverResult
 * is a CacheableResult); past it the era is found again, which is the same one request.
 */
export class VerdictCache {
  private readonly verdicts = new Map<string, { verdict: EraVerdict; discovered?: DiscoverResult; until: number }>();

  get(key: string): EraVerdict | undefined {
    return this.verdicts.get(key)?.verdict;
  }

  /** The server/discover answer kept with the verdict, while its ttlMs lasts at `now`. */
  discovered(key: string, now: number): DiscoverResult | undefined {
    const kept = this.verdicts.get(key);
    return kept !== undefined && now < kept.until ? kept.discovered : undefined;
  }

  set(key: string, verdict: EraVerdict, discovered?: DiscoverResult): void {
    if (verdict.how === 'pinned') return;
    const ttlMs = typeof discovered?.ttlMs === 'number' && discovered.ttlMs > 0 ? discovered.ttlMs : 0;
    this.verdicts.set(key, { verdict: { ...verdict, how: 'probe' }, ...(discovered ? { discovered } : {}), until: verdict.at + ttlMs });
  }

  delete(key: string): void {
    this.verdicts.delete(key);
  }

  clear(): void {
    this.verdicts.clear();
  }
}

export const processVerdicts = new VerdictCache();
