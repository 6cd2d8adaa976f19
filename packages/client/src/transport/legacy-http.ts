// What a 2025 session adds to Streamable HTTP (spec 2025-11-25 basic/transports): the Mcp-Session-Id that
// initialize issues, sent on every later request and ended with a DELETE; the standalone GET stream where
// the server pushes requests that belong to no POST; and resumption of an answer's event stream with
// Last-Event-ID. The modern era has none of these, so they live here, in the legacy chunk, as a subclass of
// the modern transport (http.ts) made from the kit on first use (legacy-kit.ts says why not an import).

import type { Deadline } from '../deadline.js';
import type { Exchange, Transport } from './transport.js';
import type { HttpTransport, StreamPosition } from './http.js';
import { kit } from '../legacy-kit.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from '../types.js';
import type { WireResponse } from './wire.js';

/** A session's transport: an HttpTransport that can also open an event stream and hold one open. */
export interface SessionHttp extends HttpTransport {
  readonly sessionId: string | undefined;
  /** A GET that should answer an event stream; undefined when the server offers none (405, another type); `strict`: an error then. */
  openStream(extra: Record<string, string>, deadline: Deadline, strict?: boolean): Promise<WireResponse | undefined>;
  listen(exchange: Omit<Exchange, 'deadline'>, timeoutMs: number): void;
}

// A legacy server may close an answer's stream and let the client resume it (spec 2025-11-25,
// "Resumability"), a bounded number of times; its `retry` field says when, by default after a second.
const MAX_RESUMES = 5;
const DEFAULT_RETRY_MS = 1000;

let made: new (options: HttpTransport['options']) => SessionHttp;

/** The same endpoint, requester and authorization, able to hold a 2025 session; a transport that is not Streamable HTTP is returned as it is. */
export function withSession(transport: Transport): Transport {
  if (!(transport instanceof kit.HttpTransport) || 'openStream' in transport) return transport;
  return new (made ??= sessionClass())(transport.options);
}

/** The HTTP+SSE transport's GET needs the stream opener too. */
export function sessionHttp(transport: HttpTransport): SessionHttp {
  return withSession(transport) as SessionHttp;
}

function sessionClass() {
  const { Deadline, HttpStatusError, StreamClosedError, drain, isRequest, parseJson, readSse, readText, sleep } = kit;
  return class LegacyHttpTransport extends kit.HttpTransport implements SessionHttp {
    sessionId: string | undefined;
    private listening: AbortController | undefined;
    /** Notifications on their way (a notifications/cancelled sent as a request is given up): close() lets them arrive before the DELETE. */
    private readonly notifying = new Set<Promise<void>>();

    protected override accepted(request: JsonRpcRequest, response: WireResponse): void {
      if (request.method === 'initialize') this.sessionId = response.header('mcp-session-id') ?? undefined;
    }

    protected override sessionHeaders(): Record<string, string> | undefined {
      return this.sessionId ? { 'Mcp-Session-Id': this.sessionId } : undefined;
    }

    protected override async resume(request: JsonRpcRequest, exchange: Exchange, position: StreamPosition): Promise<WireResponse> {
      // The server's `retry` counts from the moment the stream ended, which is now: the transport calls this in the
      // same turn as the stream's end (conformance sse-retry allows 200 ms late).
      const { lastEventId } = position;
      if (lastEventId === undefined || position.resumes >= MAX_RESUMES) return super.resume(request, exchange, position);
      await sleep(position.retryMs ?? DEFAULT_RETRY_MS, exchange.deadline.signal);
      const resumed = await this.openStream({ ...exchange.headers, 'Last-Event-ID': lastEventId }, exchange.deadline, true);
      if (resumed === undefined) throw new StreamClosedError(`the server closed the event stream before it answered ${request.method}, and would not resume it`);
      return resumed;
    }

    async openStream(extra: Record<string, string>, deadline: Deadline, strict = false): Promise<WireResponse | undefined> {
      const headers: Record<string, string> = { ...(await this.signed(extra, deadline, 'GET')), Accept: 'text/event-stream' };
      delete headers['Content-Type'];
      this.traceHttp('send', { method: 'GET', url: this.url, headers });
      let response: WireResponse;
      try {
        response = await this.requester({ method: 'GET', url: this.url, headers, abort: deadline });
      } catch (error) {
        throw this.failure(error, { deadline }, `cannot reach ${this.url}`);
      }
      this.traceHttp('receive', { status: response.status, headers: Object.fromEntries(response.headers()) });
      await this.refuseRedirect(response);
      if (this.auth) this.answered(response);
      if (response.status < 300 && (response.header('content-type') ?? '').includes('text/event-stream')) return response;
      const text = strict ? await readText(response.body, 4096, 'an error body').catch(() => '') : (await drain(response), '');
      if (strict) throw new HttpStatusError(response.status, text, response.headers(), this.url);
      return undefined;
    }

    /**
     * The standalone GET stream, where a 2025 server pushes requests that belong to no POST (spec 2025-11-25
     * transports, "Listening for Messages from the Server"). A 405 means it offers none; without a session there
     * is none to listen to. The answer's headers must come within `timeoutMs`; the stream then lives until
     * close(), and each answer the client POSTs for a request pushed down it has `timeoutMs` of its own.
     */
    listen(exchange: Omit<Exchange, 'deadline'>, timeoutMs: number): void {
      if (!this.sessionId) return;
      const controller = new AbortController();
      this.listening = controller;
      const stream: Exchange = { ...exchange, deadline: new Deadline('the event stream', timeoutMs, controller.signal) };
      void (async () => {
        const response = await this.openStream(exchange.headers, stream.deadline);
        stream.deadline.dispose();
        if (response === undefined) return;
        for await (const event of readSse(response.body, this.limits.maxMessageBytes)) {
          const message = parseJson(event.data) as JsonRpcMessage | undefined;
          if (!message || typeof message !== 'object') continue;
          this.trace?.({ direction: 'receive', transport: 'http', message });
          if (isRequest(message)) {
            const answering = new Deadline(`the answer to ${message.method}`, timeoutMs, controller.signal);
            try {
              // One answer the server did not take (it timed out, or was refused) does not end the stream.
              await this.answer(message, { ...stream, deadline: answering }).catch(() => undefined);
            } finally {
              answering.dispose();
            }
          } else if ('method' in message) exchange.onNotification?.(message);
        }
      })()
        .catch(() => undefined)
        .finally(() => stream.deadline.dispose());
    }

    forgetSession(): void {
      this.listening?.abort();
      this.listening = undefined;
      this.sessionId = undefined;
    }

    override notify(message: JsonRpcNotification, exchange: Exchange): Promise<void> {
      const sent = super.notify(message, exchange);
      const settled = sent.then(() => undefined, () => undefined);
      this.notifying.add(settled);
      void settled.then(() => this.notifying.delete(settled));
      return sent;
    }

    override async close(): Promise<void> {
      this.listening?.abort();
      // Each has a deadline of its own, so this wait is bounded.
      await Promise.all(this.notifying);
      if (this.sessionId) {
        const deadline = new Deadline('DELETE', 2000);
        try {
          const headers = { ...this.baseHeaders, ...(await this.auth?.headers(this.url, deadline.signal, 'DELETE').catch(() => ({}))), 'Mcp-Session-Id': this.sessionId };
          this.traceHttp('send', { method: 'DELETE', url: this.url, headers });
          // Ending a legacy session is a courtesy: a server that cannot (405) or is gone has nothing to end.
          const response = await this.requester({ method: 'DELETE', url: this.url, headers, abort: deadline }).catch(() => undefined);
          if (response) await drain(response);
        } finally {
          deadline.dispose();
        }
        this.sessionId = undefined;
      }
      await super.close();
    }
  };
}
