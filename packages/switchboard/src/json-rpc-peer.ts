// One JSON-RPC connection with a host, whatever carries it (stdin/stdout, a held HTTP stream): the host's requests
// are handed to a handler with a signal its `notifications/cancelled` aborts, and the bridge's own requests to the
// host (the input requests it relays) wait for their answers here. The carrier only moves messages.

import { McpError, type JsonObject, type JsonRpcError, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest } from '@byhand/client';

export type Handler = (request: JsonRpcRequest, signal: AbortSignal) => Promise<JsonObject>;

/**
 * A JSON-RPC error to answer with, as thrown by a handler. `status` is the HTTP status of a request refused before it
 * was carried to the server (an HTTP face answers it so); an error that came later is answered 200, except -32021.
 */
export class AnswerError extends Error {
  constructor(readonly error: JsonRpcError, readonly status?: number) {
    super(error.message);
  }
}

/** Requests the bridge may have waiting on a host at once: a host that never answers cannot make it hold more. */
const MAX_OUTGOING = 64;
/** Requests of the host's the bridge works on at once: one that sends without waiting for answers is refused past it. */
const MAX_INCOMING = 256;

export class JsonRpcPeer {
  private nextId = 0;
  private readonly outgoing = new Map<string | number, { resolve: (result: JsonObject) => void; reject: (error: Error) => void }>();
  private readonly incoming = new Map<string | number, { method: string; controller: AbortController }>();
  /** Each request of the host's still being handled, settled once its answer is written. */
  private readonly running = new Set<Promise<void>>();
  private closed = false;
  /** The host sends nothing more (finish): it can no longer answer what the bridge would ask. */
  private silent = false;

  constructor(
    /** Sends a message to the host; `related` is the host's request it belongs to, when known (its progress). */
    private readonly write: (message: JsonRpcMessage, related?: string | number) => void,
    private readonly handle: Handler,
    private readonly onNotification: (notification: JsonRpcNotification) => void = () => undefined,
  ) {}

  /** One message from the host. */
  receive(message: unknown): void {
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      return this.write({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a JSON-RPC message is an object' } });
    }
    const m = message as JsonObject;
    if (typeof m.method === 'string') {
      if (m.id === undefined) return this.notification(m as unknown as JsonRpcNotification);
      if (typeof m.id !== 'string' && typeof m.id !== 'number') return this.write({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: id must be a string or a number' } });
      if (this.incoming.size >= MAX_INCOMING) {
        return this.write({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: `byhand bridge: ${MAX_INCOMING} of this host's requests are in flight; send more as they are answered` } });
      }
      const running = this.request(m as unknown as JsonRpcRequest);
      this.running.add(running);
      return void running.finally(() => this.running.delete(running));
    }
    if (typeof m.id === 'string' || typeof m.id === 'number') this.response(m.id, m);
  }

  /** A request to the host (an input request relayed from the server); its JSON-RPC error is thrown as an McpError. */
  ask(method: string, params: JsonObject, signal?: AbortSignal): Promise<JsonObject> {
    if (this.closed || this.silent) return Promise.reject(new McpError('closed', `the host is gone: ${method} cannot be asked`, 'the host closed its connection to the bridge'));
    if (this.outgoing.size >= MAX_OUTGOING) return Promise.reject(new McpError('limit', `the host has ${MAX_OUTGOING} requests unanswered`, 'the host does not answer what the bridge asks it'));
    const id = `bridge-${++this.nextId}`;
    return new Promise<JsonObject>((resolve, reject) => {
      const abort = () => {
        this.outgoing.delete(id);
        this.notify('notifications/cancelled', { requestId: id, reason: 'the server no longer needs the answer' });
        reject(new McpError('aborted', `${method} was cancelled`, 'the request it was for ended'));
      };
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      this.outgoing.set(id, {
        resolve: (result) => (signal?.removeEventListener('abort', abort), resolve(result)),
        reject: (error) => (signal?.removeEventListener('abort', abort), reject(error)),
      });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** A notification to the host; `related`, the host's request it belongs to. */
  notify(method: string, params?: JsonObject, related?: string | number): void {
    if (!this.closed) this.write({ jsonrpc: '2.0', method, ...(params !== undefined ? { params } : {}) }, related);
  }

  /** The host is gone: what it was asked fails, what it asked is given up. */
  close(): void {
    this.closed = true;
    this.failAsked();
    for (const { controller } of this.incoming.values()) controller.abort(new McpError('closed', 'the host closed its connection', 'the host went away'));
    this.incoming.clear();
  }

  /**
   * The host sends nothing more but may still read (its stdin ended: a host shutting down, or a script's pipe): what
   * it asked is answered as it completes, within each request's own deadline, except a held subscription, which has
   * no end of its own. What the bridge asked it fails, since no answer can come. Resolves once nothing is in flight,
   * or when `signal` aborts.
   */
  async finish(signal?: AbortSignal): Promise<void> {
    this.silent = true;
    this.failAsked();
    for (const { method, controller } of this.incoming.values()) {
      if (method === 'subscriptions/listen') controller.abort(new McpError('closed', 'the host closed its input', 'the host went away'));
    }
    const stopped = new Promise<void>((resolve) => (signal?.aborted ? resolve() : signal?.addEventListener('abort', () => resolve(), { once: true })));
    while (this.running.size > 0 && !signal?.aborted) await Promise.race([Promise.allSettled([...this.running]), stopped]);
  }

  private failAsked(): void {
    for (const waiting of this.outgoing.values()) waiting.reject(new McpError('closed', 'the host closed its connection before answering', 'the host went away'));
    this.outgoing.clear();
  }

  private notification(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/cancelled') {
      const id = notification.params?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.incoming.get(id)?.controller.abort(new McpError('aborted', 'the host cancelled the request', 'the host sent notifications/cancelled'));
      return;
    }
    this.onNotification(notification);
  }

  private async request(request: JsonRpcRequest): Promise<void> {
    const controller = new AbortController();
    this.incoming.set(request.id, { method: request.method, controller });
    let answer: JsonRpcMessage;
    try {
      answer = { jsonrpc: '2.0', id: request.id, result: await this.handle(request, controller.signal) };
    } catch (error) {
      answer = { jsonrpc: '2.0', id: request.id, error: errorOf(error) };
    } finally {
      this.incoming.delete(request.id);
    }
    // A cancelled request is not answered (spec basic/utilities/cancellation).
    if (!controller.signal.aborted && !this.closed) this.write(answer);
  }

  private response(id: string | number, message: JsonObject): void {
    const waiting = this.outgoing.get(id);
    if (!waiting) return;
    this.outgoing.delete(id);
    const error = message.error as JsonRpcError | undefined;
    if (error !== undefined) waiting.reject(new McpError(typeof error.code === 'number' ? error.code : -32603, `the host answered with an error: ${String(error.message)}`, 'the host refused or could not fulfil the request', error.data));
    else waiting.resolve((message.result ?? {}) as JsonObject);
  }
}

/**
 * A message as one line of JSON, for any carrier. A result the engine cannot serialise (nested deeper than its stack:
 * a server's answer can be) is not the process's failure but that request's: its answer becomes an error saying why,
 * and any other message is left out (undefined).
 */
export function frame(message: JsonRpcMessage): string | undefined {
  try {
    return JSON.stringify(message);
  } catch (error) {
    if ('method' in message || message.id === undefined) return undefined;
    const why = error instanceof RangeError ? 'it is nested too deeply to serialise' : `it cannot be serialised (${error instanceof Error ? error.message : String(error)})`;
    return JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `byhand bridge: the server's answer cannot be relayed: ${why}` } });
  }
}

/** What a handler's failure tells the host: a server's JSON-RPC error as it was, anything else as an internal error that says why. */
export function errorOf(error: unknown): JsonRpcError {
  if (error instanceof AnswerError) return error.error;
  if (error instanceof McpError && typeof error.code === 'number') return { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) };
  const message = error instanceof McpError ? `${error.message} (hint: ${error.hint})` : error instanceof Error ? error.message : String(error);
  return { code: -32603, message: `byhand bridge: ${message}` };
}
