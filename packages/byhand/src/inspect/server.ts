// The backend of `byhand inspect`: two loopback listeners (@byhand/servers' listenNode, its bounds). The page's origin
// serves the page (with the token in its query), its script and style, and the API (the token in a header on every
// call); the sandbox's origin, a port of its own, serves only the proxy an MCP App's view is framed through. On both,
// Host must name the listener itself (127.0.0.1 or localhost, with its port) and an Origin, when sent, must be the
// page's: a page elsewhere, or one that rebinds a name of its own to 127.0.0.1, is refused before anything else.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Listening } from '@byhand/servers/listen';
import type { EventLog, InspectEvent } from './events.js';
import { pageHtml, pageAsset } from './page.js';
import { sandboxHtml } from './sandbox.js';

export const TOKEN_HEADER = 'x-byhand-token';
const MAX_BODY_BYTES = 1024 * 1024;
/** An event stream whose page stopped reading is closed past this; the page reads the kept log when it reconnects. */
const MAX_STREAM_BACKLOG = 4 * 1024 * 1024;

/** An API route: the parsed JSON body (POST) or the query (GET) in, a JSON value out; an ApiError is its status. */
export type Route = (input: Record<string, unknown>) => Promise<unknown>;

export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly hint?: string) {
    super(message);
  }
}

export interface InspectServer {
  /** The page's URL with its token: what the user opens. */
  url: string;
  origin: string;
  sandboxOrigin: string;
  token: string;
  close(): Promise<void>;
}

export interface InspectServerOptions {
  port?: number;
  log: EventLog;
  routes: Record<string, Route>;
  /** A token of the caller's (tests); else 32 random bytes, new at each launch. */
  token?: string;
  onerror?: (error: Error) => void;
}

export async function startInspectServer(options: InspectServerOptions): Promise<InspectServer> {
  const { listenNode } = await import('@byhand/servers/listen');
  const token = options.token ?? randomBytes(32).toString('hex');
  const wanted = Buffer.from(token);
  const tokenOk = (given: string | null | undefined) => typeof given === 'string' && given.length === token.length && timingSafeEqual(Buffer.from(given), wanted);
  let pageOrigins: string[] = [];
  let sandboxOrigin = '';
  let sandboxNames: string[] = [];

  const sandbox: Listening = await listenNode(async (req, res, path) => {
    const refused = hostProblem(req, sandboxNames, pageOrigins);
    if (refused !== undefined) return text(res, 403, refused);
    if (req.method !== 'GET' || path !== '/sandbox') return text(res, 404, 'byhand inspect: the sandbox serves /sandbox only');
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // Framed by the page only; the view inside gets its own policy from the host (csp.ts), in its srcdoc.
      'content-security-policy': `frame-ancestors ${pageOrigins.join(' ')}`,
      'referrer-policy': 'no-referrer',
    });
    res.end(sandboxHtml(pageOrigins));
  }, { host: '127.0.0.1', port: 0, ...(options.onerror ? { onerror: options.onerror } : {}) });

  let page: Listening;
  try {
    page = await listenNode(async (req, res, path) => {
      const refused = hostProblem(req, pageNames(page.port), pageOrigins);
      if (refused !== undefined) return text(res, 403, refused);
      if (path === '' && req.method === 'GET') {
        const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
        if (!tokenOk(query.get('token'))) return text(res, 401, 'byhand inspect: open the URL byhand inspect printed; it carries the token this page needs');
        res.writeHead(200, { ...PAGE_HEADERS, 'content-security-policy': pagePolicy(sandboxOrigin) });
        return void res.end(pageHtml({ token, sandboxOrigin }));
      }
      if (path.startsWith('/page/') && req.method === 'GET') return serveAsset(res, path.slice('/page/'.length));
      if (!path.startsWith('/api/')) return text(res, 404, `byhand inspect: nothing at ${path}`);
      if (!tokenOk(header(req, TOKEN_HEADER))) return json(res, 401, { error: { message: `this API needs the ${TOKEN_HEADER} header the page sends`, hint: 'open the URL byhand inspect printed' } });
      if (path === '/api/events' && req.method === 'GET') return streamEvents(req, res, options.log);
      const route = options.routes[path.slice('/api/'.length)];
      if (route === undefined) return json(res, 404, { error: { message: `no API ${path}` } });
      let input: Record<string, unknown>;
      try {
        input = req.method === 'POST' ? await readJson(req) : Object.fromEntries(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
      } catch (error) {
        return json(res, 400, { error: { message: (error as Error).message } });
      }
      try {
        json(res, 200, (await route(input)) ?? {});
      } catch (error) {
        const status = error instanceof ApiError ? error.status : 502;
        const { message, hint } = error as { message?: string; hint?: string };
        json(res, status, { error: { message: message ?? String(error), ...(hint ? { hint } : {}) } });
      }
    }, { host: '127.0.0.1', port: options.port ?? 0, ...(options.onerror ? { onerror: options.onerror } : {}) });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  pageOrigins = [`http://127.0.0.1:${page.port}`, `http://localhost:${page.port}`];
  sandboxOrigin = `http://127.0.0.1:${sandbox.port}`;
  sandboxNames = [`127.0.0.1:${sandbox.port}`, `localhost:${sandbox.port}`];
  return {
    url: `http://127.0.0.1:${page.port}/?token=${token}`,
    origin: pageOrigins[0],
    sandboxOrigin,
    token,
    close: async () => {
      await Promise.all([page.close(), sandbox.close()]);
    },
  };
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // The token is in the page's URL: no Referer carries it anywhere.
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** The page loads its own script and style and nothing else; it frames only the sandbox's origin. */
function pagePolicy(sandboxOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "media-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${sandboxOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function pageNames(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** Why the request is refused (DNS rebinding, another site), or undefined: Host is this listener, Origin the page. */
function hostProblem(req: IncomingMessage, names: readonly string[], origins: readonly string[]): string | undefined {
  const host = header(req, 'host');
  if (host === undefined || !names.includes(host.toLowerCase())) return `byhand inspect: refused, Host ${JSON.stringify(host ?? '')} is not this server (${names.join(' or ')})`;
  const origin = header(req, 'origin');
  if (origin !== undefined && !origins.includes(origin.toLowerCase())) return `byhand inspect: refused, Origin ${JSON.stringify(origin)} is not the page's`;
  return undefined;
}

async function serveAsset(res: ServerResponse, name: string): Promise<void> {
  const asset = await pageAsset(name);
  if (asset === undefined) return text(res, 404, `byhand inspect: no page asset ${name}`);
  res.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
  res.end(asset.body);
}

function streamEvents(req: IncomingMessage, res: ServerResponse, log: EventLog): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  const send = (event: InspectEvent | Record<string, unknown>) => {
    if (res.writableLength > MAX_STREAM_BACKLOG) return void res.destroy();
    res.write(`data: ${JSON.stringify(event)}\n\n`);
  };
  const { events, dropped } = log.snapshot();
  send({ type: 'hello', dropped, events });
  const unlisten = log.listen(send);
  req.socket.setTimeout(0);
  res.on('close', unlisten);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error(`the request body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks).toString('utf8');
  if (body.trim() === '') return {};
  const parsed: unknown = JSON.parse(body);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('the request body is not a JSON object');
  return parsed as Record<string, unknown>;
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(JSON.stringify(value));
}

function text(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`${message}\n`);
}
