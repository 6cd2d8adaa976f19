// The only Node-specific piece of the toolboxes: node:http on one side, web-standard Request/Response on the other.
// Everything behind it is a plain `(req: Request) => Promise<Response>` that runs unchanged on a serverless platform.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

export type FetchHandler = (request: Request) => Promise<Response>;

/** Builds a web Request from a node request. The body is streamed, so size caps downstream still see it arrive. */
export function toWebRequest(req: IncomingMessage, res: ServerResponse, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const controller = new AbortController();
  // 'close' on the response (not the request or a kept-alive socket) is what fires when the client hangs up mid-stream.
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: controller.signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(new URL(req.url ?? '/', origin), init);
}

/** Writes a web Response to a node response, streaming SSE bodies frame by frame. */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.once('close', () => {
    reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve));
    }
  } catch {
    // The client went away or the stream was cancelled; nothing left to tell anyone.
  } finally {
    res.end();
  }
}
