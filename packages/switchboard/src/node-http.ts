// The HTTP face on node:http: an IncomingMessage and its ServerResponse as the face's exchange (exchange.ts), with no
// web Request or Response built in between: a bridge adds a hop to every call, and building those objects for it
// cost about as much as the rest of the hop. One object per request, its methods on the prototype.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { dropRestOfBody } from '@byhand/servers/listen';
import type { HttpExchange, ResponseSink } from './exchange.js';

class NodeExchange implements HttpExchange {
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {}

  get method(): string {
    return this.req.method ?? '';
  }

  get address(): string {
    return addressOf(this.req.socket.remoteAddress);
  }

  get hangUp(): AbortSignal {
    return hangUpOf(this.req.socket);
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  body(max: number): Promise<string | undefined> {
    return readBody(this.req, max);
  }

  reply(status: number, headers: Record<string, string>, body?: string): void {
    if (body === undefined) return void this.res.writeHead(status, headers).end();
    headers['content-length'] = String(Buffer.byteLength(body));
    this.res.writeHead(status, headers).end(body);
  }

  open(headers: Record<string, string>): ResponseSink {
    const res = this.res;
    res.writeHead(200, headers);
    res.flushHeaders();
    return { write: (text) => void res.write(text), end: (text) => void (text === undefined ? res.end() : res.end(text)) };
  }

  onClose(listener: () => void): void {
    this.res.once('close', listener);
  }
}

export function nodeExchange(req: IncomingMessage, res: ServerResponse): HttpExchange {
  return new NodeExchange(req, res);
}

const hangUps = new WeakMap<Socket, AbortSignal>();

/**
 * Aborted when the caller's connection closes. One per connection, not per request: a keep-alive connection carries
 * one request at a time, and what listens to it stops listening once its request is answered.
 */
function hangUpOf(socket: Socket): AbortSignal {
  let signal = hangUps.get(socket);
  if (signal === undefined) {
    const controller = new AbortController();
    socket.once('close', () => controller.abort());
    signal = controller.signal;
    hangUps.set(socket, signal);
  }
  return signal;
}

/** A client's address, an IPv6 one by its /64 (as serve counts them): one machine is one host. */
function addressOf(address = ''): string {
  if (!address.includes(':') || address.startsWith('::ffff:')) return address;
  return address.split(':').slice(0, 4).join(':');
}

/** The body as text, or undefined once it passes `max` bytes: the rest is then read and dropped (dropRestOfBody). */
async function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > max) return void dropRestOfBody(req);
  return new Promise<string | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= max) return void chunks.push(chunk);
      dropRestOfBody(req);
      resolve(undefined);
    });
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}
