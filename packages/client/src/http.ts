// Streamable HTTP: every message is its own POST; the answer is one JSON body or an SSE stream that
// may carry notifications and, on a legacy session, server-to-client requests before the response.

import { Deadline } from './deadline.js';
import { BodyError, HttpStatusError, NetworkError, StreamClosedError, truncate } from './errors.js';
import { readSse } from './sse.js';
import type { Exchange, Reply, Trace, Transport } from './transport.js';
import { isRequest, isResponse } from './transport.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from './types.js';

export interface HttpOptions {
  url: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  trace?: Trace;
  auth?: HttpAuth;
}

/** Authorization for HTTP: a source of headers, and what to do when the server refuses them. */
export interface HttpAuth {
  /** Headers for every request, e.g. `Authorization: Bearer …`. */
  headers(url: string, signal: AbortSignal): Promise<Record<string, string>>;
  /** A 401, or a 403 with a Bearer challenge: get new credentials; true means try the request again. */
  challenged(challenge: { status: number; headers: Headers; url: string }, signal: AbortSignal): Promise<boolean>;
}

// Bounds re-authorization per request: a server that refuses every token must not loop us
// (conformance auth/scope-retry-limit allows at most three attempts).
const MAX_AUTH_ATTEMPTS = 3;

// A legacy server may close an SSE stream it can resume (spec 2025-11-25, "Resumability"); a modern
// one may not (2026-07-28 removed Last-Event-ID), so resumption is bounded and legacy-only in effect.
const MAX_RESUMES = 5;
const DEFAULT_RETRY_MS = 1000;

export class HttpTransport implements Transport {
  readonly kind = 'http';
  readonly key: string;
  sessionId: string | undefined;
  private readonly url: string;
  private readonly baseHeaders: Record<string, string>;
  private readonly fetch: typeof fetch;
  private readonly trace: Trace | undefined;
  private readonly auth: HttpAuth | undefined;
  private listening: AbortController | undefined;

  constructor(options: HttpOptions) {
    const url = new URL(options.url);
    this.url = url.href;
    // Keyed by endpoint, stricter than the spec's "origin", so two servers behind one host stay apart.
    this.key = `${url.origin}${url.pathname}`;
    this.baseHeaders = options.headers ?? {};
    this.fetch = options.fetch ?? fetch;
    this.trace = options.trace;
    this.auth = options.auth;
  }

  async request(message: JsonRpcRequest, exchange: Exchange): Promise<Reply> {
    const response = await this.post(message, exchange);
    const reply = await this.read(response, message, exchange);
    if (message.method === 'initialize') this.sessionId = response.headers.get('mcp-session-id') ?? undefined;
    return reply;
  }

  async notify(message: JsonRpcNotification, exchange: Exchange): Promise<void> {
    const response = await this.post(message, exchange);
    await response.body?.cancel();
    if (!response.ok) throw new HttpStatusError(response.status, '', response.headers, this.url);
  }

  /**
   * Legacy sessions: the standalone GET stream, where a 2025 server pushes requests that belong to no
   * POST (spec 2025-11-25 transports, "Listening for Messages from the Server"). A 405 means it offers none.
   */
  listen(exchange: Omit<Exchange, 'deadline'>): void {
    const controller = new AbortController();
    this.listening = controller;
    // The stream lives as long as the session: its deadline is the close, not a timer.
    const stream: Exchange = { ...exchange, deadline: new Deadline('the event stream', 2 ** 31 - 1, controller.signal) };
    void (async () => {
      const headers: Record<string, string> = { ...(await this.signed(exchange.headers, controller.signal)), Accept: 'text/event-stream' };
      delete headers['Content-Type'];
      this.trace?.({ direction: 'send', transport: 'http', http: { method: 'GET', url: this.url, headers: redact(headers) } });
      const response = await this.fetch(this.url, { method: 'GET', headers, signal: controller.signal });
      this.trace?.({ direction: 'receive', transport: 'http', http: { status: response.status, headers: Object.fromEntries(response.headers) } });
      if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return void (await response.body?.cancel());
      for await (const event of readSse(response.body!)) {
        const message = parseJson(event.data) as JsonRpcMessage | undefined;
        if (!message || typeof message !== 'object') continue;
        this.trace?.({ direction: 'receive', transport: 'http', message });
        if (isRequest(message)) await this.answer(message, stream);
        else if ('method' in message) exchange.onNotification?.(message);
      }
    })()
      .catch(() => undefined)
      .finally(() => stream.deadline.dispose());
  }

  async close(): Promise<void> {
    this.listening?.abort();
    if (!this.sessionId) return;
    const headers = { ...this.baseHeaders, ...(await this.auth?.headers(this.url, AbortSignal.timeout(2000)).catch(() => ({}))), 'Mcp-Session-Id': this.sessionId };
    this.trace?.({ direction: 'send', transport: 'http', http: { method: 'DELETE', url: this.url, headers: redact(headers) } });
    // Ending a legacy session is a courtesy: a server that cannot (405) or is gone has nothing to end.
    const response = await this.fetch(this.url, { method: 'DELETE', headers, signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    await response?.body?.cancel();
    this.sessionId = undefined;
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...this.baseHeaders,
      ...extra,
    };
    if (this.sessionId) headers['Mcp-Session-Id'] = this.sessionId;
    return headers;
  }

  private async signed(extra: Record<string, string>, signal: AbortSignal): Promise<Record<string, string>> {
    return { ...this.headers(extra), ...(await this.auth?.headers(this.url, signal)) };
  }

  private async post(message: JsonRpcMessage, exchange: Exchange): Promise<Response> {
    const { signal } = exchange.deadline;
    for (let attempt = 1; ; attempt++) {
      const headers = await this.signed(exchange.headers, signal);
      this.trace?.({ direction: 'send', transport: 'http', message, http: { method: 'POST', url: this.url, headers: redact(headers) } });
      let response: Response;
      try {
        response = await this.fetch(this.url, { method: 'POST', headers, body: JSON.stringify(message), signal });
      } catch (error) {
        if (signal.aborted) throw exchange.deadline.failure();
        throw new NetworkError(this.url, error);
      }
      if (!this.auth || attempt >= MAX_AUTH_ATTEMPTS || !isChallenge(response)) return response;
      await response.body?.cancel();
      this.trace?.({ direction: 'receive', transport: 'http', http: { status: response.status, headers: Object.fromEntries(response.headers) } });
      if (!(await exchange.deadline.excluding(() => this.auth!.challenged({ status: response.status, headers: response.headers, url: this.url }, signal)))) {
        return response;
      }
    }
  }

  private async read(response: Response, request: JsonRpcRequest, exchange: Exchange): Promise<Reply> {
    const type = response.headers.get('content-type') ?? '';
    const http = () => ({ status: response.status, headers: Object.fromEntries(response.headers) });
    if (type.includes('text/event-stream')) {
      this.trace?.({ direction: 'receive', transport: 'http', http: http() });
      return { message: await this.readStream(response, request, exchange), status: response.status };
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      if (exchange.deadline.signal.aborted) throw exchange.deadline.failure();
      throw new StreamClosedError(`the answer to ${request.method} broke off: ${(error as Error).message}`);
    }
    const parsed = parseJson(text);
    const found = parsed === undefined ? undefined : pickResponse(parsed, request.id);
    this.trace?.({ direction: 'receive', transport: 'http', http: http(), ...(found ? { message: found } : { raw: text }) });
    if (found) return { message: found, status: response.status };
    if (!response.ok) throw new HttpStatusError(response.status, text, response.headers, this.url);
    if (parsed === undefined) {
      throw new BodyError(`${request.method} got a ${type || 'typeless'} answer that is not JSON: ${truncate(text, 120) || '(empty)'}`);
    }
    throw new BodyError(`${request.method} got JSON that is not a JSON-RPC response to id ${request.id}: ${truncate(text, 120)}`);
  }

  private async readStream(first: Response, request: JsonRpcRequest, exchange: Exchange) {
    let response = first;
    let lastEventId: string | undefined;
    let retryMs = DEFAULT_RETRY_MS;
    for (let resumes = 0; ; resumes++) {
      try {
        for await (const event of readSse(response.body!)) {
          if (event.id !== undefined) lastEventId = event.id;
          if (event.retry !== undefined) retryMs = event.retry;
          if (!event.data) continue;
          const message = parseJson(event.data) as JsonRpcMessage | undefined;
          this.trace?.({ direction: 'receive', transport: 'http', ...(message ? { message } : { raw: event.data }) });
          if (!message || typeof message !== 'object') continue;
          if (isResponse(message) && message.id === request.id) return message;
          if (isRequest(message)) await this.answer(message, exchange);
          else if ('method' in message) exchange.onNotification?.(message);
        }
      } catch (error) {
        if (exchange.deadline.signal.aborted) throw exchange.deadline.failure();
        if (error instanceof StreamClosedError) throw error;
        if (!(error instanceof TypeError) && !(error as Error).message?.includes('terminated')) throw error;
      }
      if (lastEventId === undefined || resumes >= MAX_RESUMES) {
        throw new StreamClosedError(`the server closed the event stream before it answered ${request.method}`);
      }
      await sleep(retryMs, exchange.deadline.signal).catch(() => {
        throw exchange.deadline.failure();
      });
      response = await this.resume(lastEventId, exchange);
    }
  }

  private async resume(lastEventId: string, exchange: Exchange): Promise<Response> {
    const headers: Record<string, string> = { ...(await this.signed(exchange.headers, exchange.deadline.signal)), 'Last-Event-ID': lastEventId };
    delete headers['Content-Type'];
    headers.Accept = 'text/event-stream';
    this.trace?.({ direction: 'send', transport: 'http', http: { method: 'GET', url: this.url, headers: redact(headers) } });
    let response: Response;
    try {
      response = await this.fetch(this.url, { method: 'GET', headers, signal: exchange.deadline.signal });
    } catch (error) {
      if (exchange.deadline.signal.aborted) throw exchange.deadline.failure();
      throw new NetworkError(this.url, error);
    }
    if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      const text = await response.text().catch(() => '');
      throw new HttpStatusError(response.status, text, response.headers, this.url);
    }
    return response;
  }

  /** A legacy server-to-client request: fulfil it and POST the JSON-RPC response back. */
  private async answer(request: JsonRpcRequest, exchange: Exchange): Promise<void> {
    const answer = exchange.onServerRequest
      ? await exchange.deadline.excluding(() => exchange.onServerRequest!(request))
      : { error: { code: -32601, message: `Method not found: the client does not take ${request.method} here` } };
    const message = { jsonrpc: '2.0' as const, id: request.id, ...answer };
    const version = exchange.headers['MCP-Protocol-Version'];
    const headers = await this.signed(version ? { 'MCP-Protocol-Version': version } : {}, exchange.deadline.signal);
    this.trace?.({ direction: 'send', transport: 'http', message, http: { method: 'POST', url: this.url, headers: redact(headers) } });
    const response = await this.fetch(this.url, { method: 'POST', headers, body: JSON.stringify(message), signal: exchange.deadline.signal });
    await response.body?.cancel();
    if (!response.ok) throw new HttpStatusError(response.status, '', response.headers, this.url);
  }
}

function isChallenge(response: Response): boolean {
  if (response.status === 401) return true;
  return response.status === 403 && /insufficient_scope/i.test(response.headers.get('www-authenticate') ?? '');
}

/** Credentials never reach a trace. */
function redact(headers: Record<string, string>): Record<string, string> {
  const out = { ...headers };
  for (const key of Object.keys(out)) if (/^(authorization|cookie|x-api-key)$/i.test(key)) out[key] = '(redacted)';
  return out;
}

function parseJson(text: string): unknown {
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
