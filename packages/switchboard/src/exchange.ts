// One HTTP request to the bridge's HTTP face, whatever server carries it: node:http (node-http.ts, the fast path
// `byhand bridge --listen` takes) or a web Request answered with a Response (web-http.ts, for Workers and any
// fetch-handler server). The face reads the request and answers through this alone.

export interface HttpExchange {
  readonly method: string;
  /** A request header's one value, by lower-case name; repeated ones joined with a comma. */
  header(name: string): string | undefined;
  /** Who is calling: the client's address, for the per-host bounds ('' when the carrier does not say). */
  readonly address: string;
  /** Aborted when the caller goes away; may outlive the request (node:http's is its connection's), so listen only until the answer. */
  readonly hangUp: AbortSignal;
  /** The body as text, or undefined once it passes `max` bytes (the rest is then read and dropped, or cancelled). */
  body(max: number): Promise<string | undefined>;
  /** The whole answer; `headers` is the exchange's to add to. */
  reply(status: number, headers: Record<string, string>, body?: string): void;
  /** An answer written as it comes (an event stream, status 200), until `end`. */
  open(headers: Record<string, string>): ResponseSink;
  /** Told once the response is over: ended, or the caller hung up. */
  onClose(listener: () => void): void;
}

export interface ResponseSink {
  write(text: string): void;
  end(text?: string): void;
}

/** A JSON-RPC error with no request to answer (id null), as the whole answer. */
export function rpcError(exchange: HttpExchange, status: number, code: number, message: string): void {
  exchange.reply(status, { 'content-type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}
