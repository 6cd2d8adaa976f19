// What the client needs from a transport: send one request and get its response (with any
// notifications and server-to-client requests seen on the way), send a notification, close.

import type { Deadline } from '../deadline.js';
import type { JsonObject, JsonRpcError, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../types.js';

export type ServerRequestAnswer = { result: JsonObject } | { error: JsonRpcError };

export interface Exchange {
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
  readonly kind: 'http' | 'stdio';
  /** Where the era verdict is cached: the endpoint URL, or the command line. */
  readonly key: string;
  request(message: JsonRpcRequest, exchange: Exchange): Promise<Reply>;
  notify(message: JsonRpcNotification, exchange: Exchange): Promise<void>;
  /** Legacy HTTP sessions: the Mcp-Session-Id the server issued, if any. */
  readonly sessionId?: string | undefined;
  /** The 2024-11-05 HTTP+SSE transport: the URL its `endpoint` event named, where messages are POSTed. */
  readonly endpoint?: string;
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
