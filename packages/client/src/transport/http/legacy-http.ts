// What a 2025 session adds to Streamable HTTP (spec 2025-11-25 basic/transports), in one object that the
// transport asks where the eras differ (http.ts, Session): the Mcp-Session-Id that initialize issues, sent on
// every later request and ended with a DELETE; the standalone GET stream where the server pushes requests that
// belong to no POST; resumption of an answer's event stream with Last-Event-ID; and forgetting a session the
// server no longer knows, so the next initialize starts a new one (legacy.ts). The modern era has none of
// these, so they live here, in the legacy chunk (legacy-kit.ts says why its pieces are handed over).

import type { Deadline } from '../../deadline.js';
import type { Exchange, Transport } from '../transport.js';
import type { HttpTransport, Session, StreamPosition } from './http.js';
import { kit } from '../../legacy-kit.js';
import type { JsonRpcMessage, JsonRpcRequest } from '../../types.js';
import type { SseEvent } from '../event-stream.js';
import type { WireResponse } from './wire.js';

// A legacy server may close an answer's stream and let the client resume it (spec 2025-11-25,
// "Resumability"), a bounded number of times; its `retry` field says when, by default after a second.
const MAX_RESUMES = 5;
const DEFAULT_RETRY_MS = 1000;
/** The least wait before the standalone stream is opened again: a server that closes it at once cannot make a busy loop of it. */
const MIN_REOPEN_MS = 100;

/** A transport's 2025 session, made on first use; undefined for a transport that is not Streamable HTTP. */
export function sessionOf(transport: Transport): HttpSession | undefined {
  if (!(transport instanceof kit.HttpTransport)) return undefined;
  return (transport.session ??= new HttpSession(transport)) as HttpSession;
}

export class HttpSession implements Session {
  id: string | undefined;
  private listening: AbortController | undefined;
  /** Notifications on their way (a notifications/cancelled sent as a request is given up): end() lets them arrive before the DELETE. */
  private readonly notifying = new Set<Promise<void>>();

  constructor(private readonly http: HttpTransport) {}

  headers(): Record<string, string> | undefined {
    return this.id ? { 'mcp-session-id': this.id } : undefined;
  }

  accepted(request: JsonRpcRequest, response: WireResponse): void {
    if (request.method === 'initialize') this.id = response.header('mcp-session-id') ?? undefined;
  }

  async resume(request: JsonRpcRequest, exchange: Exchange, position: StreamPosition): Promise<WireResponse> {
    // The server's `retry` counts from the moment the stream ended, which is now: the transport calls this in the
    // same turn as the stream's end (conformance sse-retry allows 200 ms late).
    const { lastEventId } = position;
    if (lastEventId === undefined || position.resumes >= MAX_RESUMES) {
      throw new kit.StreamClosedError(`the server closed the event stream before it answered ${request.method}`);
    }
    await kit.sleep(position.retryMs ?? DEFAULT_RETRY_MS, exchange.deadline.signal);
    const resumed = await this.openStream({ ...exchange.headers, 'last-event-id': lastEventId }, exchange.deadline, true);
    if (resumed === undefined) throw new kit.StreamClosedError(`the server closed the event stream before it answered ${request.method}, and would not resume it`);
    return resumed;
  }

  /** A GET that should answer an event stream; undefined when the server offers none (405, another type); `strict`: an error then. */
  async openStream(extra: Record<string, string>, deadline: Deadline, strict = false): Promise<WireResponse | undefined> {
    const { http } = this;
    const headers: Record<string, string> = { ...(await http.signed(extra, deadline, 'GET')), accept: 'text/event-stream' };
    delete headers['content-type'];
    http.traceHttp('send', { method: 'GET', url: http.url, headers });
    let response: WireResponse;
    try {
      response = await http.requester({ method: 'GET', url: http.url, headers, abort: deadline });
    } catch (error) {
      throw http.failure(error, { deadline }, `cannot reach ${http.url}`);
    }
    http.traceHttp('receive', { status: response.status, headers: Object.fromEntries(response.headers()) });
    if (response.status >= 300 && response.status < 400) await http.refuseRedirect(response);
    if (http.auth) http.answered(response);
    if (response.status < 300 && (response.header('content-type') ?? '').includes('text/event-stream')) return response;
    const text = strict ? await kit.readText(response.body, 4096, 'an error body').catch(() => '') : (await kit.drain(response), '');
    if (strict) throw new kit.HttpStatusError(response.status, text, response.headers(), http.url);
    return undefined;
  }

  /**
   * The standalone GET stream, where a 2025 server pushes requests that belong to no POST (spec 2025-11-25
   * transports, "Listening for Messages from the Server"). A 405 means it offers none; without a session there
   * is none to listen to. Each opening's headers must come within `timeoutMs`; a stream then lives until end(),
   * and each answer the client POSTs for a request pushed down it has `timeoutMs` of its own. `onLost`: the server
   * no longer knows the session it names (a 404 when the stream is opened again); the new session listens in its turn.
   * `onEnded`: the server offers no stream, or it is given up for good, and why; no request is running to carry it.
   */
  listen(exchange: Omit<Exchange, 'deadline'>, timeoutMs: number, onLost: (stale: string) => void, onEnded: (reason: string) => void): void {
    const { id } = this;
    if (!id) return onEnded('the server gave no session (Mcp-Session-Id), so it has no event stream to listen on');
    const controller = new AbortController();
    this.listening = controller;
    void this.follow(exchange, timeoutMs, controller.signal, () => onLost(id), onEnded).catch(() => undefined);
  }

  /**
   * A server may close the stream at any time and let the client open it again after the `retry` it gave, with
   * Last-Event-ID so that it can replay what it sent meanwhile (same section, and "Resumability and Redelivery";
   * the SDK's closeStandaloneSSEStream polls this way). Failures to reach the server in a row (a 409, 429 or 5xx
   * among them) are bounded and spaced ever wider; any other answer that is not a stream ends the listening, and so
   * does a 404 on the first opening (a new session unknown at once: another instance holds it), so that renewing
   * cannot loop.
   */
  private async follow(exchange: Omit<Exchange, 'deadline'>, timeoutMs: number, signal: AbortSignal, onLost: () => void, onEnded: (reason: string) => void): Promise<void> {
    const { Deadline, HttpStatusError, sleep } = kit;
    let lastEventId: string | undefined;
    let retryMs = DEFAULT_RETRY_MS;
    let opened = false;
    let failure: unknown;
    for (let failures = 0; failures <= MAX_RESUMES; ) {
      if (opened || failures > 0) await sleep(Math.min(Math.max(retryMs, MIN_REOPEN_MS) * 2 ** failures, 2 ** 31 - 1), signal);
      const opening = new Deadline('the event stream', timeoutMs, signal);
      let response: WireResponse | undefined;
      try {
        response = await this.openStream(lastEventId === undefined ? exchange.headers : { ...exchange.headers, 'last-event-id': lastEventId }, opening, true);
      } catch (error) {
        if (signal.aborted) return;
        // Busy, briefly unavailable, or still holding the stream that was cut: tried again like a server not reached.
        const passing = error instanceof HttpStatusError && (error.status === 409 || error.status === 429 || error.status >= 500);
        if (error instanceof HttpStatusError && !passing) {
          if (error.status === 404 && opened) return onLost();
          // A server may offer no stream (405): not a failure, but all the same nothing will come between calls.
          return onEnded(error.status === 405 ? `the server offers no event stream (${error.message})` : `the server refused to open its event stream${opened ? ' again' : ''}: ${error.message}`);
        }
        failure = error;
        failures++;
        continue;
      } finally {
        opening.dispose();
      }
      if (response === undefined) return;
      opened = true;
      failures = 0;
      let events = 0;
      try {
        await this.read(response, exchange, timeoutMs, signal, (event) => {
          events++;
          if (event.id !== undefined) lastEventId = event.id;
          if (event.retry !== undefined) retryMs = event.retry;
        });
      } catch {
        // Cut off (a reset, a limit passed, or ours): opened again like a closed stream, unless it was ours.
        if (signal.aborted) return;
      }
      // An opening that brought nothing waits at least the default before the next, whatever `retry` said: a server
      // that closes every stream at once is polled, not hammered.
      if (events === 0) retryMs = Math.max(retryMs, DEFAULT_RETRY_MS);
    }
    onEnded(`the server's event stream could not be opened${opened ? ' again' : ''} ${MAX_RESUMES + 1} times in a row (the last time: ${failure instanceof Error ? failure.message : String(failure)})`);
  }

  /** One opening of the stream, to its end: each request pushed down it answered, each notification handed on. */
  private async read(response: WireResponse, exchange: Omit<Exchange, 'deadline'>, timeoutMs: number, signal: AbortSignal, seen: (event: SseEvent) => void): Promise<void> {
    const { Deadline, isRequest, parseJson, readSse } = kit;
    const { http } = this;
    for await (const event of readSse(response.body, http.limits.maxMessageBytes)) {
      seen(event);
      const message = parseJson(event.data) as JsonRpcMessage | undefined;
      if (!message || typeof message !== 'object') continue;
      http.trace?.({ direction: 'receive', transport: 'http', message });
      if (isRequest(message)) {
        const answering = new Deadline(`the answer to ${message.method}`, timeoutMs, signal);
        try {
          // One answer the server did not take (it timed out, or was refused) does not end the stream.
          await http.answer(message, { ...exchange, deadline: answering }).catch(() => undefined);
        } finally {
          answering.dispose();
        }
      } else if ('method' in message) exchange.onNotification?.(message);
    }
  }

  /**
   * notifications/cancelled for a request given up (spec 2025-11-25 cancellation: the client SHOULD send it; the server
   * otherwise keeps running the tool). A courtesy: if the server cannot be told, the request is abandoned all the same.
   * The session's end waits for it, since a DELETE sent alongside would end the session first.
   */
  abandoned(request: JsonRpcRequest, exchange: Exchange, reason: string): void {
    const deadline = new kit.Deadline('notifications/cancelled', 2000);
    const version = exchange.headers['mcp-protocol-version'];
    const message = { jsonrpc: '2.0' as const, method: 'notifications/cancelled', params: { requestId: request.id, reason } };
    const settled = this.http
      .notify(message, { deadline, headers: version ? { 'mcp-protocol-version': version } : {} })
      .catch(() => undefined)
      .finally(() => deadline.dispose());
    this.notifying.add(settled);
    void settled.then(() => this.notifying.delete(settled));
  }

  /** The server no longer knows the session: drop it, so the next initialize starts a new one. */
  forget(): void {
    this.listening?.abort();
    this.listening = undefined;
    this.id = undefined;
  }

  async end(): Promise<void> {
    this.listening?.abort();
    // Each has a deadline of its own, so this wait is bounded.
    await Promise.all(this.notifying);
    if (!this.id) return;
    const { http } = this;
    const deadline = new kit.Deadline('DELETE', 2000);
    try {
      const authorization = await Promise.resolve()
        .then(() => http.authorization(deadline, 'DELETE'))
        .catch(() => undefined);
      const headers = { ...http.baseHeaders, ...authorization, 'mcp-session-id': this.id };
      http.traceHttp('send', { method: 'DELETE', url: http.url, headers });
      // Ending a legacy session is a courtesy: a server that cannot (405) or is gone has nothing to end.
      const response = await http.requester({ method: 'DELETE', url: http.url, headers, abort: deadline }).catch(() => undefined);
      if (response) await kit.drain(response);
    } finally {
      deadline.dispose();
    }
    this.id = undefined;
  }
}
