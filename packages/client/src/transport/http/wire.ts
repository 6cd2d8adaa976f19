// One HTTP exchange, as the transport needs it, whatever makes it: a request goes out, and a status,
// headers and a byte stream come back. Two makers share every rule above them (JSON and SSE reading,
// limits, timeouts, abort, no redirects, errors): fetch everywhere, and node:http on Node
// (requester-node.ts), which is faster there. Neither follows redirects.

import { fromReadableStream, type ByteStream } from '../bytes.js';
import type { AbortSource } from '../../deadline.js';

export interface WireRequest {
  method: 'POST' | 'GET' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Ends the exchange, whatever stage it is at; a requester that needs no AbortSignal should not ask for one. */
  abort: AbortSource;
}

export interface WireResponse {
  status: number;
  /** One header, by case-insensitive name. */
  header(name: string): string | null;
  /** All headers, for errors, traces and authorization challenges. */
  headers(): Headers;
  body: ByteStream;
}

/** Makes one exchange; rejects only when nothing came back (network failure, abort). */
export interface Requester {
  (request: WireRequest): Promise<WireResponse>;
  /** Releases kept-alive connections. */
  close?(): void;
}

export function fetchRequester(fetchImpl: typeof fetch = (input, init) => fetch(input, init)): Requester {
  return async ({ method, url, headers, body, abort }) => {
    const response = await fetchImpl(url, { method, headers, body, signal: abort.signal, redirect: 'manual' });
    const empty = { read: async () => undefined, cancel: async () => undefined };
    return {
      // A browser hides a manual redirect as an opaque response with status 0.
      status: response.type === 'opaqueredirect' ? 302 : response.status,
      header: (name) => response.headers.get(name),
      headers: () => response.headers,
      body: response.body ? fromReadableStream(response.body) : empty,
    };
  };
}
