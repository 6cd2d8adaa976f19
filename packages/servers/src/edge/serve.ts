// `byhand serve`: every toolbox on one node:http server, each under its own path.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createToolbox, type ToolboxOptions } from '../toolboxes/create.js';
import { TOOLBOXES, type ToolboxName } from '../toolboxes/registry.js';
import type { StorageFailureReport } from '../toolboxes/cookie-jar/jar/guarded-store.js';
import { openJarStorage } from '../toolboxes/cookie-jar/jar/open.js';
import { defaultStateKey } from './state.js';
import { LOOPBACK_HOSTS, type LegacyMode, type ToolboxHandler } from './toolbox.js';
import { toWebRequest, UnconvertibleRequestError, writeWebResponse } from './node-adapter.js';
import { capConnectionsPerAddress } from './per-address.js';

export interface StartServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1: a toolbox that asks your model to think is not for the whole network. */
  host?: string;
  /** Cookie Jar database: a SQLite file or a postgres:// URL; `:memory:` (the default) forgets everything on close. */
  dbPath?: string;
  /** requestState HMAC secret; defaults to $BYHAND_STATE_SECRET, else a per-process random key. */
  stateSecret?: string;
  stateTtlSeconds?: number;
  /** Extra hostnames accepted in Host/Origin (e.g. the name a reverse proxy uses). */
  allowedHosts?: readonly string[];
  maxBodyBytes?: number;
  /** Overrides each toolbox's default legacy posture. */
  legacy?: Partial<Record<ToolboxName, LegacyMode>>;
  /** Only mount these. */
  toolboxes?: ToolboxName[];
  sessionIdleMs?: number;
  /** Bounds on what one client can hold open: see DEFAULT_SERVER_LIMITS. */
  limits?: Partial<ServerLimits>;
  now?: () => number;
  onerror?: (error: Error) => void;
  /** The operator's log of storage failures: the client was told only the id given here. */
  onStorageFailure?: StorageFailureReport;
}

export interface ServerLimits {
  /** A request (headers and body) must arrive within this; a body dripped byte by byte is cut off with 408. */
  requestTimeoutMs: number;
  /** The headers must arrive within this. */
  headersTimeoutMs: number;
  /** Open connections at once; more are refused at accept, so a flood cannot take every descriptor. */
  maxConnections: number;
  /** Open connections from one client address; more are closed at accept, so one address cannot take every slot. */
  maxConnectionsPerAddress: number;
  /** How often node checks the two timeouts (its granularity). */
  timeoutCheckMs: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  maxConnections: 512,
  maxConnectionsPerAddress: 64,
  timeoutCheckMs: 1_000,
};

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:3000 (toolboxes live under /api/...). */
  url: string;
  /** Full URL of each mounted toolbox. */
  urls: Record<string, string>;
  /** The address actually bound, e.g. `0.0.0.0:3000`: what the network sees, which `url` (for this machine) may not say. */
  bound: string;
  /** True when the bind address is not loopback, so other machines can connect. */
  exposed: boolean;
  /** Host names accepted in Host and Origin besides the loopback names. */
  allowedHosts: string[];
  close(): Promise<void>;
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function badRequest(message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32600, message: `Bad request: ${message}` }, id: null }, { status: 400 });
}

/** The same 400 as written by hand on a socket node no longer parses HTTP on (CONNECT hands over the raw socket). */
function rawBadRequest(message: string): string {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: `Bad request: ${message}` }, id: null });
  return `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

function notFound(path: string): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32601, message: `No toolbox at ${path}; try ${TOOLBOXES.map((t) => t.path).join(', ')}` }, id: null },
    { status: 404 },
  );
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const stateKey = defaultStateKey(options.stateSecret ?? globalThis.process?.env?.BYHAND_STATE_SECRET);
  const bindName = host.replace(/^\[|\]$/g, '');
  const allowedHosts = [...(options.allowedHosts ?? [])];
  if (!LOOPBACK_HOSTS.includes(bindName) && bindName !== '0.0.0.0' && bindName !== '::') allowedHosts.push(hostForUrl(bindName));

  const mounted = new Map<string, ToolboxHandler>();
  for (const entry of TOOLBOXES) {
    if (options.toolboxes !== undefined && !options.toolboxes.includes(entry.name)) continue;
    const toolboxOptions: ToolboxOptions = {
      stateKey,
      allowedHosts,
      ...(options.stateTtlSeconds !== undefined ? { stateTtlSeconds: options.stateTtlSeconds } : {}),
      ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(options.legacy?.[entry.name] !== undefined ? { legacy: options.legacy[entry.name] } : {}),
      ...(options.sessionIdleMs !== undefined ? { sessionIdleMs: options.sessionIdleMs } : {}),
      ...(entry.stored === true ? { jar: openJarStorage(options.dbPath, options.now !== undefined ? { now: options.now } : {}) } : {}),
      ...(options.onStorageFailure !== undefined ? { onStorageFailure: options.onStorageFailure } : {}),
      ...(options.now !== undefined ? { now: options.now } : {}),
      ...(options.onerror !== undefined ? { onerror: options.onerror } : {}),
    };
    mounted.set(entry.path, createToolbox(entry.name, toolboxOptions));
  }
  try {
    await Promise.all([...mounted.values()].map((toolbox) => toolbox.ready()));
  } catch (error) {
    await Promise.all([...mounted.values()].map((toolbox) => toolbox.close().catch(() => {})));
    throw error;
  }

  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const report = (error: unknown) => options.onerror?.(error instanceof Error ? error : new Error(String(error)));
  let origin = 'http://127.0.0.1';
  // Everything a request can throw, synchronously or not, ends as an answer on that request: one bad request must
  // never end the process that serves everyone else.
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let response: Response;
    try {
      const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
      const toolbox = mounted.get(path);
      const request = toWebRequest(req, res, origin);
      response = toolbox === undefined ? notFound(path) : await toolbox.fetch(request);
    } catch (error) {
      if (error instanceof UnconvertibleRequestError) {
        res.setHeader('connection', 'close');
        response = badRequest(error.message);
      } else {
        report(error);
        response = Response.json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }, { status: 500 });
      }
    }
    await writeWebResponse(response, res);
  };
  const server = createServer({ connectionsCheckingInterval: limits.timeoutCheckMs }, (req: IncomingMessage, res: ServerResponse) => {
    serve(req, res).catch((error: unknown) => {
      report(error);
      res.destroy();
    });
  });
  // requestTimeout covers receiving the request only (node docs, http.Server.requestTimeout), so a slow body is cut
  // off with 408 while a long SSE answer is not. Node also runs these clocks on a kept-alive connection between
  // requests, so an idle one must be closed by keepAliveTimeout first: else an honest client's next request on it
  // meets a 408 (measured in test/servers-soak.test.ts with a 1 s deadline).
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  server.keepAliveTimeout = Math.min(server.keepAliveTimeout, Math.max(100, server.headersTimeout - 500));
  server.maxConnections = limits.maxConnections;
  capConnectionsPerAddress(server, limits.maxConnectionsPerAddress);
  // Destroyed once the answer is out, not only ended: a peer that never closes its side would otherwise keep the
  // half-closed socket, and its connection slot, for good.
  // A socket the server has already ended (it answered, with Connection: close) is left to close by itself: destroyed
  // while the client still sends, it is reset, and a reset can discard the answer before the client reads it (the 413
  // for an oversized body).
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`, () => socket.destroy());
  });
  // Node hands a CONNECT to this event and, with no listener, drops the socket without a word.
  server.on('connect', (req: IncomingMessage, socket) => {
    socket.end(rawBadRequest(`CONNECT ${req.url ?? ''}: this server is not a proxy`), () => socket.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  origin = `http://${hostForUrl(address.address)}:${address.port}`;
  const url = `http://${hostForUrl(host)}:${address.port}`;
  const urls: Record<string, string> = {};
  for (const [path, toolbox] of mounted) urls[toolbox.info.name] = `${url}${path}`;

  let closing: Promise<void> | undefined;
  const boundHost = address.address.includes(':') ? `[${address.address}]` : address.address;
  return {
    url,
    urls,
    bound: `${boundHost}:${address.port}`,
    exposed: !['127.0.0.1', '::1', 'localhost'].includes(address.address) && !address.address.startsWith('127.'),
    allowedHosts,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await Promise.all([...mounted.values()].map((t) => t.close()));
        await stopped;
      })();
      return closing;
    },
  };
}
