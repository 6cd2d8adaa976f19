// Resolve SERVER and connect to it, the same way for every command: the credential the user gave, else the
// login `byhand login` stored (never a browser), --trace on stderr, --era and --timeout, and the command's
// interrupt (a signal, shared/signals.ts) under every request.

import { connect, type Client, type ConnectOptions, type TraceEntry } from '@byhand/client';
import { createLookingHost } from '@byhand/host';
import type { CommandIO } from './io.js';
import { resolveServer, type ResolvedServer, type ServerWord } from './resolve-server.js';
import { runVerdicts } from './run-verdicts.js';
import type { ConnectFlags, SourceFlags } from './server-flags.js';
import { traceLine } from './show-wire.js';
import { openingFailure } from './cause-hints.js';
import { givenCredential } from './given-credential.js';
import { notice } from './output.js';
import { storedLogin } from './stored-login.js';

export interface OpenServer {
  server: ResolvedServer;
  client: Client;
  close(): Promise<void>;
}

export async function openServer(
  spec: ServerWord,
  source: SourceFlags,
  flags: ConnectFlags,
  io: CommandIO,
  options: Omit<ConnectOptions, 'era' | 'timeoutMs' | 'onTrace' | 'auth'> = {},
): Promise<OpenServer> {
  const server = await resolveServer(spec, source, io);
  let client: Client;
  try {
    client = await connectResolved(server, flags, io, options);
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    server,
    client,
    close: async () => {
      strayOutputNotice(client, io);
      await client.close().catch(() => undefined);
      await server.close();
    },
  };
}

/**
 * A stdio server that wrote lines on stdout that are not JSON-RPC (a start-up banner, a console.log) is said, not
 * passed over: byhand read past them, but stdout is the protocol, and other clients close the connection on them.
 */
function strayOutputNotice(client: Client, io: CommandIO): void {
  const strays = client.strayOutput;
  if (strays.length === 0) return;
  notice(io, `the server wrote ${strays.length} line(s) on stdout that are not JSON-RPC, first ${JSON.stringify(strays[0])}: on stdio, stdout is for MCP messages only, and some clients close the connection on such a line; the server should log to stderr (byhand check reports it with the fix)`);
}

/** Connects to a server already resolved (`byhand check` resolves first: its raw checks need the target too). */
export function connectResolved(
  server: ResolvedServer,
  flags: ConnectFlags,
  io: CommandIO,
  options: Omit<ConnectOptions, 'era' | 'timeoutMs' | 'auth'> = {},
): Promise<Client> {
  const signals = [options.signal, io.interrupt].filter((s) => s !== undefined);
  // The caller's trace (byhand inspect's wire view) and --trace's on stderr both see every message.
  const traces = [options.onTrace, flags.trace ? (entry: TraceEntry) => void io.stderr.write(`${traceLine(entry)}\n`) : undefined].filter((t) => t !== undefined);
  const opened = connect(server.target, {
    verdicts: runVerdicts(io),
    ...options,
    // Every command declares what `call` declares (call brings the host that fulfils it): a server may offer
    // some tools only to a client that can sample, ask or list roots, and `list` shows what `call` reaches.
    // A 2025 session the server lost and the client renewed is said, not passed over in silence.
    host: { ...(options.host ?? createLookingHost()), sessionRenewed: (reason) => notice(io, reason) },
    ...(signals.length > 0 ? { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) } : {}),
    era: flags.era,
    timeoutMs: flags.timeoutMs,
    ...(server.credential !== undefined ? { auth: givenCredential(server.credential, server.login) } : server.login !== undefined ? { auth: storedLogin(io.env, server.login) } : {}),
    ...(traces.length > 0 ? { onTrace: (entry: TraceEntry) => traces.forEach((trace) => trace(entry)) } : {}),
  });
  return opened.catch((error: unknown) => {
    throw openingFailure(error);
  });
}

/**
 * "modern era, 2026-07-28", and how it was found when that was not the plain probe. `eraPinned`: the user gave
 * --era; a verdict can be pinned without it, by `--transport sse` (that transport carries only the legacy era).
 */
export function eraLine(client: Client, eraPinned: boolean): string {
  const { verdict } = client;
  const fellBack = verdict.era === 'legacy' && verdict.how === 'probe';
  const sse = client.transportName === 'sse';
  // Falling back is the normal way to meet a legacy server, so it reads as a notice, not a failure.
  const detail = eraPinned ? ', pinned by --era' : fellBack ? `, found by trying the modern era first (${verdict.evidence})` : '';
  const over = sse ? ', over the deprecated HTTP+SSE transport' : '';
  return `${client.era} era, ${client.protocolVersion}${over}${detail}`;
}
