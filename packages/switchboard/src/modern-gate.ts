// What a 2026 server checks of a request before it runs it, and so the bridge's 2026 face checks too (it is the server
// the host sees): the envelope (spec 2026-07-28 basic/index.mdx: protocolVersion and clientCapabilities are required,
// -32602), the version (-32022 with the supported list), the methods 2026 removed or never had (-32601), and on HTTP
// the headers that mirror the body (basic/transports/streamable-http.mdx "Request Metadata": MCP-Protocol-Version,
// Mcp-Method, Mcp-Name and Mcp-Param-*, each present and agreeing with the body, else -32020). Each refusal carries
// the HTTP status a 2026 server answers it with: 400, and 404 for a method not found (the SDK's table,
// @modelcontextprotocol/server dist/src-*.mjs LADDER_ERROR_HTTP_STATUS). The order is the SDK's: the envelope, the
// protocol-version header, the version, the other headers, the method.

import { META, MODERN_VERSIONS, type JsonObject, type JsonRpcRequest } from '@byhand/client';
import { EXTENSION_METHODS } from './extensions.js';
import { isLogLevel, LOG_LEVELS } from './log-levels.js';
import { AnswerError } from './json-rpc-peer.js';

/** A request header's value, by lower-case name, or undefined when absent. */
export type HeaderLookup = (name: string) => string | undefined;

/** The methods the 2026 face serves: the core ones, the tasks extension's (modern-face.ts says where), the carried extensions' (extensions.ts). */
const SERVED = new Set([
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'subscriptions/listen',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
  ...EXTENSION_METHODS,
]);

/** Where Mcp-Name comes from in the body, per method (streamable-http.mdx "Standard Headers"; SEP-2663 for tasks). */
const NAME_SOURCE: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

export function refused(status: number, code: number, message: string, data?: JsonObject): AnswerError {
  return new AnswerError({ code, message, ...(data !== undefined ? { data } : {}) }, status);
}

const mismatch = (what: string) => refused(400, -32020, `Bad Request: the request headers and body disagree: ${what}`);

/** Everything but the Mcp-Param-* headers, in the SDK's order; `header` is undefined off HTTP (stdio has no headers). */
export function admit(request: JsonRpcRequest, header?: HeaderLookup): void {
  const meta = request.params?._meta;
  if (!isObject(meta)) throw refused(400, -32602, 'Invalid params: a 2026 request carries the envelope in params._meta');
  const version = meta[META.protocolVersion];
  if (typeof version !== 'string') throw refused(400, -32602, `Invalid params: params._meta has no ${META.protocolVersion}`);
  if (!isObject(meta[META.clientCapabilities])) throw refused(400, -32602, `Invalid params: params._meta has no ${META.clientCapabilities} object`);
  const level = meta[META.logLevel];
  if (level !== undefined && !isLogLevel(level)) throw refused(400, -32602, `Invalid params: ${META.logLevel} must be one of ${LOG_LEVELS.join(', ')}`);
  if (header !== undefined) {
    const said = header('mcp-protocol-version')?.trim();
    if (said !== version) throw mismatch(said === undefined ? 'the MCP-Protocol-Version header is missing' : `the MCP-Protocol-Version header says ${said}, the envelope ${version}`);
  }
  const supported: readonly string[] = MODERN_VERSIONS;
  if (!supported.includes(version)) throw refused(400, -32022, `Unsupported protocol version: ${version}`, { supported: [...MODERN_VERSIONS], requested: version });
  if (header !== undefined) standardHeaders(request, header);
  if (!SERVED.has(request.method)) throw refused(404, -32601, `Method not found: ${request.method}`);
}

/** Mcp-Method always; Mcp-Name where the method names something, decoded, with the optional whitespace around it trimmed. */
function standardHeaders(request: JsonRpcRequest, header: HeaderLookup): void {
  const method = header('mcp-method')?.trim();
  if (method === undefined) throw mismatch('the Mcp-Method header is missing');
  if (method !== request.method) throw mismatch(`the Mcp-Method header names ${method}, the body ${request.method}`);
  const source = NAME_SOURCE[request.method];
  const named = source === undefined ? undefined : request.params?.[source];
  if (typeof named !== 'string') return;
  const raw = header('mcp-name');
  if (raw === undefined) throw mismatch(`the body carries params.${source}, and the Mcp-Name header is missing`);
  const decoded = decodeHeaderValue(raw.trim());
  if (decoded === undefined) throw mismatch('the Mcp-Name header carries an invalid Base64 sentinel value');
  if (decoded !== named) throw mismatch(`the body carries params.${source}=${JSON.stringify(named)}, the Mcp-Name header ${JSON.stringify(decoded)}`);
}

/** A tool's argument mirrored as a header: its x-mcp-header name and where it is in the arguments. */
export interface MirroredParam {
  header: string;
  path: string[];
}

/** Each argument the tool's schema mirrors, when the call gives it, must come as its Mcp-Param-* header, agreeing. */
export function checkParamHeaders(mirrored: readonly MirroredParam[], args: unknown, header: HeaderLookup): void {
  for (const p of mirrored) {
    let value: unknown = args;
    for (const key of p.path) value = isObject(value) ? value[key] : undefined;
    if (value === undefined || value === null) continue;
    const expected = typeof value === 'string' ? value : JSON.stringify(value);
    const raw = header(`mcp-param-${p.header.toLowerCase()}`);
    if (raw === undefined) throw mismatch(`the arguments carry ${p.path.join('.')}, and the Mcp-Param-${p.header} header is missing`);
    const decoded = decodeHeaderValue(raw.trim());
    if (decoded === undefined) throw mismatch(`the Mcp-Param-${p.header} header carries an invalid Base64 sentinel value`);
    if (decoded !== expected) throw mismatch(`the arguments carry ${p.path.join('.')}=${JSON.stringify(expected)}, the Mcp-Param-${p.header} header ${JSON.stringify(decoded)}`);
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A header value as the client meant it: `=?base64?…?=` is UTF-8 in Base64 (undefined when that Base64 is not valid,
 * padding included); anything else, a value missing either end of the wrapper too, is literal.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith('=?base64?') && value.endsWith('?=') && value.length >= 11)) return value;
  const inner = value.slice(9, -2);
  if (!BASE64.test(inner)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(inner), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
