// The HTTP+SSE transport of 2024-11-05, deprecated by 2025-03-26 and still served (the v1 SDK's
// SSEServerTransport, node_modules/@modelcontextprotocol/sdk/dist/esm/server/sse.js): a GET opens one
// event stream whose first event, `endpoint`, names where to POST; each POST is answered 202, and the
// responses, with the server's own requests and notifications, come down the held stream as `message`
// events. Bounded like the rest: the endpoint must come within the deadline, every event is read
// through readSse's per-event limit, and every request has its own deadline.
//
// Loaded only when a server speaks it (open-sse.ts), so a Streamable HTTP caller never carries it; and it
// imports nothing at run time but takes the client's pieces from its loader (SseKit): a lazily loaded
// chunk that shared modules with the entry would split them into a chunk of their own, which every caller
// would pay for (bench/bundle-size.js).

import type { Deadline } from '../../deadline.js';
import type { McpError, ProtocolError, StreamClosedError } from '../../errors.js';
import type { HttpTransport } from '../http/http.js';
import type { HttpSession } from '../http/legacy-http.js';
import type { redactUrl } from '../../redact.js';
import type { readSse, SseEvent } from '../event-stream.js';
import type { Exchange, isRequest, isResponse, Reply, Transport } from '../transport.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../types.js';

export interface SseKit {
  Deadline: typeof Deadline;
  HttpTransport: typeof HttpTransport;
  McpError: typeof McpError;
  ProtocolError: typeof ProtocolError;
  StreamClosedError: typeof StreamClosedError;
  readSse: typeof readSse;
  redactUrl: typeof redactUrl;
  isRequest: typeof isRequest;
  isResponse: typeof isResponse;
}

interface Pending {
  resolve: (message: JsonRpcResponse) => void;
  reject: (error: Error) => void;
  exchange: Exchange;
}

export class SseTransport implements Transport {
  readonly name = 'sse';
  readonly carriesHeaders = true;
  readonly held = true;
  readonly era = 'legacy';
  readonly key: string;
  /** The URL its `endpoint` event named, where messages are POSTed. */
  readonly endpoint: string;
  private readonly pending = new Map<JsonRpcRequest['id'], Pending>();
  private listener: Omit<Exchange, 'deadline'> | undefined;
  private onEnded: ((reason: string) => void) | undefined;
  private timeoutMs: number;
  private ended: McpError | undefined;

  private constructor(
    private readonly kit: SseKit,
    private readonly poster: HttpTransport,
    private readonly stream: AbortController,
    key: string,
    timeoutMs: number,
  ) {
    this.endpoint = poster.url;
    this.key = key;
    this.timeoutMs = timeoutMs;
  }

  /**
   * GETs `http.url` and waits, within `timeoutMs`, for the `endpoint` event. Undefined when the URL opens no
   * event stream or its first event is not `endpoint`: it does not speak this transport. An endpoint on another
   * origin is refused before anything is sent to it, so no header or token set for this server reaches another.
   */
  static async open(kit: SseKit, http: HttpTransport, session: Pick<HttpSession, 'openStream'>, timeoutMs: number, signal?: AbortSignal): Promise<SseTransport | undefined> {
    const { Deadline, HttpTransport, ProtocolError, readSse } = kit;
    const stream = new AbortController();
    const outer = signal ? AbortSignal.any([signal, stream.signal]) : stream.signal;
    const deadline = new Deadline('GET (the HTTP+SSE event stream)', timeoutMs, outer);
    let events: AsyncGenerator<SseEvent> | undefined;
    try {
      const response = await session.openStream({}, deadline);
      if (response === undefined) return undefined;
      events = readSse(response.body, http.options.limits.maxMessageBytes);
      const first = await events.next();
      if (first.done || first.value.event !== 'endpoint') {
        stream.abort();
        return undefined;
      }
      const endpoint = endpointOf(kit, first.value.data, http.url);
      const transport = new SseTransport(kit, new HttpTransport({ ...http.options, url: endpoint }), stream, http.key, timeoutMs);
      void transport.read(events);
      return transport;
    } catch (error) {
      stream.abort();
      await events?.return(undefined);
      if (error instanceof ProtocolError) throw error;
      // A stream that broke, or stayed silent past the deadline, is no evidence of this transport.
      return undefined;
    } finally {
      deadline.dispose();
    }
  }

  request(message: JsonRpcRequest, exchange: Exchange): Promise<Reply> {
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      const { deadline } = exchange;
      if (deadline.aborted) return reject(deadline.failure());
      const stop = deadline.onAbort(() => {
        this.pending.delete(message.id);
        const failure = deadline.failure();
        this.abandoned(message, exchange, failure.message);
        reject(failure);
      });
      this.pending.set(message.id, {
        exchange,
        resolve: (response) => {
          stop();
          resolve({ message: response });
        },
        reject: (error) => {
          stop();
          reject(error);
        },
      });
      // The POST is only accepted (202); its answer comes down the stream.
      this.poster.deliver(message, exchange).catch((error: Error) => this.settle(message.id, (p) => p.reject(error)));
    });
  }

  notify(message: JsonRpcNotification, exchange: Exchange): Promise<void> {
    if (this.ended) return Promise.reject(this.ended);
    return this.poster.deliver(message, exchange);
  }

  listen(exchange: Omit<Exchange, 'deadline'>, timeoutMs: number, onEnded?: (reason: string) => void): void {
    this.listener = exchange;
    this.timeoutMs = timeoutMs;
    this.onEnded = onEnded;
  }

  async close(): Promise<void> {
    this.ended ??= new this.kit.StreamClosedError('the client closed the HTTP+SSE connection');
    this.stream.abort();
    await this.poster.close();
  }

  private async read(events: AsyncGenerator<SseEvent>): Promise<void> {
    const { McpError, StreamClosedError, isRequest, isResponse } = this.kit;
    const trace = this.poster.options.trace;
    try {
      for await (const event of events) {
        if (event.event !== 'message' || !event.data) continue;
        let message: JsonRpcMessage | undefined;
        try {
          message = JSON.parse(event.data) as JsonRpcMessage;
        } catch {
          message = undefined;
        }
        trace?.({ direction: 'receive', transport: 'http', ...(message ? { message } : { raw: event.data }) });
        if (!message || typeof message !== 'object') continue;
        if (isResponse(message)) this.settle(message.id!, (p) => p.resolve(message));
        else if (isRequest(message)) void this.answer(message);
        else if ('method' in message) this.notice(message);
      }
      this.end(new StreamClosedError('the server closed the HTTP+SSE event stream', 'the 2024-11-05 transport cannot resume a stream: connect again'));
    } catch (error) {
      this.end(error instanceof McpError && !this.stream.signal.aborted ? error : new StreamClosedError(`the HTTP+SSE event stream broke off: ${(error as Error).message}`));
    }
  }

  private settle(id: JsonRpcRequest['id'], how: (pending: Pending) => void): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    how(pending);
  }

  /** Notifications go to the requests in flight (progress finds its own), or to the listener between requests. */
  private notice(notification: JsonRpcNotification): void {
    if (this.pending.size === 0) return this.listener?.onNotification?.(notification);
    for (const pending of this.pending.values()) pending.exchange.onNotification?.(notification);
  }

  /** One stream carries every request: the oldest request in flight that can answer owns it, as on stdio. */
  private async answer(request: JsonRpcRequest): Promise<void> {
    const owner = [...this.pending.values()].find((p) => p.exchange.onServerRequest)?.exchange;
    const handler = owner?.onServerRequest ?? this.listener?.onServerRequest;
    const deadline = new this.kit.Deadline(`the answer to ${request.method}`, this.timeoutMs, this.stream.signal);
    try {
      const answer = handler
        ? await (owner ?? { deadline }).deadline.excluding(() => handler(request))
        : { error: { code: -32601, message: `Method not found: the client does not take ${request.method} here` } };
      const headers = owner?.headers ?? this.listener?.headers ?? {};
      await this.poster.deliver({ jsonrpc: '2.0', id: request.id, ...answer }, { deadline, headers });
    } catch {
      // An answer the server did not take fails nothing else; the request it belongs to times out on its own.
    } finally {
      deadline.dispose();
    }
  }

  /** notifications/cancelled for a request given up (spec 2025-11-25 cancellation), a courtesy that fails nothing. */
  private abandoned(request: JsonRpcRequest, exchange: Exchange, reason: string): void {
    const deadline = new this.kit.Deadline('notifications/cancelled', 2000);
    const message = { jsonrpc: '2.0' as const, method: 'notifications/cancelled', params: { requestId: request.id, reason } };
    void this.poster
      .deliver(message, { deadline, headers: exchange.headers })
      .catch(() => undefined)
      .finally(() => deadline.dispose());
  }

  private end(error: McpError): void {
    // Ended by the server, not by close(): the one stream was all there was.
    if (this.ended === undefined) this.onEnded?.(error.message);
    this.ended ??= error;
    for (const pending of this.pending.values()) pending.reject(this.ended);
    this.pending.clear();
  }
}

function endpointOf({ ProtocolError, redactUrl }: SseKit, data: string, base: string): string {
  let endpoint: URL;
  try {
    endpoint = new URL(data.trim(), base);
  } catch {
    throw new ProtocolError(`the HTTP+SSE endpoint event names no URL: ${JSON.stringify(data.slice(0, 200))}`, 'this is a server bug: the endpoint event carries the URL to POST messages to');
  }
  if (endpoint.origin !== new URL(base).origin) {
    throw new ProtocolError(
      `the HTTP+SSE endpoint event names ${redactUrl(endpoint.href)}, on another origin than ${redactUrl(base)}`,
      'byhand POSTs only to the origin it connected to, so no header or token given for this server reaches another; nothing was sent there',
    );
  }
  return endpoint.href;
}
