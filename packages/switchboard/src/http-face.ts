// The Streamable HTTP face, dual-era on one path, over any carrier (exchange.ts). A 2026 request (an envelope, or
// server/discover) is answered on its own POST, stateless, through the one modern face; what the server asks during
// a call waits in the pending calls, so the retry may come on any connection. A 2025 host opens a session with
// `initialize`: its own back, and its requests answered on an event stream on which the bridge also sends what the
// server asks of it or tells it; the streams are resumable (resumable.ts). A 2026 request is checked as a 2026 server
// checks it (modern-gate.ts).

import { META, type JsonObject, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest } from '@byhand/client';
import { rpcError, type HttpExchange, type ResponseSink } from './exchange.js';
import { AnswerError, errorOf, frame, JsonRpcPeer } from './json-rpc-peer.js';
import { alsoWhenGone, LegacyFace } from './legacy-face.js';
import { ModernBacks } from './modern-backs.js';
import { isModernRequest, ModernFace } from './modern-face.js';
import { SessionStreams, type ResumableStream } from './resumable.js';
import type { Backs } from './stdio-face.js';

export interface HttpFaceOptions {
  backs: Backs;
  /** The largest request body read, in bytes. */
  maxBodyBytes?: number;
  /** 2025 sessions held at once. */
  maxSessions?: number;
  /** Of those, one host's (its address and the name it gives in initialize). */
  maxSessionsPerHost?: number;
  /** How long a session must have been idle before another host's initialize may close it to make room. */
  idleMs?: number;
  /** The clock, for idleness (injected in tests). */
  now?: () => number;
}

export interface HttpFace {
  /** One HTTP request to the face's path. */
  serve(exchange: HttpExchange): Promise<void>;
  close(): Promise<void>;
}

/** Messages a 2025 session holds while it has no stream open, for the next stream it opens. */
const MAX_HELD = 1000;

/**
 * One 2026 request's answer: JSON with the answer's own status, unless a notification comes first (a subscription's
 * acknowledgement, the call's progress or log messages): then an event stream, opened on that first notification.
 */
class ModernReply {
  private stream: ResponseSink | undefined;
  private done = false;

  constructor(private readonly exchange: HttpExchange) {}

  notify(notification: JsonRpcNotification): void {
    if (this.done) return;
    const text = frame(notification);
    if (text === undefined) return;
    this.stream ??= this.exchange.open({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    this.stream.write(`event: message\ndata: ${text}\n\n`);
  }

  answer(message: JsonRpcMessage, status: number): void {
    if (this.done) return;
    this.done = true;
    const text = frame(message)!;
    if (this.stream !== undefined) return this.stream.end(`event: message\ndata: ${text}\n\n`);
    this.exchange.reply(status, { 'content-type': 'application/json' }, text);
  }
}

/** One 2025 host: its session, its back, and the streams its answers and the server's questions go out on (resumable.ts). */
class LegacySession {
  readonly id = crypto.randomUUID();
  readonly peer: JsonRpcPeer;
  readonly face: LegacyFace;
  private readonly streams = new SessionStreams();
  /** The stream of each request still running, by its id: it outlives a host that hung up on it, for a GET to resume. */
  private readonly running = new Map<string | number, ResumableStream>();
  private standalone: ResumableStream | undefined;
  /** What the server said while the session had no stream open, for its next one. */
  private readonly held: JsonRpcMessage[] = [];
  private dropped = 0;

  /** When the host last sent something: the least recently used idle session is the one closed to make room. */
  lastUsed: number;
  /** The session holds nothing worth keeping: its server could not be opened, or its process exited. */
  private over = false;

  /** `onOver`: the session is to be ended, once what is running has its answer. */
  constructor(
    private readonly backs: Backs,
    /** Who opened it: its address and the name it gave, for the per-host bound. */
    readonly host: string,
    now: number,
    private readonly onOver: () => void,
  ) {
    this.lastUsed = now;
    this.peer = new JsonRpcPeer((message, related) => this.route(message, related), async (request, signal) => {
      try {
        return await this.face.handle(request, signal);
      } catch (error) {
        // A session whose server could not be opened holds nothing worth keeping, once the host is told why.
        if (request.method === 'initialize') this.over = true;
        throw error;
      }
    });
    const link = {
      ask: (method: string, params: JsonObject, signal: AbortSignal) => this.peer.ask(method, params, signal),
      notify: (method: string, params?: JsonObject, related?: string | number) => this.peer.notify(method, params, related),
    };
    // A server process that exits takes its session with it: the host's next request is told the session is not
    // found, and a 2025 host then starts a new one (and with it, the server again).
    const open = alsoWhenGone(backs.open, (reason) => {
      backs.warn(`${reason}: the 2025 session that used it ends`);
      this.over = true;
      if (!this.busy) this.onOver();
    });
    this.face = new LegacyFace(link, open, backs.own, backs.warn);
  }

  /** Whether a request of the host's is still being answered. */
  get busy(): boolean {
    return this.running.size > 0;
  }

  /**
   * A request from the host, answered on an event stream that also carries what is asked of it meanwhile; `version`,
   * the host's protocol version, says whether the stream opens with a priming event.
   */
  request(message: JsonRpcRequest, exchange: HttpExchange, version: string | undefined): void {
    const stream = this.streams.open();
    this.running.set(message.id, stream);
    stream.attach(exchange, { 'mcp-session-id': this.id }, { prime: version !== undefined && version >= '2025-11-25' });
    this.flushHeld(stream);
    this.peer.receive(message);
  }

  /**
   * A GET: with a Last-Event-ID of one of this session's streams, what came after it on that stream and the rest of
   * it; else the session's own stream, where the server's messages go that belong to no request.
   */
  listen(exchange: HttpExchange, lastEventId: string | undefined): void {
    const found = lastEventId === undefined ? undefined : this.streams.find(lastEventId);
    if (found !== undefined) return found.stream.attach(exchange, { 'mcp-session-id': this.id }, { after: found.after });
    this.standalone ??= this.streams.open();
    this.standalone.attach(exchange, { 'mcp-session-id': this.id });
    this.flushHeld(this.standalone);
  }

  async close(): Promise<void> {
    this.peer.close();
    this.streams.close();
    this.running.clear();
    this.held.length = 0;
    await this.face.close().catch(() => undefined);
  }

  /**
   * An answer goes on its request's stream, which it ends. Anything else goes on the stream of the request it belongs
   * to (`related`), else on the session's own stream while the host listens there, else on the stream of a request
   * still running, else it is held for the next stream the session opens (spec 2025-11-25 basic/transports.mdx: the
   * server sends on the GET stream, or on a POST stream before its response).
   */
  private route(message: JsonRpcMessage, related?: string | number): void {
    if (!('method' in message) && message.id !== null) {
      const stream = this.running.get(message.id);
      this.running.delete(message.id);
      stream?.send(message);
      stream?.end();
      if (stream !== undefined) this.streams.retire(stream);
      if (this.over && !this.busy) this.onOver();
      return;
    }
    const stream = (related !== undefined ? this.running.get(related) : undefined) ?? (this.standalone?.listening ? this.standalone : undefined) ?? this.anyRunning();
    if (stream !== undefined) return stream.send(message);
    this.held.push(message);
    if (this.held.length <= MAX_HELD) return;
    this.held.shift();
    if (this.dropped++ === 0) this.backs.warn(`a 2025 session has had no stream open for ${MAX_HELD} messages: the oldest are dropped until the host opens one (a GET, or its next request)`);
  }

  private anyRunning(): ResumableStream | undefined {
    for (const stream of this.running.values()) if (stream.listening) return stream;
    return undefined;
  }

  private flushHeld(stream: ResumableStream): void {
    if (this.dropped > 0) this.backs.warn(`a 2025 session's stream opened; ${this.dropped} messages were dropped while it had none`);
    this.dropped = 0;
    for (const message of this.held.splice(0)) stream.send(message);
  }
}

export function createHttpFace(options: HttpFaceOptions): HttpFace {
  const { backs } = options;
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 64;
  const maxPerHost = Math.min(options.maxSessionsPerHost ?? 16, maxSessions);
  const idleMs = options.idleMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  const sessions = new Map<string, LegacySession>();
  // A back whose process exited is started again by the next request that needs it.
  const openModern = alsoWhenGone(backs.open, (reason) => backs.warn(`${reason}: the next 2026 request that needs it starts it again`));
  const modernBacks: ModernBacks = new ModernBacks(openModern, backs.pending, (n, from) => modern.relay(n, from), { warn: backs.warn, ...(backs.backsPerGroup !== undefined ? { maxPerGroup: backs.backsPerGroup } : {}) });
  const modern = new ModernFace(modernBacks, backs.pending, { tasks: backs.tasks });

  async function serve(x: HttpExchange): Promise<void> {
    const sessionId = x.header('mcp-session-id');
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && session === undefined) return rpcError(x, 404, -32001, 'Session not found: it ended, or this bridge never opened it; send initialize again');
    if (x.method === 'GET') return session !== undefined ? session.listen(x, x.header('last-event-id')) : rpcError(x, 405, -32000, 'Method Not Allowed: a GET needs the Mcp-Session-Id of a 2025 session');
    if (x.method === 'DELETE') {
      if (session === undefined) return rpcError(x, 405, -32000, 'Method Not Allowed: a DELETE needs the Mcp-Session-Id of a 2025 session');
      await end(session);
      return x.reply(200, {});
    }
    if (x.method !== 'POST') return rpcError(x, 405, -32000, `Method Not Allowed: ${x.method}`);
    const body = await x.body(maxBodyBytes);
    if (body === undefined) return rpcError(x, 413, -32600, `Request body over ${maxBodyBytes} bytes`);
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return rpcError(x, 400, -32700, 'Parse error: the body is not JSON');
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return rpcError(x, 400, -32600, 'Invalid Request: one JSON-RPC message per POST');
    const m = message as JsonObject;
    if (typeof m.method !== 'string' || m.id === undefined) {
      // An answer to what the bridge asked, or a notification: the session's.
      session?.peer.receive(m);
      return x.reply(202, {});
    }
    const rpc = m as unknown as JsonRpcRequest;
    if (session === undefined && isModernRequest(rpc)) return modernAnswer(rpc, x);
    if (session !== undefined) {
      session.lastUsed = now();
      return session.request(rpc, x, x.header('mcp-protocol-version'));
    }
    if (rpc.method !== 'initialize') return rpcError(x, 400, -32000, `Bad Request: ${rpc.method} without a session; a 2025 host sends initialize first, a 2026 one the _meta envelope`);
    const host = hostOf(x.address, rpc.params?.clientInfo);
    const refusal = await makeRoom(host);
    if (refusal !== undefined) return rpcError(x, 503, -32000, `Service Unavailable: ${refusal}; try later`);
    const opened: LegacySession = new LegacySession(backs, host, now(), () => void end(opened));
    sessions.set(opened.id, opened);
    opened.request(rpc, x, typeof rpc.params?.protocolVersion === 'string' ? rpc.params.protocolVersion : undefined);
  }

  async function end(session: LegacySession): Promise<void> {
    // Ended already (a DELETE while its server exited, say): closed then.
    if (!sessions.delete(session.id)) return;
    await session.close();
  }

  /**
   * Room for one more of `host`'s sessions, or why there is none. A host at its own bound, or at the total one, makes
   * room by closing its own least recently used idle session; another host's session is closed only when it has been
   * idle a long while, so no host can push the others out by opening sessions.
   */
  async function makeRoom(host: string): Promise<string | undefined> {
    const own = [...sessions.values()].filter((session) => session.host === host);
    if (own.length < maxPerHost && sessions.size < maxSessions) return undefined;
    const idlest = (among: LegacySession[]) => among.filter((session) => !session.busy).sort((a, b) => a.lastUsed - b.lastUsed)[0];
    const ownIdle = idlest(own);
    if (ownIdle !== undefined) return void (await end(ownIdle));
    if (own.length >= maxPerHost) return `this host has ${own.length} sessions, the most one host may hold, each busy`;
    const stale = idlest([...sessions.values()].filter((session) => now() - session.lastUsed >= idleMs));
    if (stale !== undefined) return void (await end(stale));
    return `${maxSessions} sessions are open`;
  }

  /** A 2026 request's answer: JSON, or an event stream when notifications come before it (ModernReply). */
  async function modernAnswer(request: JsonRpcRequest, x: HttpExchange): Promise<void> {
    try {
      await modern.check(request, (name) => x.header(name));
    } catch (error) {
      return new ModernReply(x).answer({ jsonrpc: '2.0', id: request.id, error: errorOf(error) }, statusOf(error));
    }
    const reply = new ModernReply(x);
    const caller = hostOf(x.address, (request.params?._meta as JsonObject | undefined)?.[META.clientInfo]);
    try {
      // The caller's hang-up gives the request up until its answer; what listens to it stops listening then.
      reply.answer({ jsonrpc: '2.0', id: request.id, result: await modern.run(request, x.hangUp, (n) => reply.notify(n), caller) }, 200);
    } catch (error) {
      reply.answer({ jsonrpc: '2.0', id: request.id, error: errorOf(error) }, statusOf(error));
    }
  }

  return {
    serve,
    async close() {
      backs.pending.close();
      await Promise.all([...sessions.values()].map((session) => session.close()));
      sessions.clear();
      await modernBacks.close();
    },
  };
}

/**
 * The HTTP status of a 2026 error answer: a request refused before it was carried says its own (modern-gate.ts); an
 * error from carrying it is the JSON-RPC answer, 200, except -32021, whose 400 the spec puts on the error itself
 * (the SDK's httpStatusForErrorCode, @modelcontextprotocol/server dist/src-*.mjs).
 */
function statusOf(error: unknown): number {
  if (error instanceof AnswerError && error.status !== undefined) return error.status;
  return errorOf(error).code === -32021 ? 400 : 200;
}

/**
 * Who a host is, for the per-host bounds: its address and the name its clientInfo gives. A name is the host's own
 * word, so this keeps well-behaved hosts from crowding each other out, not a hostile one on the same machine.
 */
function hostOf(address: string, clientInfo: unknown): string {
  const name = (clientInfo as JsonObject | undefined)?.name;
  return `${address} ${typeof name === 'string' ? name : ''}`;
}
