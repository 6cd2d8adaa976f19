// Sessionful 2025-era serving: the one place a connection outlives a request. Only legacy clients get here, and
// only because 2025 sampling/elicitation are server-to-client requests that need a session to come back on.

import {
  isInitializeRequest,
  WebStandardStreamableHTTPServerTransport,
  type EventStore,
  type JSONRPCMessage,
  type McpServer,
} from '@modelcontextprotocol/server';

export interface LegacySessionOptions {
  /** Builds the server for a new session. */
  createServer: () => McpServer;
  maxRequestBodySize: number;
  /** Sessions idle longer than this are closed. */
  idleMs?: number;
  /** When reached, the least recently used session is closed to admit a new one. */
  maxSessions?: number;
  /** Resumable SSE (Last-Event-ID) and priming `retry`, which the 2025 SSE scenarios look for. */
  resumable?: boolean;
  onerror?: (error: Error) => void;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
  /** Requests after the handshake: a session never used is the first to go when the table is full. */
  used: number;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

/** Per session: what a client may replay after a lost stream is bounded in events and in bytes. */
export const EVENT_STORE_LIMITS = { events: 1_000, bytes: 256 * 1024 };

/** A bounded in-memory event store: enough for a client to resume a stream it just lost, not an archive. */
export function createEventStore(limits = EVENT_STORE_LIMITS): EventStore & { readonly bytes: number } {
  const events = new Map<string, { streamId: string; message: JSONRPCMessage; size: number }>();
  let counter = 0;
  let bytes = 0;
  const dropOldest = () => {
    const [eventId, event] = events.entries().next().value as [string, { size: number }];
    events.delete(eventId);
    bytes -= event.size;
  };
  return {
    get bytes() {
      return bytes;
    },
    async storeEvent(streamId, message) {
      const eventId = `${streamId}::${String(++counter).padStart(12, '0')}`;
      const size = JSON.stringify(message).length;
      // An event bigger than the whole budget is not kept: a resume will miss it, which beats holding it.
      if (size > limits.bytes) return eventId;
      events.set(eventId, { streamId, message, size });
      bytes += size;
      while (events.size > limits.events || bytes > limits.bytes) dropOldest();
      return eventId;
    },
    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId ?? eventId.split('::')[0];
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = events.get(lastEventId)?.streamId ?? lastEventId.split('::')[0] ?? '';
      for (const [eventId, event] of events) {
        if (event.streamId === streamId && eventId > lastEventId) await send(eventId, event.message);
      }
      return streamId;
    },
  };
}

/** The handshake's own traffic, which does not make a session "used". */
function isHandshake(body: unknown): boolean {
  const method = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { method?: unknown }).method : undefined;
  return method === 'notifications/initialized' || method === 'initialize';
}

export class LegacySessions {
  private readonly sessions = new Map<string, Session>();
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private readonly idleMs: number;
  private readonly maxSessions: number;

  constructor(private readonly options: LegacySessionOptions) {
    this.idleMs = options.idleMs ?? 30 * 60_000;
    this.maxSessions = options.maxSessions ?? 500;
  }

  get size(): number {
    return this.sessions.size;
  }

  async handle(request: Request, parsedBody: unknown): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = this.sessions.get(sessionId);
      // 2025-11-25 transports: an unknown or expired session id is a 404 so the client knows to re-initialize. Behind a
      // load balancer the usual cause is another instance holding the session, so the message says so.
      if (session === undefined) {
        return jsonRpcError(
          404,
          -32001,
          'Session not found: it expired, or another instance holds it (2025 sessions live in one instance\'s memory; route each Mcp-Session-Id to one instance with sticky routing)',
        );
      }
      session.lastSeen = Date.now();
      if (!isHandshake(parsedBody)) session.used++;
      return session.transport.handleRequest(request, parsedBody === undefined ? {} : { parsedBody });
    }
    if (request.method === 'POST' && isInitializeRequest(parsedBody)) return this.open(request, parsedBody);
    // Same answer the SDK's own sessionful transport gives (dist/index.mjs validateSession), so clients see one story.
    return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  }

  private async open(request: Request, parsedBody: unknown): Promise<Response> {
    // Started with the first session, not in the constructor: Workers refuse timers at module scope, and a toolbox
    // built there would otherwise fail to load.
    if (this.sweeper === undefined) {
      this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, this.idleMs));
      (this.sweeper as { unref?: () => void }).unref?.();
    }
    if (this.sessions.size >= this.maxSessions) this.evictOne();
    const server = this.options.createServer();
    const resumable = this.options.resumable === true;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      maxRequestBodySize: this.options.maxRequestBodySize,
      ...(resumable ? { eventStore: createEventStore(), retryInterval: 1000 } : {}),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server, lastSeen: Date.now(), used: 0 });
      },
      onsessionclosed: (id) => {
        this.drop(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.drop(transport.sessionId);
    };
    if (this.options.onerror !== undefined) transport.onerror = this.options.onerror;
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody });
  }

  private drop(id: string): void {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    this.sessions.delete(id);
    session.server.close().catch(() => {});
  }

  /**
   * Fair eviction: the least recently seen session that was never used after its handshake goes first, so a flood of
   * bare `initialize` calls evicts its own sessions, not a client that is working; only when every session is in use
   * does the least recently seen one go.
   */
  private evictOne(): void {
    let victim: [string, Session] | undefined;
    for (const entry of this.sessions) {
      const [, session] = entry;
      if (victim === undefined) victim = entry;
      else if ((session.used === 0) !== (victim[1].used === 0)) {
        if (session.used === 0) victim = entry;
      } else if (session.lastSeen < victim[1].lastSeen) victim = entry;
    }
    if (victim !== undefined) this.drop(victim[0]);
  }

  private sweep(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const [id, session] of this.sessions) if (session.lastSeen < cutoff) this.drop(id);
  }

  async close(): Promise<void> {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    const closing = [...this.sessions.values()].map((s) => s.server.close().catch(() => {}));
    this.sessions.clear();
    await Promise.all(closing);
  }
}
