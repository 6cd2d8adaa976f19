// The default requester on Node: node:http/node:https with a keep-alive agent per client. On Node the
// platform's fetch (undici) costs about twice a raw keep-alive request per call (bench/results.md), so
// here, and only here, byhand goes below fetch. Same contract as fetchRequester: no redirects
// followed, the body streamed, abort through the deadline. Per request it spends about what a raw
// node:http call does (bench/results.md): the URL is parsed once, abort is one listener on the deadline (no AbortSignal,
// whose wiring into node:http costs more than the rest of the request), the body is read from 'data'
// events, the response paused while more than a bound waits unread (so memory stays bounded).

import { Agent as HttpAgent, request as httpRequest, type AgentOptions, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { ByteStream } from '../bytes.js';
import type { Requester, WireRequest, WireResponse } from './wire.js';

type Send = (options: RequestOptions, onResponse: (res: IncomingMessage) => void) => ClientRequest;

// An idle kept-alive connection is dropped before the server drops it, as undici does: after the
// server's Keep-Alive hint less a second, else after 4 s. Sending on a connection the server is closing
// that moment fails the request. Idle time is stamped when a socket is freed and swept by one timer per
// agent, rather than the agent's `timeout` option: that arms a timer on every socket and refreshes it on
// every read and write, a price paid per request by many callers at once. Sockets in use are never swept,
// so a slow answer or a quiet stream is not cut.
const IDLE_MS = 4000;
const SWEEP_MS = 500;
const FREED_AT = Symbol('freed at');
const IDLE_LIMIT = Symbol('idle limit');

type IdleSocket = Socket & { [FREED_AT]?: number; [IDLE_LIMIT]?: number };

/** The requester's clock: tests move it and run the sweep themselves instead of sleeping. */
export interface IdleClock {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called; must not hold the process open. */
  every(ms: number, tick: () => void): () => void;
}

const realClock: IdleClock = {
  now: () => performance.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** A keep-alive agent whose idle sockets are stamped when freed and swept past their limit. */
function idleAgent<A extends HttpAgent>(Agent: new (options: AgentOptions) => A, clock: IdleClock): { agent: A; stop: () => void } {
  const agent = new Agent({ keepAlive: true });
  const keep = agent.keepSocketAlive.bind(agent);
  // Node's own keepSocketAlive answers whether the socket may be kept (its typings say void).
  agent.keepSocketAlive = (socket: IdleSocket) => {
    const kept = keep(socket) as unknown as boolean | undefined;
    if (kept !== false) socket[FREED_AT] = clock.now();
    return kept;
  };
  const stop = clock.every(SWEEP_MS, () => {
    const now = clock.now();
    for (const sockets of Object.values(agent.freeSockets)) {
      for (const socket of (sockets ?? []) as IdleSocket[]) {
        if (now - (socket[FREED_AT] ?? now) >= (socket[IDLE_LIMIT] ?? IDLE_MS)) socket.destroy();
      }
    }
  });
  return { agent, stop };
}

/** The server's Keep-Alive hint (`timeout=N` seconds), less a second, kept on the socket for the sweep: read on its first answer. */
function noteKeepAlive(res: IncomingMessage): void {
  const socket = res.socket as IdleSocket | null;
  if (!socket || socket[IDLE_LIMIT] !== undefined) return;
  const hint = rawHeader(res.rawHeaders, 'keep-alive');
  const seconds = hint === null ? undefined : /^timeout=(\d+)/.exec(hint)?.[1];
  socket[IDLE_LIMIT] = seconds === undefined ? IDLE_MS : Math.max(0, Number(seconds) * 1000 - 1000);
}

/**
 * One header from the raw list, repeats joined as fetch's Headers joins them. Not `res.headers`: node:http builds that
 * object on its first read, every header lower-cased and sorted into place, a cost per request that one lookup need not pay.
 */
function rawHeader(raw: string[], lowerName: string): string | null {
  let value: string | null = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i].length === lowerName.length && raw[i].toLowerCase() === lowerName) value = value === null ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
  }
  return value;
}

export function nodeRequester(clock: IdleClock = realClock): Requester {
  const http = idleAgent(HttpAgent, clock);
  // node:https (and TLS with it) loads on the first https request: a cold start to an http server
  // does not pay for it.
  let https: Promise<{ send: Send; agent: HttpAgent; stop: () => void }> | undefined;
  const loadHttps = () => (https ??= import('node:https').then(({ request, Agent }) => ({ send: request, ...idleAgent(Agent, clock) })));
  let parsed: { url: string; secure: boolean; options: RequestOptions } | undefined;
  const target = (url: string) => {
    if (parsed?.url === url) return parsed;
    const { protocol, hostname, port, pathname, search } = new URL(url);
    // An IPv6 literal comes bracketed from URL; node:http wants it bare.
    const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    const secure = protocol === 'https:';
    parsed = { url, secure, options: { protocol, hostname: host, port, path: pathname + search, agent: secure ? undefined : http.agent } };
    return parsed;
  };
  const requester: Requester = (request) => {
    const { secure, options } = target(request.url);
    if (!secure) return exchangeOnce(httpRequest, options, request);
    return loadHttps().then((tls) => exchangeOnce(tls.send, { ...options, agent: tls.agent }, request));
  };
  requester.close = () => {
    http.stop();
    http.agent.destroy();
    void https?.then((tls) => {
      tls.stop();
      tls.agent.destroy();
    });
  };
  return requester;
}

/**
 * One exchange. `options` is the target's, kept between requests: its method and headers are set for this one and read
 * by node:http before `send` returns (ClientRequest reads its options in its constructor, and the agent is handed a
 * copy), so the next request may set its own. A copy per request would be one more object node:http copies again.
 */
function exchangeOnce(send: Send, options: RequestOptions, { method, headers, body, abort }: WireRequest): Promise<WireResponse> {
  return new Promise<WireResponse>((resolve, reject) => {
    if (abort.aborted) return reject(new Error('aborted before it was sent'));
    options.method = method;
    options.headers = headers;
    // No content-length of ours: node:http counts a body given whole to end() and sends it, where it would otherwise chunk.
    const req = send(options, (res) => {
      noteKeepAlive(res);
      resolve(wrap(res, release));
    });
    const release = abort.onAbort(() => req.destroy(new Error('aborted')));
    req.on('error', (error) => {
      release();
      reject(error);
    });
    req.end(body);
  });
}

function wrap(res: IncomingMessage, release: () => void): WireResponse {
  let headers: Headers | undefined;
  return {
    status: res.statusCode ?? 0,
    header: (name) => rawHeader(res.rawHeaders, name.toLowerCase()),
    headers() {
      if (headers) return headers;
      headers = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
      return headers;
    },
    body: bodyOf(res, release),
  };
}

// What may wait unread before the response is paused. Pausing and resuming a socket for every answer, even one
// that arrives in one chunk, changes what the event loop polls for twice per request: a price paid per request
// by many callers at once. Past this, the response waits paused, so memory stays bounded by it and one chunk.
const HOLD_BYTES = 64 * 1024;

/** The body of a response as a ByteStream (exported for its test). */
export function bodyOf(res: IncomingMessage, release: () => void): ByteStream {
  const queue: Buffer[] = [];
  let queued = 0;
  let paused = false;
  let ended = false;
  let failed: Error | undefined;
  let waiting: { resolve: (chunk: Buffer | undefined) => void; reject: (error: Error) => void } | undefined;
  const settle = (error?: Error) => {
    if (ended || failed) return;
    if (error) failed = error;
    else ended = true;
    release();
    const waiter = waiting;
    waiting = undefined;
    if (error) waiter?.reject(error);
    else waiter?.resolve(undefined);
  };
  res.on('data', (chunk: Buffer) => {
    if (waiting) {
      const waiter = waiting;
      waiting = undefined;
      waiter.resolve(chunk);
    } else {
      queue.push(chunk);
      queued += chunk.length;
      if (queued > HOLD_BYTES && !paused) {
        paused = true;
        res.pause();
      }
    }
  });
  res.on('end', () => settle());
  res.on('error', (error) => settle(error));
  res.on('close', () => {
    // After 'end' this is the normal close; an Error (and its stack) only when it came first.
    if (!ended && !failed) settle(new Error('the connection closed before the body ended'));
  });
  return {
    read() {
      if (queue.length > 0) {
        const chunk = queue.shift()!;
        queued -= chunk.length;
        if (paused && queued <= HOLD_BYTES && !ended) {
          paused = false;
          res.resume();
        }
        return Promise.resolve(chunk);
      }
      if (failed) return Promise.reject(failed);
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve, reject) => (waiting = { resolve, reject }));
    },
    async cancel() {
      if (ended || failed) return;
      queue.length = 0;
      queued = 0;
      settle();
      res.destroy();
    },
  };
}

export const defaultRequester = nodeRequester;
export const defaultTransport = 'node' as const;
