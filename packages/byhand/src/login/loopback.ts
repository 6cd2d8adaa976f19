// The loopback redirect listener (RFC 8252 §7.3): 127.0.0.1 on a port the system picks, one path,
// and only a redirect carrying this login's state is taken; the page it shows names no code.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Loopback {
  readonly redirectUri: string;
  /** The first redirect to the callback path whose state is `state`. */
  wait(state: string | null, signal: AbortSignal): Promise<URL>;
  close(): Promise<void>;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:system-ui;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

export async function startLoopback(path = '/callback'): Promise<Loopback> {
  const waiters = new Set<{ state: string | null; resolve: (url: URL) => void }>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    if (request.method !== 'GET' || url.pathname !== path) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    const state = url.searchParams.get('state');
    const waiter = [...waiters].find((w) => w.state === null || w.state === state);
    if (!waiter) {
      response.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(PAGE('Not this login', 'This redirect does not belong to the login byhand is waiting for. Start the login again from the terminal.'));
      return;
    }
    waiters.delete(waiter);
    const failed = url.searchParams.has('error');
    response
      .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' })
      .end(failed ? PAGE('Login not completed', 'The authorization server did not grant access. The terminal says more.') : PAGE('Logged in', 'byhand received the authorization. You can close this tab.'));
    waiter.resolve(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://127.0.0.1:${port}${path}`,
    wait: (state, signal) =>
      new Promise<URL>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const waiter = {
          state,
          resolve: (url: URL) => {
            signal.removeEventListener('abort', onAbort);
            resolve(url);
          },
        };
        const onAbort = () => {
          waiters.delete(waiter);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiters.add(waiter);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
