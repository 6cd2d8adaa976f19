// Era negotiation by trying: a modern probe (server/discover with the envelope) first; its answer is
// read by verdict.ts, and only an answer that is no recognised modern evidence falls back to the
// legacy handshake. A pin skips the probe (legacy) or the fallback (modern) and is never cached.
//
// On stdio a silent server is ambiguous: a legacy server ignores a request it does not know before
// initialize, and a modern one may still be starting (npx may be downloading it). So the probe sends
// `ping` after server/discover: a legacy server answers ping before initialize, a modern one answers
// it -32601 (2026-07-28 removed ping); either answer proves the server is up and reading. Only then
// does a silent server/discover count as legacy, after probeTimeoutMs more; a server that answers
// nothing within timeoutMs of starting is a failure, not an era. The ping carries the modern envelope:
// the SDK's dual-era serveStdio pins a connection to the era of the first message after the probe,
// and an envelope-less ping would pin it legacy (@modelcontextprotocol/server dist/stdio.mjs,
// serveStdio processMessage, the "legacy" case discards the probe instance).

import { HttpStatusError, McpError, ProtocolError, TimeoutError } from './errors.js';
import { rpcErrorOf } from './exchange.js';
import { HttpTransport } from './transport/http/http.js';
import { legacyEra } from './legacy-door.js';
import type { Connection, ServerIdentity } from './connection.js';
import type { LegacyConnection, LegacySettings } from './legacy.js';
import { identityOf, ModernConnection, standardHeaders, type ModernSettings } from './modern.js';
import type { Reply, Transport } from './transport/transport.js';
import type { DiscoverResult, Era } from './types.js';
import { classifyProbe, contradicts, REFUSED_STATUSES, type EraVerdict, type ProbeVerdict, type VerdictCache } from './verdict.js';
import { LEGACY_VERSIONS, MODERN_VERSIONS } from './versions.js';

export interface Negotiated {
  connection: Connection;
  verdict: EraVerdict;
  /** Who the server said it is while the era was found: initialize's answer, or the probe's server/discover. */
  identity?: ServerIdentity;
  /** The probe's server/discover result, when the server is modern and was probed now. */
  discovered?: DiscoverResult;
  /** The era came from a cached verdict and nothing was exchanged: an answer that contradicts it sends the client to find it again. */
  unconfirmed?: boolean;
}

export interface NegotiateOptions {
  mode: 'auto' | Era;
  settings: ModernSettings & LegacySettings;
  cache: VerdictCache;
  /** stdio: how long server/discover may stay unanswered once the server answered ping. */
  probeTimeoutMs: number;
  /** A fresh transport, for a stdio server that exited on the probe. */
  reopen: () => Promise<Transport>;
  now: () => number;
}

export async function negotiate(options: NegotiateOptions): Promise<Negotiated> {
  const { mode, settings, cache, now } = options;
  const key = settings.wire.transport.key;
  if (settings.wire.transport.era === 'legacy') return legacyOnly(options);
  if (mode === 'legacy') {
    const connection = await openLegacy(options, LEGACY_VERSIONS[0]);
    return { connection, identity: connection.identity, verdict: { era: 'legacy', version: connection.protocolVersion, how: 'pinned', evidence: 'pinned by the caller', at: now() } };
  }
  const cached = mode === 'auto' ? cache.get(key) : undefined;
  // A modern verdict is taken from the cache only with who the server said it is (VerdictCache.discovered): without
  // it the client would not know its capabilities, and finding them is the probe itself.
  const discovered = cached?.era === 'modern' ? cache.discovered(key, now()) : undefined;
  if (cached && discovered) {
    return { connection: new ModernConnection(settings, cached.version), verdict: { ...cached, how: 'cached' }, identity: identityOf(discovered), discovered, unconfirmed: true };
  }
  if (cached?.era === 'legacy') {
    try {
      const connection = await openLegacy(options, cached.version);
      return { connection, identity: connection.identity, verdict: { ...cached, how: 'cached', version: connection.protocolVersion } };
    } catch (error) {
      if (!contradicts(error, 'legacy')) throw error;
      cache.delete(key);
      const found = await probe(options, true);
      found.verdict.revalidated = `the cached legacy verdict failed: ${(error as McpError).message}`;
      cache.set(key, found.verdict, found.discovered);
      return found;
    }
  }
  const found = await probe(options, mode === 'auto');
  if (mode === 'modern') found.verdict.how = 'pinned';
  else cache.set(key, found.verdict, found.discovered);
  return found;
}

/** A transport that carries only the legacy era (HTTP+SSE, asked for by name) pins it: there is nothing to probe. */
async function legacyOnly(options: NegotiateOptions): Promise<Negotiated> {
  const { name } = options.settings.wire.transport;
  const carries = `the ${name === 'sse' ? 'HTTP+SSE transport (2024-11-05)' : `${name} transport`} carries only the legacy era`;
  if (options.mode === 'modern') throw new ProtocolError(`the era is pinned to modern, but ${carries}`, 'drop the pin, or use the server\'s Streamable HTTP URL');
  const { LegacyConnection } = await legacyEra();
  const connection = await LegacyConnection.open(options.settings, LEGACY_VERSIONS[0]);
  return { connection, identity: connection.identity, verdict: { era: 'legacy', version: connection.protocolVersion, how: 'pinned', evidence: carries, at: options.now() } };
}

async function probe(options: NegotiateOptions, fallback: boolean): Promise<Negotiated> {
  const { settings, now } = options;
  const modern = new ModernConnection(settings, MODERN_VERSIONS[0]);
  let version: string = MODERN_VERSIONS[0];
  let retriedWith: string | undefined;
  for (let attempt = 0; ; attempt++) {
    const outcome = await discover(options, modern, version);
    const verdict: ProbeVerdict = 'silent' in outcome ? { kind: 'legacy', reason: outcome.silent } : classifyProbe(outcome, version, settings.wire.transport.refusesSilently);
    if (verdict.kind === 'modern') {
      modern.protocolVersion = verdict.version;
      const evidence = retriedWith ? `-32022, then server/discover answered with ${verdict.version}` : 'server/discover answered';
      const discovered = verdict.result as unknown as DiscoverResult;
      return {
        connection: modern,
        identity: identityOf(discovered),
        discovered,
        verdict: { era: 'modern', version: verdict.version, how: 'probe', evidence, at: now(), ...(retriedWith ? { retriedWith } : {}) },
      };
    }
    if (verdict.kind === 'retry' && attempt === 0) {
      version = retriedWith = verdict.version;
      continue;
    }
    if (verdict.kind === 'legacy') {
      if (!fallback) {
        throw new ProtocolError(`the server did not answer as a modern server (${verdict.reason})`, 'the era is pinned to modern, so the client does not fall back; it probably speaks the legacy era');
      }
      if (settings.wire.transport.hasExited) settings.wire.transport = await options.reopen();
      const connection = await openLegacy(options, verdict.version ?? LEGACY_VERSIONS[0]);
      return { connection, identity: connection.identity, verdict: { era: 'legacy', version: connection.protocolVersion, how: 'probe', evidence: verdict.reason, at: now() } };
    }
    const failed = verdict.kind === 'error' ? verdict.error : (outcome as Reply);
    if (failed instanceof Error) throw failed;
    throw rpcErrorOf(failed, 'server/discover', {}, version, () => standardHeaders('server/discover', {}, version));
  }
}

/** The probe's answer: a reply, an error, or (stdio) a server alive but silent on server/discover. */
async function discover(options: NegotiateOptions, modern: ModernConnection, version: string): Promise<Reply | Error | { silent: string }> {
  const { wire } = options.settings;
  if (!wire.transport.refusesSilently) return modern.send('server/discover', {}, {}, version).catch((error: Error) => error);

  const stop = new AbortController();
  const signal = wire.signal ? AbortSignal.any([wire.signal, stop.signal]) : stop.signal;
  const answer = modern.send('server/discover', {}, { signal }, version).catch((error: Error) => error);
  const alive = modern.send('ping', {}, { signal }, version).then(() => true, () => false);
  try {
    const first = await Promise.race([answer, alive]);
    if (first !== true) {
      const outcome = first === false ? await answer : first;
      if (!(outcome instanceof TimeoutError)) return outcome;
      return new McpError('timeout', `the server answered neither server/discover nor ping within ${wire.timeoutMs} ms of starting`, 'it may still be starting (a first npx run downloads the package): raise the timeout, or check the command');
    }
    const grace = new Promise<undefined>((resolve) => setTimeout(resolve, options.probeTimeoutMs, undefined).unref?.());
    const late = await Promise.race([answer, grace]);
    return late ?? { silent: `the server answered ping but not server/discover within ${options.probeTimeoutMs} ms` };
  } finally {
    stop.abort();
  }
}

/**
 * The handshake, and on HTTP one more try when the URL takes no POST: the 2024-11-05 HTTP+SSE transport
 * answers a GET with an `endpoint` event (spec 2025-03-26 transports, "Backwards Compatibility": a 4xx to
 * the POST of initialize, then a GET). A URL that opens no such stream keeps the POST's error.
 */
async function openLegacy(options: NegotiateOptions, version: string): Promise<LegacyConnection> {
  const { wire } = options.settings;
  const { LegacyConnection, openSse } = await legacyEra();
  try {
    return await LegacyConnection.open(options.settings, version);
  } catch (error) {
    const { transport } = wire;
    if (!(transport instanceof HttpTransport) || !(error instanceof HttpStatusError) || !REFUSED_STATUSES.includes(error.status)) throw error;
    const sse = await openSse(transport, Math.min(wire.timeoutMs, 3000), wire.signal);
    if (!sse) throw error;
    wire.transport = sse;
    return LegacyConnection.open(options.settings, version);
  }
}
