// HTTP request metadata (SEP-2243, spec basic/transports/streamable-http.mdx "Request Metadata"): the Base64
// sentinel for values that are not header-safe, and x-mcp-header parameters mirrored as Mcp-Param-* headers.

import type { JsonObject, Tool } from './types.js';

// RFC 9110 tchar: what a header field name may contain.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII and inner spaces. RFC 9110 also allows a tab, but the conformance suite wants any
// control character encoded (conformance 0.2.0-alpha.12 dist/index.js, needsBase64 `Ns`), so tabs are.
const SAFE_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;

/** A value as it may travel in a header: plain when safe, `=?base64?…?=` otherwise. */
export function encodeHeaderValue(value: string): string {
  const looksEncoded = value.startsWith('=?base64?') && value.endsWith('?=');
  if (SAFE_VALUE.test(value) && !looksEncoded) return value;
  // btoa over the UTF-8 bytes rather than Buffer: the HTTP client runs where only web APIs exist.
  return `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(value)))}?=`;
}

export interface HeaderParam {
  header: string;
  path: string[];
}

/**
 * The x-mcp-header annotations of a tool, or the reason the tool is invalid. Only properties reached
 * through a chain of `properties` keys may carry one, only on string/integer/boolean, names must be
 * tokens and case-insensitively unique (streamable-http.mdx "Schema Extension").
 */
export function headerParams(tool: Tool): { params: HeaderParam[] } | { invalid: string } {
  const params: HeaderParam[] = [];
  const reachable = new Set<unknown>();
  const walk = (schema: unknown, path: string[]): string | undefined => {
    if (!isObject(schema)) return undefined;
    reachable.add(schema);
    if ('x-mcp-header' in schema) {
      const problem = path.length === 0 ? 'x-mcp-header on the schema root names no parameter' : checkAnnotation(schema);
      if (problem) return `property ${path.join('.')}: ${problem}`;
      params.push({ header: schema['x-mcp-header'] as string, path });
    }
    const properties = schema.properties;
    if (!isObject(properties)) return undefined;
    for (const [key, child] of Object.entries(properties)) {
      const problem = walk(child, [...path, key]);
      if (problem) return problem;
    }
    return undefined;
  };
  const problem = walk(tool.inputSchema, []) ?? strayAnnotation(tool.inputSchema, reachable);
  if (problem) return { invalid: problem };
  const seen = new Map<string, string>();
  for (const p of params) {
    const lower = p.header.toLowerCase();
    if (seen.has(lower)) return { invalid: `x-mcp-header '${p.header}' is used twice (also on ${seen.get(lower)})` };
    seen.set(lower, p.path.join('.'));
  }
  return { params };
}

function checkAnnotation(schema: JsonObject): string | undefined {
  const name = schema['x-mcp-header'];
  if (typeof name !== 'string' || name === '') return 'x-mcp-header must be a non-empty string';
  if (!TOKEN.test(name)) return `x-mcp-header '${name}' is not a valid header name token`;
  const types = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : [schema.type];
  if (types.length !== 1 || !['string', 'integer', 'boolean'].includes(types[0] as string)) {
    return `x-mcp-header '${name}' is on a ${JSON.stringify(schema.type ?? 'untyped')} property; only string, integer and boolean may be mirrored`;
  }
  return undefined;
}

/**
 * An annotation anywhere that is not statically reachable (items, oneOf, $defs, ...) invalidates the tool. Every tool
 * of every listing is walked: the path is one stack of keys, joined only for the error, not a string per node.
 */
function strayAnnotation(schema: unknown, reachable: Set<unknown>, path: string[] = []): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if (path.length > 64) return 'the inputSchema is nested too deeply to check';
  if ('x-mcp-header' in schema && !reachable.has(schema)) {
    return `x-mcp-header at /${path.join('/')} is not reachable through properties alone`;
  }
  for (const key in schema) {
    path.push(key);
    const problem = strayAnnotation((schema as JsonObject)[key], reachable, path);
    path.pop();
    if (problem) return problem;
  }
  return undefined;
}

/** Mcp-Param-* headers for a call; null or absent values are omitted. */
export function paramHeaders(params: HeaderParam[], args: JsonObject | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const p of params) {
    let value: unknown = args;
    for (const key of p.path) value = isObject(value) ? value[key] : undefined;
    if (value === undefined || value === null) continue;
    headers[`Mcp-Param-${p.header}`] = encodeHeaderValue(typeof value === 'string' ? value : JSON.stringify(value));
  }
  return headers;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
