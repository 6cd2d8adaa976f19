// The node:http listener under every web-standard handler byhand serves (`byhand serve`'s toolboxes, `byhand bridge
// --listen`): the bounds on what one client can hold open, one answer for every request however its handler fails,
// and no proxying.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { requestProblem, toBufferedWebRequest, UnconvertibleRequestError, writeWebResponse } from './node-adapter.js';
import { hostForUrl } from './host-check.js';
import { capConnectionsPerAddress } from './per-address.js';

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
  /**
   * How long a client still sending a body that was already answered (a 413) may go on once the request deadline
   * has passed: the server has half-closed by then, and cuts the connection after this.
   */
  lingerMs: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  maxConnections: 512,
  // Half the total: one address cannot take every slot, and an honest client with many requests at once (a load
  // generator, a busy host) is not cut at accept, as it was at an eighth.
  maxConnectionsPerAddress: 256,
  timeoutCheckMs: 1_000,
  lingerMs: 5_000,
};

export interface ListenOptions {
  port?: number;
  /** The address to bind. */
  host: string;
  /** listenFetch: a request body of a declared length up to this is read whole before the handler sees it (node-adapter.ts); none by default. */
  bufferBytes?: number;
  limits?: Partial<ServerLimits>;
  onerror?: (error: Error) => void;
}

export interface Listening {
  /** The address actually bound, e.g. `0.0.0.0:3000`. */
  bound: string;
  /** The base URL of the bound address, as this machine reaches it. */
  origin: string;
  port: number;
  /** True when the bind address is not loopback, so other machines can connect. */
  exposed: boolean;
  close(): Promise<void>;
}


/**
 * The request was answered and its body is still arriving: a deadline now must not write a 408 (a second answer to
 * one request), and must not reset the connection, which can discard the answer before the client reads it. So the
 * server half-closes, goes on dropping what arrives, and cuts the connection only after `lingerMs`.
 */
function closeAfterAnswer(socket: Socket, lingerMs: number): void {
  socket.setTimeout(0);
  socket.end();
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

function badRequest(message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32600, message: `Bad request: ${message}` }, id: null }, { status: 400 });
}

/** The same 400 as written by hand on a socket node no longer parses HTTP on (CONNECT hands over the raw socket). */
function rawBadRequest(message: string): string {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: `Bad request: ${message}` }, id: null });
  return `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** A node:http handler behind the listener's bounds; `path` is the target without its query or trailing slashes. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>;

/** Serves `route(request, path)`, a web-standard handler, until closed. */
export async function listenFetch(route: (request: Request, path: string) => Promise<Response>, options: ListenOptions): Promise<Listening> {
  const report = (error: unknown) => options.onerror?.(error instanceof Error ? error : new Error(String(error)));
  let origin = 'http://127.0.0.1';
  const listening = await listenNode(async (req, res, path) => {
    let response: Response;
    try {
      response = await route(await toBufferedWebRequest(req, res, origin, options.bufferBytes ?? 0), path);
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
  }, options);
  origin = listening.origin;
  return listening;
}

/**
 * Serves `handle` on node:http itself, for a handler that answers without web Request/Response objects (the bridge,
 * where they cost as much as the rest of a call). A request with two Host headers or a target on another origin is
 * refused before the handler sees it, as `listenFetch` refuses it.
 */
export async function listenNode(handle: NodeHandler, options: ListenOptions): Promise<Listening> {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const report = (error: unknown) => options.onerror?.(error instanceof Error ? error : new Error(String(error)));
  let origin = 'http://127.0.0.1';
  /** Sockets whose request was answered before its body had all arrived (the body's rest is being dropped). */
  const answeredEarly = new WeakSet<Socket>();
  // Everything a request can throw, synchronously or not, ends as an answer on that request: one bad request must
  // never end the process that serves everyone else.
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.once('finish', () => {
      if (req.complete) return;
      const socket = req.socket;
      answeredEarly.add(socket);
      req.once('end', () => answeredEarly.delete(socket));
      // A Connection: close answer was ended with node's destroySoon, which destroys the socket once the answer is
      // written (node's _http_server.js resOnFinish): with the client still sending, that is a reset, and a reset can
      // discard the answer before the client reads it. So it lingers as after a deadline.
      if (socket.writableEnded && !socket.destroyed) {
        socket.removeListener('finish', socket.destroy);
        closeAfterAnswer(socket, limits.lingerMs);
      }
    });
    const problem = requestProblem(req, origin);
    if (problem !== undefined) {
      res.setHeader('connection', 'close');
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: `Bad request: ${req.method ?? ''} ${req.url ?? ''}: ${problem}` }, id: null }));
      return;
    }
    try {
      await handle(req, res, (req.url ?? '/').split('?')[0].replace(/\/+$/, ''));
    } catch (error) {
      report(error);
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
    }
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
    if (answeredEarly.has(socket as Socket)) return closeAfterAnswer(socket as Socket, limits.lingerMs);
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`, () => socket.destroy());
  });
  // Node hands a CONNECT to this event and, with no listener, drops the socket without a word.
  server.on('connect', (req: IncomingMessage, socket) => {
    socket.end(rawBadRequest(`CONNECT ${req.url ?? ''}: this server is not a proxy`), () => socket.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  origin = `http://${hostForUrl(address.address)}:${address.port}`;
  const boundHost = address.address.includes(':') ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    bound: `${boundHost}:${address.port}`,
    origin,
    port: address.port,
    exposed: !['127.0.0.1', '::1', 'localhost'].includes(address.address) && !address.address.startsWith('127.'),
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
