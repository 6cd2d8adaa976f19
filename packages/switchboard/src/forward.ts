// One host request carried to the server by the back client, whichever era each side speaks: the client adds the
// envelope, the headers or the session, and runs the input rounds through its host (relay-host.ts). The host's
// own `_meta` stays on this side: its progress token is answered here, from the back's progress.

import { RpcError, type Client, type JsonObject, type ToolCallOptions } from '@byhand/client';
import { EXTENSION_METHODS } from './extensions.js';
import { AnswerError } from './json-rpc-peer.js';

export interface ForwardOptions {
  signal: AbortSignal;
  /** The host's progress token's notifications, when it gave one. */
  progress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** Requests that go to the server as they are (the client's pagination is the host's), the carried extensions' among them. */
const AS_IS = new Set(['resources/list', 'resources/templates/list', 'prompts/list', 'completion/complete', ...EXTENSION_METHODS]);
/** A 2025 session's own requests: they mean something to a server that keeps a session only (the legacy face takes setLevel itself). */
const SESSION_ONLY = new Set(['resources/subscribe', 'resources/unsubscribe']);

export async function forward(client: Client, method: string, params: JsonObject, options: ForwardOptions): Promise<JsonObject> {
  const { _meta: _, ...bare } = params;
  const call: ToolCallOptions = { signal: options.signal, ...(options.progress ? { onProgress: options.progress } : {}) };
  if (AS_IS.has(method)) return client.request(method, bare, call);
  if (SESSION_ONLY.has(method)) {
    if (client.traits.sessionful) return client.request(method, bare, call);
    throw new AnswerError({ code: -32601, message: `byhand bridge: ${method} is not bridged to a ${client.protocolVersion} server` });
  }
  switch (method) {
    case 'tools/list':
      return { tools: await client.listTools(call) };
    case 'tools/call':
      return toolCall(client, bare, call);
    case 'resources/read':
      return await client.readResource(String(bare.uri), call);
    case 'prompts/get':
      return await client.getPrompt(String(bare.name), (bare.arguments ?? {}) as Record<string, string>, call);
    default:
      throw new AnswerError({ code: -32601, message: `Method not found: ${method}` });
  }
}

/**
 * A server's JSON-RPC error is the host's to see as it was; anything else that stops a call on the way (a host that
 * could not answer an input request, or was asked for a capability it never declared) is the tool's failure, told
 * in its result so the model reads why.
 */
async function toolCall(client: Client, params: JsonObject, call: ToolCallOptions): Promise<JsonObject> {
  try {
    return await client.callTool(String(params.name), (params.arguments ?? {}) as JsonObject, call);
  } catch (error) {
    return toolFailure(error, call.signal);
  }
}

/** A call's failure as the tool's result, unless it is the server's JSON-RPC error or the caller's abort (thrown). */
export function toolFailure(error: unknown, signal?: AbortSignal): JsonObject {
  if (error instanceof RpcError || signal?.aborted) throw error;
  const hint = error instanceof Error && 'hint' in error ? `\nhint: ${String(error.hint)}` : '';
  return { isError: true, content: [{ type: 'text', text: `✗ byhand bridge: ${error instanceof Error ? error.message : String(error)}${hint}` }] };
}
