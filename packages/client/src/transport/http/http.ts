// Streamable HTTP as the modern era speaks it: every message is its own POST, and the answer is one
// JSON body or an SSE stream that may carry notifications before the response. No session, no held
// stream, no resumption (2026-07-28 removed Last-Event-ID): a 2025 session adds those as a Session
// object made in the legacy chunk (legacy-http.ts), which this transport asks where the eras differ.
// Nothing here follows a redirect, and every read is bounded by `limits`.

import { readText } from '../bytes.js';
import type { Deadline } from '../../deadline.js';
import { BodyError, HttpStatusError, McpError, NetworkError, RedirectError, StreamClosedError, truncate } from '../../errors.js';
import type { Limits } from '../../limits.js';
import { redactHeaders, redactUrl } from '../../redact.js';
import { readSse } from '../event-stream.js';
import { authRetry, isChallenge, retryAfter } from '../../retry.js';
import type { Exchange, Reply, Trace, Transport } from '../transport.js';
import { isRequest, isResponse } from '../transport.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from '../../types.js';
import type { Requester, WireResponse } from './wire.js';

export interface HttpOptions {
  url: string;
  /**
   * Sent on every request, names as given. byhand's own names are lower case, as fetch sends them (node:http's
   * setHeader lower-cases any other name on every request): give `accept` in lower case to replace ours.
   */
  headers?: Record<string, string>;
  requester: Requester;
  limits: Limits;
  trace?: Trace;
  auth?: HttpAuth;
}

/** What an authorization is told of a request: where it goes, its method (a DPoP proof names it), and its signal. */
export interface AuthRequest {
  readonly url: string;
  readonly method: 'POST' | 'GET' | 'DELETE';
  /** Ends with the request; made when first read, so an authorization with nothing to add makes none. */
  readonly signal: AbortSignal;
}

/** Authorization for HTTP: a source of headers, and what to do when the server refuses them. */
export interface HttpAuth {
  /**
   * The headers for a request, e.g. `Authorization: Bearer …`; undefined when it carries none. Given at once rather
   * than as a promise, the request goes out in the same turn: a URL with no login costs nothing per request.
   */
  headers(request: AuthRequest): Record<string, string> | undefined | Promise<Record<string, string> | undefined>;
  /** A 401, or a 403 with a Bearer challenge: get new credentials; true means try the request again. */
  challenged(challenge: { status: number; headers: Headers; url: string }, signal: AbortSignal): Promise<boolean>;
  /**
   * Any other answer (at least each one to a request it gave headers for): what it says for later requests (a DPoP-Nonce, RFC 9449 §8.2,
   * §9) is taken without a round trip. `header` reads one header; `headers` makes a Headers object only when read (on Node 20 the first one
   * loads undici, and the checkpoint's answers would pay for it on every request).
   */
  answered?(answer: { status: number; header(name: string): string | null; readonly headers: Headers; url: string }): void;
}

/** Where an SSE answer had got to when it ended: what a legacy session needs to resume it. */
export interface StreamPosition {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  /** How many times this answer was resumed already. */
  resumes: number;
}

/** What a 2025 session adds to the transport (legacy-http.ts makes it, on the first legacy server). */
export interface Session {
  /** The Mcp-Session-Id the server issued, if any. */
  readonly id: string | undefined;
  /** Its headers for every request. */
  headers(): Record<string, string> | undefined;
  /** A request's answer arrived (initialize's carries the session id). */
  accepted(request: JsonRpcRequest, response: WireResponse): void;
  /** An SSE answer that ended before its response: resumed, or the error that it was lost. */
  resume(request: JsonRpcRequest, exchange: Exchange, position: StreamPosition): Promise<WireResponse>;
  /** A request was given up (its deadline): the server is told, as a 2025 client SHOULD (cancellation). */
  abandoned(request: JsonRpcRequest, exchange: Exchange, reason: string): void;
  /** Ends the session (a DELETE) before the transport closes. */
  end(): Promise<void>;
}

export class HttpTransport implements Transport {
  readonly name = 'streamable-http';
  readonly carriesHeaders = true;
  readonly held = false;
  readonly key: string;
  readonly url: string;
  /** What it was made with: a legacy session and the HTTP+SSE transport post with the same requester, headers and authorization. */
  readonly options: HttpOptions;
  readonly baseHeaders: Record<string, string>;
  readonly requester: Requester;
  readonly limits: Limits;
  readonly trace: Trace | undefined;
  readonly auth: HttpAuth | undefined;
  /** Set by the legacy era; the modern era has none. */
  session: Session | undefined;

  constructor(options: HttpOptions) {
    const url = new URL(options.url);
    this.url = url.href;
    this.options = options;
    // Keyed by endpoint, stricter than the spec's "origin", so two servers behind one host stay apart.
    this.key = `${url.origin}${url.pathname}`;
    this.baseHeaders = options.headers ?? {};
    this.requester = options.requester;
    this.limits = options.limits;
    this.trace = options.trace;
    this.auth = options.auth;
  }

  async request(message: JsonRpcRequest, exchange: Exchange): Promise<Reply> {
    let response: WireResponse | undefined;
    try {
      response = await this.post(message, exchange);
      const reply = await this.read(response, message, exchange);
      this.session?.accepted(message, response);
      return reply;
    } catch (error) {
      const failure = response === undefined ? error : this.failure(error, exchange, `the answer to ${message.method} broke off`);
      if (exchange.deadline.aborted) this.session?.abandoned(message, exchange, (failure as Error).message);
      throw failure;
    }
  }

  notify(message: JsonRpcNotification, exchange: Exchange): Promise<void> {
    return this.deliver(message, exchange);
  }

  /** POSTs a message whose answer is only a status: a notification, a response to the server, any message on HTTP+SSE. */
  async deliver(message: JsonRpcMessage, exchange: Exchange): Promise<void> {
    const response = await this.post(message, exchange);
    await drain(response);
    if (response.status >= 300) throw new HttpStatusError(response.status, '', response.headers(), this.url);
  }

  get sessionId(): string | undefined {
    return this.session?.id;
  }

  async close(): Promise<void> {
    await this.session?.end();
    this.requester.close?.();
  }

  // A literal with our two names first, then the spreads: one that starts by spreading a kept object of the same names
  // cost more per call (instructions counted under valgrind).
  private headers(extra: Record<string, string>): Record<string, string> {
    return { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...this.baseHeaders, ...extra, ...this.session?.headers() };
  }

  /** What the authorization adds to a request, if anything: a record given at once, or a promise of one. */
  authorization(deadline: Deadline, method: AuthRequest['method']): ReturnType<HttpAuth['headers']> {
    return this.auth?.headers(new Authorizing(this.url, method, deadline));
  }

  /** The headers of a request with its authorization; a promise only when the authorization gives one. */
  signed(extra: Record<string, string>, deadline: Deadline, method: AuthRequest['method']): Record<string, string> | Promise<Record<string, string>> {
    const added = this.authorization(deadline, method);
    if (added === undefined) return this.headers(extra);
    if (!isPromise(added)) return { ...this.headers(extra), ...added };
    return added.then((more) => ({ ...this.headers(extra), ...more }));
  }

  private post(message: JsonRpcMessage, exchange: Exchange): Promise<WireResponse> {
    return this.postOnce(message, JSON.stringify(message), exchange, true);
  }

  /**
   * One POST. A challenge to a request an authorization could sign is met by the auth rule (retry.ts): after a first
   * attempt the engine sends the request again, and an attempt it makes hands its own challenge back to it.
   */
  private async postOnce(message: JsonRpcMessage, body: string, exchange: Exchange, first: boolean): Promise<WireResponse> {
    const { deadline } = exchange;
    // No await when the authorization adds nothing, or adds it at once: one fewer turn of the event loop per request.
    let added = this.authorization(deadline, 'POST');
    if (isPromise(added)) added = await added;
    const headers = added === undefined ? this.headers(exchange.headers) : { ...this.headers(exchange.headers), ...added };
    if (this.trace) this.trace({ direction: 'send', transport: 'http', message, http: { method: 'POST', url: redactUrl(this.url), headers: redactHeaders(headers) } });
    let response: WireResponse;
    try {
      response = await this.requester({ method: 'POST', url: this.url, headers, body, abort: deadline });
    } catch (error) {
      throw this.failure(error, exchange, `cannot reach ${this.url}`);
    }
    if (response.status >= 300 && response.status < 400) await this.refuseRedirect(response);
    if (!this.auth) return response;
    if (isChallenge(response)) return this.challenged(response, message, body, exchange, first);
    return added === undefined ? response : this.answered(response);
  }

  /** A challenge: read, then met by the auth rule after a first attempt, else handed back to the engine that made this one. */
  private async challenged(response: WireResponse, message: JsonRpcMessage, body: string, exchange: Exchange, first: boolean): Promise<WireResponse> {
    const text = await readText(response.body, 64 * 1024, 'a challenge').catch(() => '');
    this.traceHttp('receive', { status: response.status, headers: Object.fromEntries(response.headers()) });
    const challenge = new HttpStatusError(response.status, text, response.headers(), this.url);
    if (!first) throw challenge;
    return retryAfter(challenge, () => this.postOnce(message, body, exchange, false), [authRetry(this.auth!, this.url, exchange.deadline)], undefined);
  }

  answered(response: WireResponse): WireResponse {
    this.auth?.answered?.({ status: response.status, header: (name) => response.header(name), get headers() { return response.headers(); }, url: this.url });
    return response;
  }

  private async read(response: WireResponse, request: JsonRpcRequest, exchange: Exchange): Promise<Reply> {
    const type = response.header('content-type') ?? '';
    if (type.includes('text/event-stream')) {
      this.traceHttp('receive', { status: response.status, headers: Object.fromEntries(response.headers()) });
      return { message: await this.readStream(response, request, exchange), status: response.status };
    }
    const text = await readText(response.body, this.limits.maxMessageBytes, `the answer to ${request.method}`);
    const parsed = parseJson(text);
    const found = parsed === undefined ? undefined : pickResponse(parsed, request.id);
    if (this.trace) this.trace({ direction: 'receive', transport: 'http', http: { status: response.status, headers: redactHeaders(Object.fromEntries(response.headers())) }, ...(found ? { message: found } : { raw: text }) });
    if (found) return { message: found, status: response.status };
    if (response.status >= 300) throw new HttpStatusError(response.status, text, response.headers(), this.url);
    if (parsed === undefined) {
      throw new BodyError(`${request.method} got an answer that is not JSON (${type ? `Content-Type ${type}` : 'no Content-Type'}): ${truncate(text, 120) || '(empty)'}`);
    }
    throw new BodyError(`${request.method} got JSON that is not a JSON-RPC response to id ${request.id}: ${truncate(text, 120)}`);
  }

  private async readStream(first: WireResponse, request: JsonRpcRequest, exchange: Exchange) {
    let response = first;
    const position: StreamPosition = { lastEventId: undefined, retryMs: undefined, resumes: 0 };
    for (;; position.resumes++) {
      try {
        for await (const event of readSse(response.body, this.limits.maxMessageBytes)) {
          if (event.id !== undefined) position.lastEventId = event.id;
          if (event.retry !== undefined) position.retryMs = event.retry;
          if (!event.data) continue;
          const message = parseJson(event.data) as JsonRpcMessage | undefined;
          this.trace?.({ direction: 'receive', transport: 'http', ...(message ? { message } : { raw: event.data }) });
          if (!message || typeof message !== 'object') continue;
          if (isResponse(message) && message.id === request.id) return message;
          // Answered as it comes, not one after the other: a server may ask several things at once and wait for all (stdio
          // and the HTTP+SSE transport answer so too). An answer the server did not take fails nothing else, as there.
          if (isRequest(message)) this.answer(message, exchange).catch(() => undefined);
          else if ('method' in message) exchange.onNotification?.(message);
        }
      } catch (error) {
        // A stream that broke off may be resumed; anything else (a limit, our own abort) ends the request.
        if (exchange.deadline.aborted || error instanceof McpError) throw error;
      }
      // The modern era has no resumption: the answer was lost.
      if (!this.session) throw new StreamClosedError(`the server closed the event stream before it answered ${request.method}`);
      response = await this.session.resume(request, exchange, position);
    }
  }

  /** A server-to-client request (legacy: the host fulfils it; a modern server may not send one): POST the JSON-RPC response back. */
  async answer(request: JsonRpcRequest, exchange: Exchange): Promise<void> {
    const answer = exchange.onServerRequest
      ? await exchange.deadline.excluding(() => exchange.onServerRequest!(request))
      : { error: { code: -32601, message: `Method not found: the client does not take ${request.method} here` } };
    const message = { jsonrpc: '2.0' as const, id: request.id, ...answer };
    const version = exchange.headers['mcp-protocol-version'];
    await this.deliver(message, { ...exchange, headers: version ? { 'mcp-protocol-version': version } : {} });
  }

  async refuseRedirect(response: WireResponse): Promise<void> {
    if (response.status < 300 || response.status >= 400 || response.status === 304) return;
    await drain(response);
    throw new RedirectError(response.status, this.url, response.header('location') ?? undefined);
  }

  /** What a failed exchange becomes: our deadline's timeout or the caller's abort, else the cause. */
  failure(error: unknown, exchange: Pick<Exchange, 'deadline'>, what: string): McpError {
    if (exchange.deadline.aborted) return exchange.deadline.failure();
    if (error instanceof McpError) return error;
    if (what.startsWith('cannot reach')) return new NetworkError(this.url, error);
    return new StreamClosedError(`${what}: ${(error as Error).message}`);
  }

  traceHttp(direction: 'send' | 'receive', http: { method?: string; url?: string; status?: number; headers: Record<string, string> }): void {
    if (!this.trace) return;
    this.trace({ direction, transport: 'http', http: { ...http, ...(http.url ? { url: redactUrl(http.url) } : {}), headers: redactHeaders(http.headers) } });
  }
}

/** Reads a small body to its end, so a kept-alive connection can be reused; a large or broken one is cut, unread. */
export async function drain(response: WireResponse): Promise<void> {
  await readText(response.body, 64 * 1024, 'a body').catch(() => undefined);
}

/** An AuthRequest whose signal is the deadline's, made only when the authorization reads it. */
class Authorizing implements AuthRequest {
  constructor(readonly url: string, readonly method: AuthRequest['method'], private readonly deadline: Deadline) {}

  get signal(): AbortSignal {
    return this.deadline.signal;
  }
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The response to `id` in a body: one message, or a batch; an id-less error answers the request too. */
function pickResponse(body: unknown, id: JsonRpcRequest['id']) {
  const candidates = Array.isArray(body) ? body : [body];
  for (const candidate of candidates) {
    if (!candidate || typeof candidate !== 'object' || (candidate as { jsonrpc?: unknown }).jsonrpc !== '2.0') continue;
    const message = candidate as JsonRpcMessage;
    if (isResponse(message) && (message.id === id || (message.id === null && message.error))) return message;
  }
  return undefined;
}
