// The Streamable HTTP face (`--listen`), dual-era on one path. A 2026 request (an envelope, or server/discover) is
// answered on its own POST, stateless, through the one modern face; what the server asks during a call waits in the
// pending calls, so the retry may come on any connection. A 2025 host opens a session with `initialize`: its own
// back, and its requests answered on an event stream on which the bridge also sends what the server asks of it; the
// streams are resumable (resumable.ts). A 2026 request is checked as a 2026 server checks it (modern-gate.ts).
// It answers on node:http itself, with no web Request or Response: a bridge adds a hop to every call, and building
// those objects for it cost about as much as the rest of the hop.

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { JsonObject, JsonRpcMessage, JsonRpcRequest } from '@byhand/client';
import { dropRestOfBody } from '@byhand/servers/listen';
import { AnswerError, errorOf, JsonRpcPeer } from './json-rpc-peer.js';
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
}

export interface HttpFace {
  /** One HTTP request to the face's path. */
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/** One answer stream: the events of one POST (or the session's GET), closed when its request is answered. */
class EventStream {
  private open = true;

  constructor(private readonly res: ServerResponse, headers: Record<string, string>, private readonly onClose: () => void) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
    res.flushHeaders();
    // The host hung up.
    res.once('close', () => this.ended());
  }

  send(message: JsonRpcMessage): void {
    if (this.open) this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  close(): void {
    if (this.ended()) this.res.end();
  }

  /** Whether this was the end (and not a second word on it). */
  private ended(): boolean {
    if (!this.open) return false;
    this.open = false;
    this.onClose();
    return true;
  }
}

/** One 2025 host: its session, its back, and the streams its answers and the server's questions go out on (resumable.ts). */
class LegacySession {
  readonly id = randomUUID();
  readonly peer: JsonRpcPeer;
  readonly face: LegacyFace;
  private readonly streams = new SessionStreams();
  /** The stream of each request still running, by its id: it outlives a host that hung up, for a GET to resume. */
  private readonly running = new Map<string | number, ResumableStream>();
  private readonly current = new AsyncLocalStorage<ResumableStream>();
  private standalone: ResumableStream | undefined;

  /** When the host last sent something: the least recently used idle session is the one closed to make room. */
  lastUsed = 0;
  /** The session holds nothing worth keeping: its server could not be opened, or its process exited. */
  private over = false;

  /** `onOver`: the session is to be ended, once what is running has its answer. */
  constructor(backs: Backs, private readonly onOver: () => void) {
    this.peer = new JsonRpcPeer((message) => this.route(message), async (request, signal) => {
      try {
        return await this.face.handle(request, signal);
      } catch (error) {
        // A session whose server could not be opened holds nothing worth keeping, once the host is told why.
        if (request.method === 'initialize') this.over = true;
        throw error;
      }
    });
    const link = { ask: (method: string, params: JsonObject, signal: AbortSignal) => this.peer.ask(method, params, signal), notify: (method: string, params?: JsonObject) => this.peer.notify(method, params) };
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
  request(message: JsonRpcRequest, res: ServerResponse, version: string | undefined): void {
    const stream = this.streams.open();
    this.running.set(message.id, stream);
    stream.attach(res, { 'mcp-session-id': this.id }, { prime: version !== undefined && version >= '2025-11-25' });
    this.current.run(stream, () => this.peer.receive(message));
  }

  /**
   * A GET: with a Last-Event-ID of one of this session's streams, what came after it on that stream and the rest of
   * it; else the session's own stream, where the server's notifications go when no request is running.
   */
  listen(res: ServerResponse, lastEventId: string | undefined): void {
    const found = lastEventId === undefined ? undefined : this.streams.find(lastEventId);
    if (found !== undefined) return found.stream.attach(res, { 'mcp-session-id': this.id }, { after: found.after });
    this.standalone ??= this.streams.open();
    this.standalone.attach(res, { 'mcp-session-id': this.id });
  }

  async close(): Promise<void> {
    this.peer.close();
    this.streams.close();
    this.running.clear();
    await this.face.close().catch(() => undefined);
  }

  /**
   * An answer goes on its request's stream, which it ends. A request or notification to the host goes on the stream
   * of the request it belongs to, else on any running request's, else on the session's own.
   */
  private route(message: JsonRpcMessage): void {
    if (!('method' in message) && message.id !== null) {
      const stream = this.running.get(message.id);
      this.running.delete(message.id);
      stream?.send(message);
      stream?.end();
      if (stream !== undefined) this.streams.retire(stream);
      if (this.over && !this.busy) this.onOver();
      return;
    }
    const stream = this.current.getStore() ?? this.running.values().next().value ?? this.standalone;
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
  // A back whose process exited is started again by the next request that needs it.
  const openModern = alsoWhenGone(backs.open, (reason) => backs.warn(`${reason}: the next 2026 request that needs it starts it again`));
  const modernBacks: ModernBacks = new ModernBacks(openModern, backs.pending, (n, scope) => modern.listens.relay(n, scope));
  const modern = new ModernFace((declared) => modernBacks.client(declared), backs.pending);

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sessionId = header(req, 'mcp-session-id');
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && session === undefined) return rpcError(res, 404, -32001, 'Session not found: it ended, or this bridge never opened it; send initialize again');
    if (req.method === 'GET') return session !== undefined ? session.listen(res, header(req, 'last-event-id')) : rpcError(res, 405, -32000, 'Method Not Allowed: a GET needs the Mcp-Session-Id of a 2025 session');
    if (req.method === 'DELETE') {
      if (session === undefined) return rpcError(res, 405, -32000, 'Method Not Allowed: a DELETE needs the Mcp-Session-Id of a 2025 session');
      await end(session);
      return void res.writeHead(200).end();
    }
    if (req.method !== 'POST') return rpcError(res, 405, -32000, `Method Not Allowed: ${req.method ?? ''}`);
    const body = await readBody(req, maxBodyBytes);
    if (body === undefined) return rpcError(res, 413, -32600, `Request body over ${maxBodyBytes} bytes`);
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return rpcError(res, 400, -32700, 'Parse error: the body is not JSON');
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return rpcError(res, 400, -32600, 'Invalid Request: one JSON-RPC message per POST');
    const m = message as JsonObject;
    if (typeof m.method !== 'string' || m.id === undefined) {
      // An answer to what the bridge asked, or a notification: the session's.
      session?.peer.receive(m);
      return void res.writeHead(202).end();
    }
    const rpc = m as unknown as JsonRpcRequest;
    if (session === undefined && isModernRequest(rpc)) return modernAnswer(rpc, req, res);
    if (session !== undefined) {
      session.lastUsed = ++clock;
      return session.request(rpc, res, header(req, 'mcp-protocol-version'));
    }
    if (rpc.method !== 'initialize') return rpcError(res, 400, -32000, `Bad Request: ${rpc.method} without a session; a 2025 host sends initialize first, a 2026 one the _meta envelope`);
    if (sessions.size >= maxSessions && !(await closeIdlest())) return rpcError(res, 503, -32000, `Service Unavailable: ${maxSessions} sessions are busy; try later`);
    const opened: LegacySession = new LegacySession(backs, () => void end(opened));
    sessions.set(opened.id, opened);
    opened.lastUsed = ++clock;
    opened.request(rpc, res, typeof rpc.params?.protocolVersion === 'string' ? rpc.params.protocolVersion : undefined);
  }

  async function end(session: LegacySession): Promise<void> {
    // Ended already (a DELETE while its server exited, say): closed then.
    if (!sessions.delete(session.id)) return;
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
  async function modernAnswer(request: JsonRpcRequest, req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await modern.check(request, (name) => header(req, name));
    } catch (error) {
      return writeJson(res, statusOf(error), { jsonrpc: '2.0', id: request.id, error: errorOf(error) });
    }
    if (request.method === 'subscriptions/listen' || (request.params?._meta as JsonObject | undefined)?.progressToken !== undefined) {
      const hungUp = new AbortController();
      const stream = new EventStream(res, {}, () => hungUp.abort());
      const peer = new JsonRpcPeer((message) => (stream.send(message), stream.close()), (r, s) => modern.run(r, AbortSignal.any([s, hungUp.signal]), (n) => stream.send(n)));
      peer.receive(request);
      return;
    }
    let answer: JsonRpcMessage;
    let status = 200;
    try {
      answer = { jsonrpc: '2.0', id: request.id, result: await modern.run(request, hangUpOf(req.socket), () => undefined) };
    } catch (error) {
      answer = { jsonrpc: '2.0', id: request.id, error: errorOf(error) };
      status = statusOf(error);
    }
    writeJson(res, status, answer);
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

const hangUps = new WeakMap<Socket, AbortSignal>();

/**
 * Aborted when the host hangs up: the connection closes. One per connection, not per request: an AbortController
 * for each request, and a listener on each response, cost more than the rest of what the face does per request.
 * A keep-alive connection runs one request at a time, and one that has finished has let go of the signal.
 */
function hangUpOf(socket: Socket): AbortSignal {
  let signal = hangUps.get(socket);
  if (signal === undefined) {
    const controller = new AbortController();
    socket.once('close', () => controller.abort());
    signal = controller.signal;
    hangUps.set(socket, signal);
  }
  return signal;
}

/** A header's one value: node joins repeated ones with a comma, except where it keeps an array. */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The body as text, or undefined once it passes `max` bytes: the rest is then read and dropped (dropRestOfBody). */
async function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > max) return void dropRestOfBody(req);
  return new Promise<string | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= max) return void chunks.push(chunk);
      dropRestOfBody(req);
      resolve(undefined);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

function writeJson(res: ServerResponse, status: number, message: JsonObject | JsonRpcMessage): void {
  const body = JSON.stringify(message);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

export function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  writeJson(res, status, { jsonrpc: '2.0', id: null, error: { code, message } });
}
