// stdio: the server is a child process speaking newline-delimited JSON-RPC on stdin/stdout
// (spec basic/transports/stdio.mdx). stderr is the server's log: kept, bounded, for diagnoses.
// The child gets an allow-listed environment, not ours (API keys, tokens and BYHAND_STATE_SECRET stay
// here), runs in a process group of its own so close() ends the whole tree (npx/uvx start the real
// server as a grandchild), and a stdout line larger than limits.maxMessageBytes is refused, not held.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { LimitError, McpError, StreamClosedError, truncate } from '../../errors.js';
import type { Limits } from '../../limits.js';
import { LineSplitter, responseIdAt, type OversizeLine } from './lines.js';
import { redactText } from '../../redact.js';
import type { Exchange, Reply, Trace, Transport } from '../transport.js';
import { isRequest, isResponse } from '../transport.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../types.js';

export interface StdioOptions {
  command: string;
  args?: string[];
  /** Added to the inherited allow-list (inheritedEnvironment()); these win. */
  env?: Record<string, string>;
  cwd?: string;
  trace?: Trace;
  limits: Limits;
  /**
   * Told once when the process exits on its own after it has answered a request (not when the client closes it):
   * nothing sent from then on can be answered. A process that never answered fails the request instead.
   */
  onGone?: (reason: string) => void;
}

const STDERR_KEEP = 8192;

// What a desktop host passes to a server it starts (the official SDK client's DEFAULT_INHERITED_ENV_VARS,
// @modelcontextprotocol/client dist/stdio.mjs), plus the locale and the temporary directory.
const INHERITED = process.platform === 'win32'
  ? ['APPDATA', 'COMSPEC', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH', 'PATHEXT', 'PROCESSOR_ARCHITECTURE', 'PROGRAMDATA', 'PROGRAMFILES', 'PROGRAMFILES(X86)', 'PROGRAMW6432', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'TMP', 'USERNAME', 'USERPROFILE', 'WINDIR']
  : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR'];

/** The part of our environment a server inherits: the allow-list above, nothing else. */
export function inheritedEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of INHERITED) {
    const value = env[key];
    // A value starting with "()" is an exported shell function, which a child shell would run.
    if (value !== undefined && !value.startsWith('()')) out[key] = value;
  }
  return out;
}

interface Pending {
  resolve: (message: JsonRpcResponse) => void;
  reject: (error: Error) => void;
  exchange: Exchange;
}

export class StdioTransport implements Transport {
  readonly name = 'stdio';
  readonly carriesHeaders = false;
  readonly held = true;
  readonly refusesSilently = true;
  readonly key: string;
  /** Settles at the server's first output on stdout or stderr, or its exit: proof that it started. */
  readonly started: Promise<'stdout' | 'stderr' | 'exit'>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<JsonRpcRequest['id'], Pending>();
  private readonly trace: Trace | undefined;
  private readonly maxLine: number;
  private stderrTail = '';
  /** The oversized line now arriving has already failed its request. */
  private lineRefused = false;
  private strayLines: string[] = [];
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exitPromise: Promise<void>;
  /** Between requests, in a 2025 session: who takes what no request owns, and who is told when nothing more can come. */
  private listener: { exchange: Omit<Exchange, 'deadline'>; onEnded: ((reason: string) => void) | undefined } | undefined;
  private closing = false;
  /** The process has answered a request: its exit from now on is the server gone, not a start that failed. */
  private answered = false;

  constructor(options: StdioOptions) {
    this.key = [options.command, ...(options.args ?? [])].join(' ');
    this.trace = options.trace;
    this.maxLine = options.limits.maxMessageBytes;
    this.child = spawn(options.command, options.args ?? [], {
      cwd: options.cwd,
      env: { ...inheritedEnvironment(), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // A process group of its own, so close() can end the server's children too (POSIX).
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    let signal: (how: 'stdout' | 'stderr' | 'exit') => void = () => {};
    this.started = new Promise((resolve) => (signal = resolve));
    this.exitPromise = new Promise((resolve) => {
      this.child.on('error', (error) => {
        this.exited = { code: null, signal: null };
        signal('exit');
        this.failAll(new McpError('spawn', `cannot start '${options.command}': ${error.message}`, 'check the command and that it is installed and on PATH'));
        resolve();
      });
      this.child.on('exit', (code, exitSignal) => {
        this.exited = { code, signal: exitSignal };
        signal('exit');
        const said = this.stderrTail.trim() ? 'its stderr, quoted in this message, says why' : 'it wrote nothing to stderr';
        const exitedWhy = `the server process exited (${exitSignal ?? `code ${code}`})${this.stderrSummary()}`;
        this.failAll(new StreamClosedError(exitedWhy, `the server stopped before it answered: ${said}`));
        if (!this.closing && this.answered) options.onGone?.(exitedWhy);
        if (!this.closing) this.listener?.onEnded?.(exitedWhy);
        resolve();
      });
    });
    this.child.stdin.on('error', () => undefined);
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      signal('stderr');
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_KEEP);
    });
    this.readLines((line) => this.receive(line), () => signal('stdout'));
  }

  /** The server's recent stderr, for error messages. */
  get stderr(): string {
    return this.stderrTail;
  }

  /** Lines on stdout that were not JSON-RPC: a server that logs to stdout breaks the protocol. */
  get strayOutput(): readonly string[] {
    return this.strayLines;
  }

  get hasExited(): boolean {
    return this.exited !== undefined;
  }

  request(message: JsonRpcRequest, exchange: Exchange): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const { signal } = exchange.deadline;
      if (signal.aborted) return reject(exchange.deadline.failure());
      const onAbort = () => {
        this.pending.delete(message.id);
        // On stdio the client MUST say it gave up (spec basic/patterns/cancellation.mdx), in both eras.
        this.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: message.id, reason: 'client gave up' } });
        reject(exchange.deadline.failure());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(message.id, {
        exchange,
        resolve: (response) => {
          signal.removeEventListener('abort', onAbort);
          resolve({ message: response });
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      if (!this.write(message)) this.pending.get(message.id)?.reject(new StreamClosedError(`the server process is gone; ${message.method} was not sent${this.stderrSummary()}`));
    });
  }

  async notify(message: JsonRpcNotification): Promise<void> {
    this.write(message);
  }

  listen(exchange: Omit<Exchange, 'deadline'>, _timeoutMs: number, onEnded?: (reason: string) => void): void {
    this.listener = { exchange, onEnded };
  }

  async close(): Promise<void> {
    this.closing = true;
    if (!this.exited) {
      this.child.stdin.end();
      if (!(await this.gone(500))) {
        this.kill('SIGTERM');
        if (!(await this.gone(1500))) {
          this.kill('SIGKILL');
          await this.exitPromise;
        }
      }
    }
    await this.endGroup();
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    this.child.stdin.destroy();
  }

  private gone(ms: number): Promise<boolean> {
    return Promise.race([this.exitPromise.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, ms, false).unref())]);
  }

  /**
   * The server exited, but what it started may not have: npx, uvx or a shell script run the real
   * server as a grandchild, which holds our pipes and would keep the process alive about a minute.
   * The rest of its process group is asked to stop, then made to.
   */
  private async endGroup(): Promise<void> {
    if (process.platform === 'win32' || !this.groupAlive()) return;
    this.kill('SIGTERM');
    for (let waited = 0; waited < 1000 && this.groupAlive(); waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
    if (this.groupAlive()) this.kill('SIGKILL');
  }

  private groupAlive(): boolean {
    if (this.child.pid === undefined) return false;
    try {
      process.kill(-this.child.pid, 0);
      return true;
    } catch {
      return false;
    }
  }

  /** The server's whole process group: what npx or a shell script started goes with it. */
  private kill(signal: NodeJS.Signals): void {
    try {
      if (process.platform !== 'win32' && this.child.pid !== undefined) process.kill(-this.child.pid, signal);
      else this.child.kill(signal);
    } catch {
      // Already gone.
    }
  }

  private write(message: JsonRpcMessage): boolean {
    if (this.exited || !this.child.stdin.writable) return false;
    this.trace?.({ direction: 'send', transport: 'stdio', message });
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
    return true;
  }

  private readLines(onLine: (line: string) => void, onFirst: () => void): void {
    const lines = new LineSplitter(this.maxLine, (line) => onLine(line.toString('utf8')), (line, ended) => this.refuseLine(line, ended));
    this.child.stdout.on('data', (chunk: Buffer) => {
      onFirst();
      lines.push(chunk);
    });
  }

  /**
   * A line past the limit fails the request it answers, and only that one: its id is read from the
   * line's first or last bytes (a line naming a request no longer waiting fails nothing). While it is
   * still arriving, a lone pending request is failed at once, since the line can answer no other; with
   * several, the line's end decides, and a line that names no id fails them all.
   */
  private refuseLine(line: OversizeLine, ended: boolean): void {
    if (!ended) this.lineRefused = false;
    if (this.lineRefused) return;
    const error = new LimitError('a line the server wrote on stdout', this.maxLine);
    const id = responseIdAt(line);
    if (id !== undefined) {
      this.pending.get(id)?.reject(error);
      this.pending.delete(id);
    } else if (ended || this.pending.size === 1) {
      this.failAll(error);
    } else {
      return;
    }
    this.lineRefused = true;
  }

  private receive(line: string): void {
    if (!line.trim()) return;
    let message: JsonRpcMessage;
    try {
      message = JSON.parse(line) as JsonRpcMessage;
    } catch {
      if (this.strayLines.length < 20) this.strayLines.push(truncate(line, 500));
      this.trace?.({ direction: 'receive', transport: 'stdio', raw: truncate(line, 2000) });
      return;
    }
    if (!message || typeof message !== 'object') return;
    this.trace?.({ direction: 'receive', transport: 'stdio', message });
    if (isResponse(message)) {
      const pending = this.pending.get(message.id!);
      if (!pending) return;
      this.pending.delete(message.id!);
      if ('result' in message) this.answered = true;
      pending.resolve(message);
    } else if (isRequest(message)) {
      void this.answer(message);
    } else if ('method' in message) {
      // Between requests a 2025 server still tells of its list changes and updates: the session's listener takes them.
      if (this.pending.size === 0) this.listener?.exchange.onNotification?.(message);
      for (const pending of this.pending.values()) pending.exchange.onNotification?.(message);
    }
  }

  /**
   * A legacy server-to-client request: no request owns it on stdio, so the oldest pending one that can answer does;
   * between requests, the session's listener.
   */
  private async answer(request: JsonRpcRequest): Promise<void> {
    const owner = [...this.pending.values()].find((p) => p.exchange.onServerRequest);
    const between = this.listener?.exchange.onServerRequest;
    const answer = owner
      ? await owner.exchange.deadline.excluding(() => owner.exchange.onServerRequest!(request))
      : between
        ? await between(request).catch((error: unknown) => ({ error: { code: -32603, message: `the client could not answer ${request.method}: ${(error as Error).message}` } }))
        : { error: { code: -32601, message: `Method not found: the client does not take ${request.method} here` } };
    this.write({ jsonrpc: '2.0', id: request.id, ...answer });
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }

  private stderrSummary(): string {
    const tail = truncate(redactText(quotedLines(this.stderrTail).join(' | ')), 300);
    return tail ? `; its stderr said: ${tail}` : '';
  }
}

/** A stack trace's frames and markers (Node's `at …` and `^`, Python's `File "…"`): never the line that says why. */
const FRAME = /^\s*(at |File "|\^|~+$)/;
/** The line of an uncaught error or a fatal message: `Error: …`, `TypeError: …`, `ValueError: …`, `fatal: …`, `panic: …`. */
const SAYS_WHY = /^\s*(\w*(Error|Exception)\b.*:|(fatal|panic|error)\b)/i;

/**
 * The stderr lines that say why a server stopped: its last three, unless an error line stands further up (a stack
 * trace buries Node's `Error: …` under its frames and the `Node.js vX` line), then that line, … and the last.
 */
function quotedLines(stderr: string): string[] {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '');
  const last = lines.slice(-3);
  const why = lines.findLast((line) => !FRAME.test(line) && SAYS_WHY.test(line));
  if (why === undefined || last.includes(why)) return last;
  return [why.trim(), '…', lines[lines.length - 1]];
}
