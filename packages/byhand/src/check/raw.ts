// The wire with nothing in between: one JSON-RPC message out, the reply back as it came, so a check can send what no
// well-behaved client sends (a header that disagrees with the body, answers inside _meta, a tampered requestState).
// Over HTTP each message is one POST (a JSON body or an SSE stream); over stdio one child process is kept, and every
// stdout line that is not JSON-RPC is kept for the stdio hygiene check.

import { spawn } from 'node:child_process';
import type { Target } from '@byhand/client';

export interface RawReply {
  /** HTTP status; undefined over stdio. */
  status?: number;
  headers?: Headers;
  /** The JSON-RPC response to the message, when one came. */
  message?: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
  /** The body as text (HTTP), for evidence when it is not JSON-RPC. */
  text?: string;
  ms: number;
}

export interface RawWire {
  kind: 'http' | 'stdio';
  send(message: Record<string, unknown>, headers?: Record<string, string>): Promise<RawReply>;
  /** Ends an HTTP session a legacy initialize opened. */
  forget(sessionId: string): Promise<void>;
  /** stdout lines that were not JSON-RPC (stdio). */
  strays: string[];
  /** What the server wrote to stderr (stdio), capped. */
  stderr(): string;
  close(): Promise<void>;
}

export interface RawOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

let nextId = 1;
export const rawId = () => `check-${nextId++}`;

export function openRaw(target: Target, options: RawOptions): RawWire {
  if (typeof target === 'string' || target instanceof URL || 'url' in target) return httpWire(target, options);
  return stdioWire(target, options);
}

function httpWire(target: string | URL | { url: string; headers?: Record<string, string> }, options: RawOptions): RawWire {
  const url = typeof target === 'string' ? target : target instanceof URL ? target.href : target.url;
  // Only the headers the user gave this server: a check never brings a credential of its own.
  const given = typeof target === 'object' && !(target instanceof URL) ? (target.headers ?? {}) : {};
  const signal = () => (options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]) : AbortSignal.timeout(options.timeoutMs));
  return {
    kind: 'http',
    strays: [],
    stderr: () => '',
    async send(message, headers = {}) {
      const started = performance.now();
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...given, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(message),
        signal: signal(),
        redirect: 'manual',
      });
      const text = await response.text();
      const reply = replyIn(text, response.headers.get('content-type') ?? '', message.id);
      return { status: response.status, headers: response.headers, ...(reply ? { message: reply } : {}), text, ms: Math.round(performance.now() - started) };
    },
    async forget(sessionId) {
      await fetch(url, { method: 'DELETE', headers: { ...given, 'mcp-session-id': sessionId }, signal: signal() }).then((r) => r.body?.cancel(), () => undefined);
    },
    close: async () => undefined,
  };
}

/** The response to `id` in a JSON body or an SSE stream. */
function replyIn(text: string, type: string, id: unknown): RawReply['message'] {
  const candidates: unknown[] = [];
  if (type.includes('text/event-stream')) {
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, '')).join('\n');
      if (data) candidates.push(parse(data));
    }
  } else {
    const body = parse(text);
    candidates.push(...(Array.isArray(body) ? (body as unknown[]) : [body]));
  }
  return candidates.find((c): c is NonNullable<RawReply['message']> => isObject(c) && c.id === id && ('result' in c || 'error' in c));
}

function stdioWire(target: { command: string; args?: string[]; env?: Record<string, string>; cwd?: string }, options: RawOptions): RawWire {
  const child = spawn(target.command, target.args ?? [], { env: { ...process.env, ...target.env }, ...(target.cwd !== undefined ? { cwd: target.cwd } : {}), stdio: ['pipe', 'pipe', 'pipe'] });
  const strays: string[] = [];
  const waiting = new Map<unknown, (message: NonNullable<RawReply['message']>) => void>();
  let stderr = '';
  let buffered = '';
  let exited: string | undefined;
  const failures = new Set<(reason: Error) => void>();
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < 16_384) stderr += chunk;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let at: number;
    while ((at = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, at).replace(/\r$/, '');
      buffered = buffered.slice(at + 1);
      if (line.trim() === '') continue;
      const message = parse(line);
      if (!isObject(message) || message.jsonrpc !== '2.0') {
        if (strays.length < 20) strays.push(line.slice(0, 300));
        continue;
      }
      if ('id' in message && ('result' in message || 'error' in message)) waiting.get(message.id)?.(message);
      // A request from the server (a legacy ping or push) gets a refusal, so it does not wait on us.
      else if ('id' in message && typeof message.method === 'string') write({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'byhand check does not answer server requests here' } });
    }
  });
  const gone = (why: string) => {
    exited = why;
    for (const fail of failures) fail(new Error(why));
  };
  child.on('exit', (code, signal) => gone(`the server exited (${signal ?? `code ${code}`})`));
  child.on('error', (error) => gone(`the server could not start: ${error.message}`));
  child.stdin.on('error', () => undefined);
  const write = (message: unknown) => void child.stdin.write(`${JSON.stringify(message)}\n`);
  return {
    kind: 'stdio',
    strays,
    stderr: () => stderr,
    send(message) {
      const started = performance.now();
      if (exited !== undefined) return Promise.reject(new Error(exited));
      return new Promise<RawReply>((resolve, reject) => {
        const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]) : AbortSignal.timeout(options.timeoutMs);
        const done = () => {
          waiting.delete(message.id);
          failures.delete(reject);
          signal.removeEventListener('abort', onAbort);
        };
        const onAbort = () => (done(), reject(new Error(`no answer to ${String(message.method)} within ${options.timeoutMs} ms`)));
        signal.addEventListener('abort', onAbort);
        failures.add(reject);
        waiting.set(message.id, (reply) => (done(), resolve({ message: reply, ms: Math.round(performance.now() - started) })));
        write(message);
      });
    },
    forget: async () => undefined,
    async close() {
      if (exited !== undefined) return;
      const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGTERM'), 2000);
      await ended;
      clearTimeout(timer);
    },
  };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
