// The wire with nothing added: one JSON-RPC message out on the connection byhand's client opened (its transport, so
// the same process, limits, session and login), the reply back as it came, error or not, so a check can send what no
// well-behaved client sends (a header that disagrees with the body, answers inside _meta, a tampered requestState).

import { HttpStatusError, type Client } from '@byhand/client';

export interface RawReply {
  /** HTTP status; undefined over stdio. */
  status?: number;
  /** The JSON-RPC response, when one came. */
  message?: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
  /** The body, when it was not JSON-RPC, for evidence. */
  text?: string;
  ms: number;
}

let nextId = 1;
export const rawId = () => `check-${nextId++}`;

export async function sendRawOn(client: Client, message: { jsonrpc: '2.0'; id: string; method: string; params?: Record<string, unknown> }, headers: Record<string, string> = {}): Promise<RawReply> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const reply = await client.sendRaw(message, { headers });
    return { ...(reply.status !== undefined ? { status: reply.status } : {}), message: reply.message, ms: ms() };
  } catch (error) {
    // A refusal that is not JSON-RPC (a plain 400 or 404) is an answer too: the checks read it as one.
    if (error instanceof HttpStatusError) return { status: error.status, text: error.body, ms: ms() };
    throw error;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
