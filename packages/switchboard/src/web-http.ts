// The HTTP face for a web Request, answered with a Response: for Workers and any server that takes a fetch handler.
// The answer is known once the face replies or opens an event stream, which is then written as events come; the
// caller hanging up shows as the stream being cancelled (or the request's signal, where the runtime aborts it).

import type { HttpExchange, ResponseSink } from './exchange.js';

export function webExchange(request: Request, address = ''): { exchange: HttpExchange; response: Promise<Response> } {
  let answer!: (response: Response) => void;
  const response = new Promise<Response>((resolve) => (answer = resolve));
  const listeners: (() => void)[] = [];
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    for (const listener of listeners.splice(0)) listener();
  };
  request.signal.addEventListener('abort', close, { once: true });
  const utf8 = new TextEncoder();
  const exchange: HttpExchange = {
    method: request.method,
    // A Request made by hand carries no Host header: the host it was made for is its URL's.
    header: (name) => request.headers.get(name) ?? (name === 'host' ? new URL(request.url).host : undefined),
    address,
    hangUp: request.signal,
    body: (max) => readBody(request, max),
    reply: (status, headers, body) => {
      answer(new Response(body ?? null, { status, headers }));
      close();
    },
    open: (headers): ResponseSink => {
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c), cancel: close }, new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }));
      answer(new Response(stream, { status: 200, headers }));
      return {
        write: (text) => void (closed || controller.enqueue(utf8.encode(text))),
        end: (text) => {
          if (closed) return;
          if (text !== undefined) controller.enqueue(utf8.encode(text));
          controller.close();
          close();
        },
      };
    },
    onClose: (listener) => void (closed ? listener() : listeners.push(listener)),
  };
  return { exchange, response };
}

/** The body as text, or undefined once it passes `max` bytes (the rest is not read). */
async function readBody(request: Request, max: number): Promise<string | undefined> {
  if (Number(request.headers.get('content-length') ?? 0) > max) {
    await request.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) whole.set(chunk, (at += chunk.byteLength) - chunk.byteLength);
  return new TextDecoder().decode(whole);
}
