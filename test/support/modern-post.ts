// A 2026 host's request written by hand: one POST with the envelope and the headers that mirror the body, answered as
// JSON or as an event stream (what came before the answer is kept). For tests that need what an SDK client hides: the
// HTTP status, the notifications before the answer, a connection closed between rounds.

import { request as httpRequest } from 'node:http';

export const MODERN = '2026-07-28';

export type Rpc = { id?: unknown; method?: string; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown }; params?: Record<string, unknown> };

export interface Answered {
  status: number;
  /** The JSON-RPC answer. */
  answer: Rpc;
  /** Notifications that came on the stream before the answer. */
  before: Rpc[];
}

export function envelope(capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': capabilities, 'io.modelcontextprotocol/clientInfo': { name: 'hand-written-host', version: '1' }, ...extra };
}

/**
 * POSTs one request; `close` sends `Connection: close`, so the bridge sees the connection end right after its answer,
 * as it does when a host's keep-alive runs out while a person fills a form.
 */
export function modernPost(url: string, body: { id: string | number; method: string; params: Record<string, unknown> }, options: { close?: boolean; headers?: Record<string, string> } = {}): Promise<Answered> {
  const name = body.params.name ?? body.params.uri;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': body.method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    ...(options.close ? { connection: 'close' } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.once('end', () => {
        try {
          const messages = String(res.headers['content-type']).startsWith('text/event-stream')
            ? text.split('\n').filter((line) => line.startsWith('data: ') && line.length > 6).map((line) => JSON.parse(line.slice(6)) as Rpc)
            : [JSON.parse(text) as Rpc];
          const answer = messages.find((m) => m.method === undefined && m.id === body.id);
          if (answer === undefined) return reject(new Error(`no answer to ${body.method} in: ${text.slice(0, 500)}`));
          resolve({ status: res.statusCode ?? 0, answer, before: messages.filter((m) => m.method !== undefined) });
        } catch (error) {
          reject(new Error(`could not read the answer to ${body.method}: ${text.slice(0, 500)}`, { cause: error }));
        }
      });
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', ...body }));
  });
}
