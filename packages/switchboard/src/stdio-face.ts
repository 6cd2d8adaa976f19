// The stdio face: what a desktop host launches. Newline-delimited JSON-RPC on stdin and stdout (stdout carries
// nothing else), one host per process. The host's first request says its era: `initialize` is a 2025 host, an
// enveloped request or `server/discover` a 2026 one. When stdin ends it answers what is in flight (a held
// subscription ends), then closes the server; interrupted, it gives up what is in flight at once.

import { DEFAULT_LIMITS, type Host, type JsonObject, type JsonRpcMessage } from '@byhand/client';
import { createHostWriter, type Writable } from './host-writer.js';
import { JsonRpcPeer } from './json-rpc-peer.js';
import { alsoWhenGone, LegacyFace, type OpenBack } from './legacy-face.js';
import { ModernBacks } from './modern-backs.js';
import { isModernRequest, ModernFace } from './modern-face.js';
import type { MadeTasksOptions } from './made-tasks.js';
import type { PendingCalls } from './pending-calls.js';

/** The host's end of a pipe: what it writes (stdin), what the bridge writes to it (stdout), and when to stop. */
export interface StdioIO {
  stdin: Pick<NodeJS.ReadableStream, 'on' | 'once' | 'off' | 'pause'>;
  stdout: Writable;
  /** Aborted to give up what is in flight and stop at once (a signal to the process). */
  interrupt?: AbortSignal;
}

export interface Backs {
  open: OpenBack;
  /** The bridge's own answers (`--sampling`, `--answers`) for what a 2025 host did not declare. */
  own: Host;
  /** Where a 2026 host's calls wait for its answers. */
  pending: PendingCalls;
  /** What a host cannot be told, for stderr. */
  warn: (text: string) => void;
  /** Backs open at once per group of callers in front of a legacy server (modern-backs.ts). */
  backsPerGroup?: number;
  /** The bounds on the tasks the bridge makes (made-tasks.ts). */
  tasks?: MadeTasksOptions;
}

/**
 * Serves the host on stdin and stdout until stdin ends or the command is interrupted, or until a server the bridge
 * started exits on its own: the bridge then ends with it, so the host sees its server stop, as it would without the
 * bridge, and can start it again. Resolves with why the server is gone, if it is.
 */
export async function serveStdio(io: StdioIO, backs: Backs): Promise<string | undefined> {
  const serverGone = new AbortController();
  const open = alsoWhenGone(backs.open, (reason) => serverGone.abort(reason));
  const write = createHostWriter(io.stdout, backs.warn);
  let face: LegacyFace | ModernFace | undefined;
  let modernBacks: ModernBacks | undefined;
  const link = { ask: (method: string, params: JsonObject, signal: AbortSignal) => peer.ask(method, params, signal), notify: (method: string, params?: JsonObject) => peer.notify(method, params) };
  const peer: JsonRpcPeer = new JsonRpcPeer(write, async (request, signal): Promise<JsonObject> => {
    // A ping says nothing of the host's era.
    if (face === undefined && request.method === 'ping') return {};
    if (face === undefined && isModernRequest(request)) {
      const opened: ModernBacks = (modernBacks = new ModernBacks(open, backs.pending, (n, from) => modern.relay(n, from), { warn: backs.warn, ...(backs.backsPerGroup !== undefined ? { maxPerGroup: backs.backsPerGroup } : {}) }));
      const modern = new ModernFace(opened, backs.pending, { tasks: backs.tasks });
      face = modern;
    }
    face ??= new LegacyFace(link, open, backs.own, backs.warn);
    // One host per process: its calls are bounded together.
    return face.handle(request, signal, (n) => peer.notify(n.method, n.params), 'stdio');
  });
  try {
    await readLines(io, write, io.interrupt === undefined ? serverGone.signal : AbortSignal.any([io.interrupt, serverGone.signal]), (line) => {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        return write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: a line on stdin is not JSON' } });
      }
      peer.receive(message);
    });
    // What was in flight is answered (what the server that is gone was asked fails at once), then the bridge ends.
    await peer.finish(io.interrupt);
    return serverGone.signal.aborted ? String(serverGone.signal.reason) : undefined;
  } finally {
    peer.close();
    backs.pending.close();
    await (face instanceof LegacyFace ? face.close() : modernBacks?.close())?.catch(() => undefined);
  }
}

/** Each line of stdin until it ends or `stop` aborts; a line over the client's message bound is refused, not held. */
function readLines(io: StdioIO, write: (message: JsonRpcMessage) => void, stop: AbortSignal, onLine: (line: string) => void): Promise<void> {
  const max = DEFAULT_LIMITS.maxMessageBytes;
  return new Promise((resolve, reject) => {
    let pending = '';
    let skipping = false;
    // A character split across two chunks is decoded whole.
    const decoder = new TextDecoder();
    const onData = (chunk: Buffer | string) => {
      const text = pending + (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
      const lines = text.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (skipping) skipping = false;
        else if (line.trim() !== '') onLine(line.replace(/\r$/, ''));
      }
      if (pending.length > max) {
        pending = '';
        skipping = true;
        write({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: a message over ${max} bytes` } });
      }
    };
    const unhook = () => {
      // Left flowing, stdin holds the process open: stopped, the bridge would run on until the host closed it.
      io.stdin.pause();
      io.stdin.off('data', onData);
      io.stdin.off('end', done);
      io.stdin.off('error', fail);
      stop.removeEventListener('abort', done);
    };
    const done = () => (unhook(), resolve());
    const fail = (error: Error) => (unhook(), reject(error));
    io.stdin.on('data', onData);
    io.stdin.once('end', done);
    io.stdin.once('error', fail);
    if (stop.aborted) return done();
    stop.addEventListener('abort', done, { once: true });
  });
}
