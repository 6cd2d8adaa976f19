// A response body as the client reads it, whatever produced it (fetch's ReadableStream, node:http's
// IncomingMessage, a child's stdout): chunks until undefined, and a way to stop early.

import { LimitError } from '../errors.js';

export interface ByteStream {
  read(): Promise<Uint8Array | undefined>;
  /** Stops reading and releases the connection; safe to call twice. */
  cancel(): Promise<void>;
}

export function fromReadableStream(stream: ReadableStream<Uint8Array>): ByteStream {
  const reader = stream.getReader();
  let done = false;
  return {
    async read() {
      if (done) return undefined;
      const { value, done: end } = await reader.read();
      if (end) done = true;
      return end ? undefined : value;
    },
    async cancel() {
      if (done) return;
      done = true;
      await reader.cancel().catch(() => undefined);
    },
  };
}

/** The whole body as text, refusing (and cancelling) past `limit` bytes: a body is never held unbounded. */
export async function readText(body: ByteStream, limit: number, what: string): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await body.read(); chunk !== undefined; chunk = await body.read()) {
    size += chunk.byteLength;
    if (size > limit) {
      await body.cancel();
      throw new LimitError(what, limit);
    }
    chunks.push(chunk);
  }
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return decoder.decode(all);
}

const decoder = new TextDecoder();
