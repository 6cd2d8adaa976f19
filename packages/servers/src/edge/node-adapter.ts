// The only Node-specific piece of the toolboxes: node:http on one side, web-standard Request/Response on the other.
// Everything behind it is a plain `(req: Request) => Promise<Response>` that runs unchanged on a serverless platform.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { rememberClientAddress } from './client-address.js';
import { rememberReadBody } from './request-body.js';

export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Thrown for a request the web Request/URL constructors refuse (a forbidden method such as TRACE, a bad target), or
 * one whose Host is ambiguous: node keeps the first of two Host headers, and a proxy in front may have used the other.
 */
export class UnconvertibleRequestError extends Error {
  override name = 'UnconvertibleRequestError';
}

/** The most of an unwanted body that is read and dropped; past it the connection is destroyed. */
const DROP_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Reads the rest of a body the handler no longer wants and drops it. A client that is still sending when its answer
 * (a 413) comes reads that answer only if its upload is not stuck or reset: a server that stops reading leaves it
 * stuck until the request deadline, one that closes resets it. The server's request deadline bounds the time spent.
 */
export function dropRestOfBody(req: IncomingMessage, limit = DROP_LIMIT_BYTES): void {
  if (req.complete) return;
  req.removeAllListeners('data');
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > limit) req.socket.destroy();
  });
  req.resume();
}

/**
 * The request body as a web stream. Not `Readable.toWeb`: its cancel destroys the socket, and a handler that stops
 * reading early (a 413) would then lose its own answer to a reset. Here a cancel drops the rest of the body.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once('end', () => controller.close());
      req.once('error', (error) => controller.error(error));
      req.once('aborted', () => controller.error(new Error('the client aborted the request')));
    },
    pull() {
      req.resume();
    },
    cancel() {
      dropRestOfBody(req);
    },
  });
}

/** A target that starts with one slash and holds only characters a URL path or query keeps as they are. */
const PLAIN_PATH = /^\/(?![/\\])[\w\-.~!$&'()*+,;=:@%/?]*$/;

/**
 * Why a request cannot be served as it came, or undefined: two Host headers (node keeps the first, and a proxy in
 * front may have used the other), or a target that names another origin (this server is no proxy).
 */
export function requestProblem(req: IncomingMessage, origin: string): string | undefined {
  let hosts = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts++;
  if (hosts > 1) return 'more than one Host header';
  // A path that is only a path is on this origin whatever it holds: parsing it as a URL is for the rest (`//host`,
  // `/\host`, an absolute URL, characters the parser would drop or rewrite), on every request otherwise.
  if (req.url !== undefined && PLAIN_PATH.test(req.url)) return undefined;
  let url: URL;
  try {
    url = new URL(req.url ?? '/', origin);
  } catch {
    return `the target ${req.url ?? ''} is not a URL`;
  }
  return url.origin === origin ? undefined : `the target ${req.url ?? ''} names another origin`;
}

/**
 * A web Request from a node request, its body read whole first when it declares a length of at most `bufferBytes`
 * (as the SDK's own node adapter reads it): a web stream over the socket costs more per request than the body itself.
 * A larger body, or one of no declared length, is streamed, so a size cap downstream still stops it as it arrives.
 */
export async function toBufferedWebRequest(req: IncomingMessage, res: ServerResponse, origin: string, bufferBytes: number): Promise<Request> {
  const declared = Number(req.headers['content-length']);
  if (!(declared > 0 && declared <= bufferBytes) || req.method === 'GET' || req.method === 'HEAD') return toWebRequest(req, res, origin);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of req) chunks.push(chunk as Buffer);
  } catch (error) {
    throw new UnconvertibleRequestError(`${req.method ?? ''} ${req.url ?? ''}: the body did not arrive (${(error as Error).message})`);
  }
  const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  const request = toWebRequest(req, res, origin, body);
  rememberReadBody(request, { text: body.toString('utf8'), bytes: body.byteLength });
  return request;
}

/** Builds a web Request from a node request. The body is streamed, so size caps downstream still see it arrive; `body`: read already. */
export function toWebRequest(req: IncomingMessage, res: ServerResponse, origin: string, body?: Buffer): Request {
  const headers = new Headers();
  const method = (req.method ?? 'GET').toUpperCase();
  const problem = requestProblem(req, origin);
  if (problem !== undefined) throw new UnconvertibleRequestError(`${method} ${req.url ?? ''}: ${problem}`);
  try {
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else headers.set(name, value);
    }
    const url = new URL(req.url ?? '/', origin);
    const controller = new AbortController();
    // 'close' on the response (not the request or a kept-alive socket) is what fires when the client hangs up mid-stream.
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: controller.signal };
    // A Buffer is a Uint8Array over a plain ArrayBuffer, which the DOM typings ask for by name.
    if (body !== undefined) init.body = body as Uint8Array<ArrayBuffer>;
    else if (method !== 'GET' && method !== 'HEAD') {
      init.body = bodyStream(req);
      init.duplex = 'half';
      // A handler that answered without reading the body (a declared length over the cap) leaves it paused.
      res.once('finish', () => dropRestOfBody(req));
    }
    const request = new Request(url, init);
    rememberClientAddress(request, req.socket.remoteAddress);
    return request;
  } catch (error) {
    throw new UnconvertibleRequestError(`${method} ${req.url ?? ''}: ${(error as Error).message}`);
  }
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
