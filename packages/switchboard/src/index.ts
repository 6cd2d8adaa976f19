// `@byhand/switchboard`: any MCP host meets any MCP server, whatever era each speaks. A host application embeds it with
// `createBridge({ open })`, where `open` opens the server as a byhand client (`connect` from @byhand/client, with the
// host the bridge gives it); the bridge then serves hosts on a pipe (`stdio`), on any web server as a fetch handler
// (`fetch`, Workers included where the server is on HTTP), or on node:http (`@byhand/switchboard/node`). Nothing here
// imports from node: at load. The rules it keeps are in docs/bridge.md.

import type { Host } from '@byhand/client';
import { createStateCodec, DEFAULT_STATE_TTL_SECONDS, defaultStateKey, hostRefusal, stateKeyBytes } from '@byhand/servers/edge';
import { rpcError, type HttpExchange } from './exchange.js';
import { createHttpFace, type HttpFace } from './http-face.js';
import type { OpenBack } from './legacy-face.js';
import { PendingCalls } from './pending-calls.js';
import { serveStdio, type Backs, type StdioIO } from './stdio-face.js';
import { webExchange } from './web-http.js';

export type { Back, BackEvents, OpenBack } from './legacy-face.js';
export type { HttpExchange, ResponseSink } from './exchange.js';
export type { StdioIO } from './stdio-face.js';
export { CARRIED_EXTENSIONS } from './extensions.js';

export interface BridgeLimits {
  /** Calls of 2026 hosts running or waiting for their host, in all (default 64) and per host (default 16). */
  calls?: number;
  callsPerHost?: number;
  /** How long a call waits for its host's retry, in ms (default 60 s). */
  callWaitMs?: number;
  /** 2025 sessions on the HTTP face, in all (default 64) and per host (default 16). */
  sessions?: number;
  sessionsPerHost?: number;
  /** Backs open at once per group of 2026 callers in front of a legacy server (default 8). */
  backsPerGroup?: number;
  /**
   * Tasks the bridge makes for 2026 hosts in front of a 2025 server that runs none, kept running or ended: in all
   * (default 256) and per host (default 64), each for its ttl in ms from its creation (default 10 minutes).
   */
  tasks?: number;
  tasksPerHost?: number;
  taskTtlMs?: number;
  /** The largest request body the HTTP face reads, in bytes (default 4 MiB). */
  bodyBytes?: number;
}

export interface BridgeOptions {
  /**
   * Opens the server for the bridge: a client whose host is the one given (its callbacks are what the back declares to
   * the server, exactly what the hosts behind it declared), telling `events` what the server says between calls.
   */
  open: OpenBack;
  /** Answers the bridge gives for what a 2025 host did not declare (sampling through a provider, forms from a file). */
  own?: Host;
  /**
   * Keys the requestState of calls waiting for a 2026 host (HMAC-SHA256): 32 bytes or more, the same on every instance
   * behind one URL. Default: a key of this process's.
   */
  stateSecret?: string;
  /** Names the HTTP face accepts in Host and Origin besides the loopback ones (DNS rebinding); `['*']` accepts any. */
  allowedHosts?: readonly string[];
  /** What no host can be told (a stream given up, a call that waits), for a log. */
  warn?: (text: string) => void;
  limits?: BridgeLimits;
}

export interface Bridge {
  /** The Streamable HTTP face (both eras on one URL) as a fetch handler; `address` names the caller for the per-host bounds. */
  fetch(request: Request, info?: { address?: string }): Promise<Response>;
  /** The same face on any carrier (`@byhand/switchboard/node` is node:http's). */
  serve(exchange: HttpExchange): Promise<void>;
  /**
   * Serves one host on a pipe (newline-delimited JSON-RPC) until its input ends, `interrupt` aborts, or a server the
   * bridge started exits on its own; resolves with why the server is gone, if it is.
   */
  stdio(io: StdioIO): Promise<string | undefined>;
  /** Gives up what the HTTP face has in flight and closes the servers it opened (a pipe's end with its `interrupt`). */
  close(): Promise<void>;
}

export function createBridge(options: BridgeOptions): Bridge {
  const limits = options.limits ?? {};
  const warn = options.warn ?? (() => undefined);
  const codec = createStateCodec(stateKeyBytes(defaultStateKey(options.stateSecret)), DEFAULT_STATE_TTL_SECONDS);
  const backs = (): Backs => ({
    open: options.open,
    own: options.own ?? {},
    warn,
    pending: new PendingCalls({ codec, warn, ...defined({ max: limits.calls, maxPerCaller: limits.callsPerHost, waitMs: limits.callWaitMs }) }),
    tasks: { warn, ...defined({ max: limits.tasks, maxPerCaller: limits.tasksPerHost, ttlMs: limits.taskTtlMs }) },
    ...defined({ backsPerGroup: limits.backsPerGroup }),
  });
  const anyHost = options.allowedHosts?.includes('*') === true;
  const refusal = hostRefusal(options.allowedHosts ?? []);
  let http: HttpFace | undefined;
  const serve = (exchange: HttpExchange) => {
    const refused = anyHost ? undefined : refusal(exchange.header('host'), exchange.header('origin'));
    if (refused !== undefined) return Promise.resolve(rpcError(exchange, 403, -32000, refused));
    http ??= createHttpFace({ backs: backs(), ...defined({ maxBodyBytes: limits.bodyBytes, maxSessions: limits.sessions, maxSessionsPerHost: limits.sessionsPerHost }) });
    return http.serve(exchange);
  };
  return {
    serve,
    fetch(request, info) {
      const { exchange, response } = webExchange(request, info?.address);
      // The answer is the response as soon as the face gives one (an event stream goes on after it).
      serve(exchange).catch((error: unknown) => rpcError(exchange, 500, -32603, `byhand bridge: ${error instanceof Error ? error.message : String(error)}`));
      return response;
    },
    stdio: (io) => serveStdio(io, backs()),
    async close() {
      await http?.close();
    },
  };
}

/** The entries whose value is given: an option left out keeps its default. */
function defined<T extends Record<string, unknown>>(entries: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
