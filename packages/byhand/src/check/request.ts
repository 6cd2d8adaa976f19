// A modern request built as byhand's client builds it (its envelope and its mirrored headers), so a check can then
// change exactly one thing about it and nothing else.

import { envelope, headerParams, MODERN_VERSIONS, paramHeaders, standardHeaders, type ClientCapabilities, type JsonObject } from '@byhand/client';
import type { InputTarget } from './context.js';
import { rawId } from './raw.js';

export const CLIENT_INFO = { name: 'byhand-check', version: '0.2.0' };

/** What the canned host can answer (canned.ts): every input request kind. */
export const ALL_CAPABILITIES: ClientCapabilities = { sampling: {}, elicitation: { form: {} }, roots: {} };

export interface BuiltRequest {
  message: { jsonrpc: '2.0'; id: string; method: string; params: JsonObject };
  headers: Record<string, string>;
}

export function modernRequest(method: string, params: JsonObject = {}, options: { version?: string; capabilities?: ClientCapabilities } = {}): BuiltRequest {
  const version = options.version ?? MODERN_VERSIONS[0];
  const body = { ...params, _meta: envelope(version, options.capabilities ?? ALL_CAPABILITIES, CLIENT_INFO, undefined, params._meta as JsonObject | undefined) };
  return { message: { jsonrpc: '2.0', id: rawId(), method, params: body }, headers: standardHeaders(method, body, version) };
}

/** "-32020 Bad Request: …" or "result (resultType complete)", for a finding's `got`. */
export function gotText(reply: { status?: number; message?: { result?: Record<string, unknown>; error?: { code: number; message: string } }; text?: string }): string {
  const status = reply.status !== undefined ? `HTTP ${reply.status}, ` : '';
  if (reply.message?.error) return `${status}error ${reply.message.error.code} ${JSON.stringify(reply.message.error.message.slice(0, 160))}`;
  if (reply.message?.result) {
    const type = reply.message.result.resultType;
    return `${status}a result${typeof type === 'string' ? ` (resultType ${type})` : ''}`;
  }
  return `${status}no JSON-RPC response${reply.text ? `: ${JSON.stringify(reply.text.slice(0, 120))}` : ''}`;
}

/** The request of a call, read or get, with `extra` params (answers, a state) and its headers. */
export function targetRequest(target: InputTarget, extra: JsonObject = {}, options: { capabilities?: ClientCapabilities } = {}): BuiltRequest {
  const request = modernRequest(target.method, { ...target.params, ...extra }, options);
  const params = target.tool ? headerParams(target.tool) : undefined;
  if (params && 'params' in params) Object.assign(request.headers, paramHeaders(params.params, target.params.arguments as JsonObject));
  return request;
}
