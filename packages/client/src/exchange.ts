// One request on the wire, the same in both eras: a JSON-RPC message with a deadline, its reply read
// into a result or an RpcError. What differs between the eras (the envelope and headers, or the
// session and server-to-client requests) is given by the caller.

import { Deadline } from './deadline.js';
import { ProtocolError, RpcError } from './errors.js';
import type { Reply, ServerRequestAnswer, Transport } from './transport/transport.js';
import { nextId } from './transport/transport.js';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest } from './types.js';

export interface RequestOptions {
  signal?: AbortSignal;
  /** Per request, excluding time the host spends on input. Infinity for a subscription. */
  timeoutMs?: number;
  /** Extra HTTP headers for this request (Mcp-Param-* mirrors). */
  headers?: Record<string, string>;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Notifications that arrive while this request runs (logs, progress, a subscription's updates). */
  onNotification?: (notification: JsonRpcNotification) => void;
  /** The caller's own keys for `params._meta`; the protocol's keys are refused (isReservedMetaKey). */
  meta?: JsonObject;
}

/**
 * A `_meta` key that is the protocol's own: `progressToken`, or a prefix with a `modelcontextprotocol`
 * or `mcp` label (spec 2025-06-18 basic/index "_meta", so `io.modelcontextprotocol/protocolVersion` and
 * every other envelope key). A caller's key must not replace what the protocol put there.
 */
export function isReservedMetaKey(key: string): boolean {
  if (key === 'progressToken') return true;
  const slash = key.indexOf('/');
  return slash > 0 && key.slice(0, slash).split('.').some((label) => label === 'modelcontextprotocol' || label === 'mcp');
}

export interface Wire {
  transport: Transport;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** Notifications for the whole client. */
  onNotification: ((notification: JsonRpcNotification) => void) | undefined;
}

/**
 * One JSON-RPC request with a new id: `params`, with the era's `_meta` (`base`: the modern envelope, or the params' own)
 * over the caller's keys, and a progress token when progress is wanted. The caller's keys may not be the protocol's.
 */
export function message(method: string, params: JsonObject, options: RequestOptions, base?: JsonObject): JsonRpcRequest {
  const id = nextId();
  let meta = base;
  if (options.meta || options.onProgress) {
    const reserved = options.meta && Object.keys(options.meta).find(isReservedMetaKey);
    if (reserved !== undefined) throw new ProtocolError(`the _meta key ${reserved} is the protocol's own, so a caller may not set it`, 'give your own keys, or a prefix of your own (example.com/key)');
    meta = { ...options.meta, ...base, ...(options.onProgress ? { progressToken: progressToken(id) } : {}) };
  }
  return { jsonrpc: '2.0', id, method, params: meta ? { ...params, _meta: meta } : params };
}

const progressToken = (id: JsonRpcRequest['id']) => `byhand-${String(id)}`;

/**
 * Sends one request (`message`, with the headers its era gave and the caller's over them) and returns its reply,
 * error or not. `onServerRequest` answers a legacy server's pushes (sampling, elicitation, roots) while it runs.
 */
export async function exchange(
  wire: Wire,
  message: JsonRpcRequest,
  headers: Record<string, string>,
  options: RequestOptions,
  onServerRequest?: (request: JsonRpcRequest, signal: AbortSignal) => Promise<ServerRequestAnswer>,
): Promise<Reply> {
  const deadline = new Deadline(message.method, options.timeoutMs ?? wire.timeoutMs, options.signal ?? wire.signal);
  const token = options.onProgress ? progressToken(message.id) : undefined;
  try {
    return await wire.transport.request(message, {
      deadline,
      headers: options.headers ? { ...headers, ...options.headers } : headers,
      onServerRequest: onServerRequest && ((pushed: JsonRpcRequest) => onServerRequest(pushed, deadline.signal)),
      onNotification: (notification) => {
        const p = notification.params;
        if (token !== undefined && notification.method === 'notifications/progress' && p?.progressToken === token) {
          options.onProgress!({ progress: Number(p.progress), total: p.total as number | undefined, message: p.message as string | undefined });
        }
        options.onNotification?.(notification);
        wire.onNotification?.(notification);
      },
    });
  } finally {
    deadline.dispose();
  }
}

/** The result of a reply, or the RpcError it carries; `protocolVersion` and `headers` feed the error's hint. */
export function resultOf(reply: Reply, method: string, params: JsonObject, protocolVersion: string | undefined, headers?: () => Record<string, string>): JsonObject {
  if (reply.message.error) throw rpcErrorOf(reply, method, params, protocolVersion, headers);
  const { result } = reply.message;
  if (!result || typeof result !== 'object' || Array.isArray(result)) {
    throw new ProtocolError(`${method} got a response with neither result nor error`, 'this is a server bug: a JSON-RPC response carries one of them');
  }
  return result;
}

/** A reply's JSON-RPC error as an RpcError, with what the hint needs to name the field at fault. */
export function rpcErrorOf(reply: Reply, method: string, params: JsonObject, protocolVersion: string | undefined, headers?: () => Record<string, string>): RpcError {
  const name = (params.name ?? params.uri) as string | undefined;
  const context = { method, ...(name !== undefined ? { name } : {}), ...(protocolVersion ? { protocolVersion } : {}), ...(headers ? { headers: headers() } : {}) };
  return new RpcError(reply.message.error!, context, reply.status);
}
