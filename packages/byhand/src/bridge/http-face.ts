// The Streamable HTTP face (`--listen`), dual-era on one path. A 2026 request (an envelope, or server/discover) is
// answered on its own POST, stateless, through the one modern face; what the server asks during a call waits in the
// pending calls, so the retry may come on any connection. A 2025 host opens a session with `initialize`: its own
// back, and its requests answered on an event stream on which the bridge also sends what the server asks of it.

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { JsonObject, JsonRpcMessage, JsonRpcRequest } from '@byhand/client';
import { JsonRpcPeer } from './json-rpc-peer.js';
import { LegacyFace, type Back } from './legacy-face.js';
import { isModernRequest, ModernFace } from './modern-face.js';
import type { Backs } from './stdio-face.js';

export interface HttpFaceOptions {
  backs: Backs;
  /** The largest request body read, in bytes. */
  maxBodyBytes?: number;
  /** 2025 sessions held at once. */
  maxSessions?: number;
}

export interface HttpFace {
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

const encoder = new TextEncoder();

/** One answer stream: the events of one POST (or the session's GET), closed when its request is answered. */
class EventStream {
  readonly readable: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private open = true;

  constructor(private readonly onClose: () => void) {
    this.readable = new ReadableStream<Uint8Array>({
      start: (controller) => void (this.controller = controller),
      cancel: () => this.ended(),
    });
  }

  send(message: JsonRpcMessage): void {
    if (this.open) this.controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
  }

  close(): void {
    if (!this.open) return;
    this.controller.close();
    this.ended();
  }

  private ended(): void {
    this.open = false;
    this.onClose();
  }
}

/** One 2025 host: its session, its back, and the streams its answers and the server's questions go out on. */
class LegacySession {
  readonly id = randomUUID();
  readonly peer: JsonRpcPeer;
  readonly face: LegacyFace;
  /** The open POST stream of each request still running, by its id. */
  private readonly streams = new Map<string | number, EventStream>();
  private readonly current = new AsyncLocalStorage<EventStream>();
  private standalone: EventStream | undefined;

  /** When the host last sent something: the least recently used idle session is the one closed to make room. */
  lastUsed = 0;
  private failedStart = false;

  constructor(backs: Backs, private readonly onFailedStart: () => void) {
    this.peer = new JsonRpcPeer((message) => this.route(message), async (request, signal) => {
      try {
        return await this.face.handle(request, signal);
      } catch (error) {
        // A session whose server could not be opened holds nothing worth keeping, once the host is told why.
        if (request.method === 'initialize') this.failedStart = true;
        throw error;
      }
    });
    const link = { ask: (method: string, params: JsonObject, signal: AbortSignal) => this.peer.ask(method, params, signal), notify: (method: string, params?: JsonObject) => this.peer.notify(method, params) };
    this.face = new LegacyFace(link, backs.open, backs.own, backs.warn);
  }

  /** Whether a request of the host's is still being answered. */
  get busy(): boolean {
    return this.streams.size > 0;
  }

  /** A request from the host, answered on an event stream that also carries what is asked of it meanwhile. */
  request(message: JsonRpcRequest): Response {
    const stream = new EventStream(() => this.streams.delete(message.id));
    this.streams.set(message.id, stream);
    this.current.run(stream, () => this.peer.receive(message));
    return new Response(stream.readable, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'mcp-session-id': this.id } });
  }

  /** The session's own stream (GET): where the server's notifications go when no request is running. */
  listen(): Response {
    this.standalone?.close();
    const stream = new EventStream(() => {
      if (this.standalone === stream) this.standalone = undefined;
    });
    this.standalone = stream;
    return new Response(stream.readable, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'mcp-session-id': this.id } });
  }

  async close(): Promise<void> {
    this.peer.close();
    for (const stream of this.streams.values()) stream.close();
    this.standalone?.close();
    await this.face.close().catch(() => undefined);
  }

  /**
   * An answer goes on its request's stream, which it ends. A request or notification to the host goes on the stream
   * of the request it belongs to, else on any running request's, else on the session's own.
   */
  private route(message: JsonRpcMessage): void {
    if (!('method' in message) && message.id !== null) {
      const stream = this.streams.get(message.id);
      stream?.send(message);
      stream?.close();
      if (this.failedStart) this.onFailedStart();
      return;
    }
    const stream = this.current.getStore() ?? this.streams.values().next().value ?? this.standalone;
    stream?.send(message);
  }
}

export function createHttpFace(options: HttpFaceOptions): HttpFace {
  const { backs } = options;
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 64;
  const sessions = new Map<string, LegacySession>();
  /** Orders the sessions by use, without reading the time. */
  let clock = 0;
  let modernBack: Promise<Back> | undefined;
  const modern: ModernFace = new ModernFace(async () => (await (modernBack ??= backs.open(backs.pending.host(), (n) => modern.listens.relay(n)))).client, backs.pending);

  async function fetch(request: Request): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    const session = sessionId === null ? undefined : sessions.get(sessionId);
    if (sessionId !== null && session === undefined) return rpcError(404, -32001, 'Session not found: it ended, or this bridge never opened it; send initialize again');
    if (request.method === 'GET') return session !== undefined ? session.listen() : rpcError(405, -32000, 'Method Not Allowed: a GET needs the Mcp-Session-Id of a 2025 session');
    if (request.method === 'DELETE') {
      if (session === undefined) return rpcError(405, -32000, 'Method Not Allowed: a DELETE needs the Mcp-Session-Id of a 2025 session');
      await end(session);
      return new Response(null, { status: 200 });
    }
    if (request.method !== 'POST') return rpcError(405, -32000, `Method Not Allowed: ${request.method}`);
    const body = await readBody(request, maxBodyBytes);
    if (body === undefined) return rpcError(413, -32600, `Request body over ${maxBodyBytes} bytes`);
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return rpcError(400, -32700, 'Parse error: the body is not JSON');
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return rpcError(400, -32600, 'Invalid Request: one JSON-RPC message per POST');
    const m = message as JsonObject;
    if (typeof m.method !== 'string' || m.id === undefined) {
      // An answer to what the bridge asked, or a notification: the session's.
      session?.peer.receive(m);
      return new Response(null, { status: 202 });
    }
    const rpc = m as unknown as JsonRpcRequest;
    if (session === undefined && isModernRequest(rpc)) return modernAnswer(rpc, request.signal);
    if (session !== undefined) {
      session.lastUsed = ++clock;
      return session.request(rpc);
    }
    if (rpc.method !== 'initialize') return rpcError(400, -32000, `Bad Request: ${rpc.method} without a session; a 2025 host sends initialize first, a 2026 one the _meta envelope`);
    if (sessions.size >= maxSessions && !(await closeIdlest())) return rpcError(503, -32000, `Service Unavailable: ${maxSessions} sessions are busy; try later`);
    const opened = new LegacySession(backs, () => void end(opened));
    sessions.set(opened.id, opened);
    opened.lastUsed = ++clock;
    return opened.request(rpc);
  }

  async function end(session: LegacySession): Promise<void> {
    sessions.delete(session.id);
    await session.close();
  }

  /** Makes room by closing the least recently used session with no request running; false when every one is busy. */
  async function closeIdlest(): Promise<boolean> {
    let idlest: LegacySession | undefined;
    for (const session of sessions.values()) if (!session.busy && (idlest === undefined || session.lastUsed < idlest.lastUsed)) idlest = session;
    if (idlest === undefined) return false;
    await end(idlest);
    return true;
  }

  /**
   * A 2026 request's answer, as JSON; as an event stream when notifications come before it: `subscriptions/listen`,
   * which lasts until the host hangs up, and a request that asked for progress.
   */
  function modernAnswer(request: JsonRpcRequest, signal: AbortSignal): Promise<Response> | Response {
    if (request.method === 'subscriptions/listen' || (request.params?._meta as JsonObject | undefined)?.progressToken !== undefined) {
      const stream = new EventStream(() => controller.abort());
      const controller = new AbortController();
      const peer = new JsonRpcPeer((message) => (stream.send(message), stream.close()), (r, s) => modern.handle(r, AbortSignal.any([s, signal, controller.signal]), (n) => stream.send(n)));
      peer.receive(request);
      return new Response(stream.readable, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
    }
    return new Promise<JsonRpcMessage>((resolve) => {
      const peer = new JsonRpcPeer(resolve, (r, s) => modern.handle(r, AbortSignal.any([s, signal]), () => undefined));
      peer.receive(request);
    }).then((answer) => Response.json(answer));
  }

  return {
    fetch,
    async close() {
      backs.pending.close();
      await Promise.all([...sessions.values()].map((session) => session.close()));
      sessions.clear();
      await (await modernBack?.catch(() => undefined))?.close().catch(() => undefined);
    },
  };
}

/** The body as text, or undefined once it passes `max` bytes (it is not read further). */
async function readBody(request: Request, max: number): Promise<string | undefined> {
  if (Number(request.headers.get('content-length') ?? 0) > max) return undefined;
  const reader = request.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', id: null, error: { code, message } }, { status });
}
