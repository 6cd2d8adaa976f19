// stdio: the server is a child process speaking newline-delimited JSON-RPC on stdin/stdout
// (spec basic/transports/stdio.mdx). stderr is the server's log: kept, bounded, for diagnoses.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { McpError, StreamClosedError, truncate } from './errors.js';
import type { Exchange, Reply, Trace, Transport } from './transport.js';
import { isRequest, isResponse } from './transport.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from './types.js';

export interface StdioOptions {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  trace?: Trace;
}

const STDERR_KEEP = 8192;

interface Pending {
  resolve: (message: JsonRpcResponse) => void;
  reject: (error: Error) => void;
  exchange: Exchange;
}

export class StdioTransport implements Transport {
  readonly kind = 'stdio';
  readonly key: string;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<JsonRpcRequest['id'], Pending>();
  private readonly trace: Trace | undefined;
  private stderrTail = '';
  private strayLines: string[] = [];
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exitPromise: Promise<void>;

  constructor(options: StdioOptions) {
    this.key = [options.command, ...(options.args ?? [])].join(' ');
    this.trace = options.trace;
    this.child = spawn(options.command, options.args ?? [], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.exitPromise = new Promise((resolve) => {
      this.child.on('error', (error) => {
        this.exited = { code: null, signal: null };
        this.failAll(new McpError('spawn', `cannot start '${options.command}': ${error.message}`, 'check the command and that it is installed and on PATH'));
        resolve();
      });
      this.child.on('exit', (code, signal) => {
        this.exited = { code, signal };
        this.failAll(new StreamClosedError(`the server process exited (${signal ?? `code ${code}`})${this.stderrSummary()}`, 'the server stopped before it answered: its stderr above says why'));
        resolve();
      });
    });
    this.child.stdin.on('error', () => undefined);
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_KEEP);
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => this.receive(line));
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
        // On stdio the client MUST say it gave up (spec basic/patterns/cancellation.mdx).
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

  async close(): Promise<void> {
    if (this.exited) return;
    this.child.stdin.end();
    const gone = (ms: number) => Promise.race([this.exitPromise.then(() => true), new Promise<boolean>((r) => setTimeout(r, ms, false).unref())]);
    if (await gone(500)) return;
    this.child.kill('SIGTERM');
    if (await gone(1500)) return;
    this.child.kill('SIGKILL');
    await this.exitPromise;
  }

  private write(message: JsonRpcMessage): boolean {
    if (this.exited || !this.child.stdin.writable) return false;
    this.trace?.({ direction: 'send', transport: 'stdio', message });
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
    return true;
  }

  private receive(line: string): void {
    if (!line.trim()) return;
    let message: JsonRpcMessage;
    try {
      message = JSON.parse(line) as JsonRpcMessage;
    } catch {
      if (this.strayLines.length < 20) this.strayLines.push(line);
      this.trace?.({ direction: 'receive', transport: 'stdio', raw: line });
      return;
    }
    this.trace?.({ direction: 'receive', transport: 'stdio', message });
    if (isResponse(message)) {
      const pending = this.pending.get(message.id!);
      if (!pending) return;
      this.pending.delete(message.id!);
      pending.resolve(message);
    } else if (isRequest(message)) {
      void this.answer(message);
    } else if ('method' in message) {
      for (const pending of this.pending.values()) pending.exchange.onNotification?.(message);
    }
  }

  /** A legacy server-to-client request: no request owns it on stdio, so the oldest pending one that can answer does. */
  private async answer(request: JsonRpcRequest): Promise<void> {
    const owner = [...this.pending.values()].find((p) => p.exchange.onServerRequest);
    const answer = owner
      ? await owner.exchange.deadline.excluding(() => owner.exchange.onServerRequest!(request))
      : { error: { code: -32601, message: `Method not found: the client does not take ${request.method} here` } };
    this.write({ jsonrpc: '2.0', id: request.id, ...answer });
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }

  private stderrSummary(): string {
    const tail = truncate(this.stderrTail.split('\n').filter(Boolean).slice(-3).join(' | '), 300);
    return tail ? `; its stderr said: ${tail}` : '';
  }
}
