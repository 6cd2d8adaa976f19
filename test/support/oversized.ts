// An oversized POST as a client that checks its upload meets it (undici does): the whole body written on one
// keep-alive connection, then a second request on it. A server that stops reading leaves the upload stuck until its
// request deadline, one that closes resets it; either way the client may never read its 413.

import { connect as tcpConnect } from 'node:net';

/** Bigger than what loopback socket buffers take in without the server reading. */
export const OVERSIZED_BYTES = 16 * 1024 * 1024;

/**
 * The oversized body to `path` (its length declared, or chunked), then `next` (a JSON body, with `headers`, and
 * Connection: close). Everything the server wrote, and the socket's error if writing failed.
 */
export async function oversizedThenNext(port: number, path: string, framing: 'declared' | 'chunked', headers: Record<string, string>, next: string): Promise<{ answer: string; writeError?: string }> {
  const socket = tcpConnect({ port, host: '127.0.0.1' });
  let answer = '';
  let writeError: string | undefined;
  socket.on('data', (chunk) => (answer += chunk.toString()));
  socket.on('error', (error: NodeJS.ErrnoException) => (writeError ??= error.code ?? error.message));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const write = (bytes: string | Buffer) => new Promise<void>((resolve) => socket.write(bytes, () => resolve()));
  let timer: NodeJS.Timeout | undefined;
  try {
    const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n`;
    const body = Buffer.alloc(OVERSIZED_BYTES, 'x');
    if (framing === 'declared') await write(`${head}Content-Length: ${OVERSIZED_BYTES}\r\n\r\n`).then(() => write(body));
    else await write(`${head}Transfer-Encoding: chunked\r\n\r\n${OVERSIZED_BYTES.toString(16)}\r\n`).then(() => write(body)).then(() => write('\r\n0\r\n\r\n'));
    const more = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    await write(`${head}${more}Content-Length: ${Buffer.byteLength(next)}\r\nConnection: close\r\n\r\n${next}`);
    await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
    return { answer, ...(writeError !== undefined ? { writeError } : {}) };
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}

/** The HTTP statuses in what a server wrote, in order (an answer follows the body before it with no line break). */
export const statusesIn = (answer: string) => [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
