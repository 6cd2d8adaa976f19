// What the client needs from a transport: send one request and get its response (with any
// notifications and server-to-client requests seen on the way), send a notification, close. A transport says what
// it can do (headers with each message, a connection held between requests, silence as a refusal) rather than which
// one it is, so nothing above it asks its name: Streamable HTTP, HTTP+SSE and stdio are three implementations of
// this file, and a caller may bring a fourth to connect().

import type { Deadline } from '../deadline.js';
import type { JsonObject, JsonRpcError, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../types.js';

export type ServerRequestAnswer = { result: JsonObject } | { error: JsonRpcError };

export interface Exchange {
  /** Ends the request: its timeout (paused while the host answers), or the caller's abort. */
  deadline: Deadline;
  /** HTTP headers for this message; stdio ignores them. */
  headers: Record<string, string>;
  onServerRequest?: (request: JsonRpcRequest) => Promise<ServerRequestAnswer>;
  onNotification?: (notification: JsonRpcNotification) => void;
}

export interface Reply {
  message: JsonRpcResponse;
  /** The HTTP status it came with, when over HTTP. */
  status?: number;
}

export interface TraceEntry {
  direction: 'send' | 'receive';
  transport: 'http' | 'stdio';
  message?: JsonRpcMessage;
  /** HTTP only: the method and URL, the status, the headers. */
  http?: { method?: string; url?: string; status?: number; headers?: Record<string, string> };
  /** What could not be parsed, as text. */
  raw?: string;
}

export type Trace = (entry: TraceEntry) => void;

export interface Transport {
  /** What the client reports it as (Client.transportName): 'streamable-http', 'sse', 'stdio', or a transport's own. */
  readonly name: string;
  /** Where the era verdict is cached: the endpoint URL, or the command line. */
  readonly key: string;
  /** HTTP headers travel with each message: the modern era mirrors the body in them (SEP-2243), and checks a tool's x-mcp-header. */
  readonly carriesHeaders: boolean;
  /** One connection the server can write to between requests (stdio, the HTTP+SSE stream): a legacy server keeps its session on it. */
  readonly held: boolean;
  /**
   * A server that does not take a request may say nothing, or exit (stdio, spec stdio.mdx L121-147): silence to the
   * era probe is then legacy evidence, once the server shows it is up.
   */
  readonly refusesSilently?: boolean;
  /** The one era it carries, when it carries only one (HTTP+SSE: legacy): there is nothing to probe. */
  readonly era?: 'legacy';
  /**
   * One request and its response. A request given up (its deadline) is said to the server the transport's way: stdio
   * in both eras, a 2025 session over HTTP, HTTP+SSE (spec basic/patterns/cancellation.mdx).
   */
  request(message: JsonRpcRequest, exchange: Exchange): Promise<Reply>;
  notify(message: JsonRpcNotification, exchange: Exchange): Promise<void>;
  /** Legacy HTTP sessions: the Mcp-Session-Id the server issued, if any. */
  readonly sessionId?: string | undefined;
  /**
   * Legacy: where the server's requests and notifications that belong to no request go, for the life of the
   * connection; `onEnded` is told, with the reason, when the server can send no more (not when the client closes).
   */
  listen?(exchange: Omit<Exchange, 'deadline'>, timeoutMs: number, onEnded?: (reason: string) => void): void;
  /** stdio: the server's recent stderr, whether its process is gone, and its first sign of life. */
  readonly stderr?: string;
  /** stdio: the lines on stdout that were not JSON-RPC. */
  readonly strayOutput?: readonly string[];
  readonly hasExited?: boolean;
  readonly started?: Promise<'stdout' | 'stderr' | 'exit'>;
  close(): Promise<void>;
}

export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !('method' in message) && ('result' in message || 'error' in message);
}

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return 'method' in message && 'id' in message && message.id !== undefined && message.id !== null;
}

let lastId = 0;

/** Request ids: unique for the life of the process, so a reply can never answer the wrong request. */
export function nextId(): number {
  return ++lastId;
}
