// The HTTP face on node:http: an IncomingMessage and its ServerResponse as the face's exchange (exchange.ts), with no
// web Request or Response built in between: a bridge adds a hop to every call, and building those objects for it
// cost about as much as the rest of the hop.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { dropRestOfBody } from '@byhand/servers/listen';
import type { HttpExchange, ResponseSink } from './exchange.js';

export function nodeExchange(req: IncomingMessage, res: ServerResponse): HttpExchange {
  return {
    method: req.method ?? '',
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    address: addressOf(req.socket.remoteAddress),
    body: (max) => readBody(req, max),
    reply: (status, headers, body) => {
      if (body === undefined) return void res.writeHead(status, headers).end();
      res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) }).end(body);
    },
    open: (headers): ResponseSink => {
      res.writeHead(200, headers);
      res.flushHeaders();
      return { write: (text) => void res.write(text), end: (text) => void (text === undefined ? res.end() : res.end(text)) };
    },
    onClose: (listener) => void res.once('close', listener),
  };
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
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}
