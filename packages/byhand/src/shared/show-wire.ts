// Wire messages as text: whole and on one line for --trace (something to grep and diff), or
// trimmed and indented for the demo (something to read).

import { redactText, type TraceEntry } from '@byhand/client';
import { printable } from '@byhand/host';
import { boundDepth } from './depth-bound.js';

/** One --trace line per entry: every message, and the HTTP exchange it rode on. */
export function traceLine(entry: TraceEntry): string {
  const arrow = entry.direction === 'send' ? '→' : '←';
  const http = entry.http;
  // An HTTP message without an exchange of its own came as an event on an SSE stream.
  const via = http?.method ? `${http.method} ${http.url ?? ''}` : http?.status !== undefined ? `HTTP ${http.status}${contentType(http.headers)}` : entry.transport === 'http' ? 'sse' : entry.transport;
  const body = entry.message !== undefined ? JSON.stringify(boundDepth(entry.message).value) : entry.raw !== undefined ? `(not JSON) ${entry.raw}` : '';
  // The transport already redacted headers and the URL; a URL inside a message (a link a server
  // returned, a resource URI) is redacted here by the same rule.
  return printable(redactText(`${arrow} ${via}${body ? ` ${body}` : ''}${cacheHint(entry.message)}`));
}

/** A result's caching hints (SEP-2549), spelled out: the client reuses a list for ttlMs. */
function cacheHint(message: unknown): string {
  const result = (message as { result?: { ttlMs?: unknown; cacheScope?: unknown } } | undefined)?.result;
  if (typeof result?.ttlMs !== 'number') return '';
  return ` (cacheable for ${result.ttlMs} ms${typeof result.cacheScope === 'string' ? `, scope ${result.cacheScope}` : ''})`;
}

interface TrimOptions {
  /** Longer strings are cut, with the count of what was cut. */
  maxString: number;
  /** Longer arrays keep their first items. */
  maxItems: number;
  /** Anything that fits on one line this wide stays on one line. */
  width: number;
  /** Members shown as "…": the same on every message, and in the way of the ones that matter. */
  elide: readonly string[];
}

const DEMO_TRIM: TrimOptions = { maxString: 72, maxItems: 3, width: 100, elide: ['io.modelcontextprotocol/serverInfo'] };

/** Pretty JSON that stays short: long strings and arrays cut, small objects kept on one line. */
export function excerpt(value: unknown): string {
  return printable(render(trim(value, DEMO_TRIM), '    ', DEMO_TRIM.width));
}

function trim(value: unknown, options: TrimOptions): unknown {
  if (typeof value === 'string') {
    return value.length > options.maxString ? `${value.slice(0, options.maxString)}… (${value.length - options.maxString} more characters)` : value;
  }
  if (Array.isArray(value)) {
    const kept = value.slice(0, options.maxItems).map((item) => trim(item, options));
    return value.length > options.maxItems ? [...kept, `… (${value.length - options.maxItems} more)`] : kept;
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, options.elide.includes(key) ? '…' : trim(item, options)]));
  }
  return value;
}

function render(value: unknown, indent: string, width: number, depth = 0): string {
  const inline = JSON.stringify(value);
  const pad = indent + '  '.repeat(depth);
  if (inline === undefined || typeof value !== 'object' || value === null || pad.length + inline.length <= width) return pad + inline;
  const inner = (item: unknown) => render(item, indent, width, depth + 1);
  if (Array.isArray(value)) return `${pad}[\n${value.map(inner).join(',\n')}\n${pad}]`;
  const members = Object.entries(value).map(([key, item]) => {
    const rendered = inner(item).trimStart();
    return `${pad}  ${JSON.stringify(key)}: ${rendered}`;
  });
  return `${pad}{\n${members.join(',\n')}\n${pad}}`;
}

function contentType(headers: Record<string, string> | undefined): string {
  const type = headers?.['content-type'];
  return type ? ` ${type.split(';')[0]}` : '';
}
