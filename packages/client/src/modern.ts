// The modern era (2026-07-28), the part a reader comes for. There is no handshake and no session:
// every request is one exchange that carries who the client is and what it can do in `params._meta`
// (the envelope), and over HTTP the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers repeat the
// body (SEP-2243) so that anything in between can route without reading JSON. The protocol is just
// JSON: this file is the whole of it but for the transport underneath.
//
// When a server needs the host to think (sampling), to ask the user (elicitation) or to list roots,
// it answers tools/call, resources/read or prompts/get with `resultType: "input_required"`, its
// `inputRequests` and an opaque `requestState`. The client fulfils every request and calls the same
// method again, with a new id, carrying `inputResponses` (bare results) and `requestState` (byte for
// byte) as TOP-LEVEL members of params, not in _meta (SEP-2322, spec basic/patterns/mrtr.mdx).

import { AbortedError, ProtocolError, RoundLimitError } from './errors.js';
import { exchange, message, resultOf, rpcErrorOf, type RequestOptions, type Wire } from './exchange.js';
import { fulfil } from './fulfil.js';
import { ReAsks } from './reask.js';
import { encodeHeaderValue } from './headers.js';
import type { Connection, Send, ServerIdentity, Traits } from './connection.js';
import { asTask, TASK_METHODS, type Task } from './tasks.js';
import type { Reply } from './transport/transport.js';
import type { ClientCapabilities, DiscoverResult, Host, Implementation, InputResponse, JsonObject, LoggingLevel } from './types.js';

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

export const INPUT_METHODS = new Set(['tools/call', 'resources/read', 'prompts/get']);
export const DEFAULT_MAX_ROUNDS = 10;

/**
 * The per-request envelope (spec basic/index.mdx L365-392): protocolVersion and clientCapabilities are
 * required, clientInfo is a SHOULD, and logs flow only when a logLevel asks for them (SEP-2575).
 */
export function envelope(version: string, capabilities: ClientCapabilities, clientInfo: Implementation | undefined, logLevel?: LoggingLevel, extra?: JsonObject): JsonObject {
  const meta: JsonObject = { ...extra, [META.protocolVersion]: version, [META.clientCapabilities]: capabilities };
  if (clientInfo) meta[META.clientInfo] = clientInfo;
  if (logLevel) meta[META.logLevel] = logLevel;
  return meta;
}

/** The headers that mirror the body; a server refuses the request (-32020) when they disagree. */
export function standardHeaders(method: string, params: JsonObject | undefined, protocolVersion: string): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': protocolVersion, 'mcp-method': method };
  // Mcp-Name: the tool or prompt name, the resource uri, or a task's id (the tasks extension, SEP-2663).
  const name = INPUT_METHODS.has(method) ? (params?.name ?? params?.uri) : TASK_METHODS.has(method) ? params?.taskId : undefined;
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
  return headers;
}

export type RoundEvent =
  | { phase: 'asked'; round: number; method: string; name: string; inputRequests: JsonObject; requestState?: string }
  | { phase: 'answered'; round: number; method: string; name: string; inputResponses: Record<string, InputResponse> };

export interface ModernSettings {
  wire: Wire;
  capabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  host: Host;
  maxRounds: number;
  logLevel: LoggingLevel | undefined;
  onRound: ((event: RoundEvent) => void) | undefined;
}

export class ModernConnection implements Connection {
  readonly era = 'modern';
  readonly traits: Traits;

  // The envelope of a request without _meta of its own, kept while the version and the log level stay: it is the same on every request.
  private kept: JsonObject | undefined;

  constructor(private readonly settings: ModernSettings, public protocolVersion: string) {
    this.traits = { pushes: false, inputRounds: true, sessionful: false, changes: 'listen', mirrorsHeaders: settings.wire.transport.carriesHeaders };
  }

  /**
   * One exchange, its bytes made here: the envelope in `_meta` (kept between requests while the version and the log
   * level stay), the headers that mirror the body, the caller's; the reply, error or not. `version` overrides ours (the probe).
   */
  send(method: string, params: JsonObject, options: RequestOptions = {}, version = this.protocolVersion): Promise<Reply> {
    const { wire, capabilities, clientInfo, logLevel } = this.settings;
    const own = params._meta as JsonObject | undefined;
    let meta = this.kept;
    if (own || meta?.[META.protocolVersion] !== version || meta[META.logLevel] !== logLevel) {
      meta = envelope(version, capabilities, clientInfo, logLevel, own);
      if (!own) this.kept = meta;
    }
    return exchange(wire, message(method, params, options, meta), standardHeaders(method, params, version), options);
  }

  /** A request whose JSON-RPC error becomes an RpcError (a -32022 is sent again by the client: retry.ts). An input_required answer outside MRTR is a server bug. */
  async request(method: string, params: JsonObject = {}, options: RequestOptions = {}): Promise<JsonObject> {
    const reply = await this.send(method, params, options);
    const version = this.protocolVersion;
    if (reply.message.error) throw rpcErrorOf(reply, method, params, version, () => standardHeaders(method, params, version));
    const result = resultOf(reply, method, params, version);
    if (result.resultType === 'input_required' && !INPUT_METHODS.has(method)) throw inputRequiredMisplaced(method);
    return result;
  }

  /** There is no handshake: the version is each request's, so the next one may name another. */
  useVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** tools/call, resources/read or prompts/get: sends `params` (each round through `send`), then answers input requests until the result is complete. */
  async input(method: string, name: string, params: JsonObject, options: RequestOptions, send: (params: JsonObject) => Promise<JsonObject>): Promise<JsonObject> {
    const { host, maxRounds, onRound } = this.settings;
    let reAsks: ReAsks | undefined;
    let next = params;
    for (let round = 1; ; round++) {
      const result = await send(next);
      const type = result.resultType;
      // A task handle (the tasks extension, tasks.ts) is the caller's to follow.
      if (type === undefined || type === 'complete' || type === 'task') return result;
      if (type !== 'input_required') {
        throw new ProtocolError(`${method} ${name} answered with resultType ${JSON.stringify(type)}, which byhand does not know`, 'the server may need an extension (such as tasks) that the client did not ask for');
      }
      if (round > maxRounds) throw new RoundLimitError(method, name, maxRounds);
      const { inputRequests: requests, requestState: state } = result;
      if (requests !== undefined && (typeof requests !== 'object' || requests === null || Array.isArray(requests))) {
        throw new ProtocolError(`${method} ${name}: inputRequests is not an object`, 'this is a server bug: inputRequests maps keys to requests');
      }
      if (state !== undefined && typeof state !== 'string') {
        throw new ProtocolError(`${method} ${name}: requestState is not a string`, 'this is a server bug: requestState is an opaque string');
      }
      if (requests === undefined && state === undefined) {
        throw new ProtocolError(`${method} ${name} asked for input but sent neither inputRequests nor requestState`, 'this is a server bug (spec: at least one of them MUST be present)');
      }
      const entries = Object.entries((requests ?? {}) as JsonObject);
      reAsks ??= new ReAsks(method, name);
      const asks = reAsks.asks(entries, round);
      onRound?.({ phase: 'asked', round, method, name, inputRequests: (requests ?? {}) as JsonObject, ...(state !== undefined ? { requestState: state } : {}) });

      // The keys are fulfilled together (the host queues what needs a person); when one fails, the
      // others are given up, so no question is left on screen and no model call runs for nothing.
      // Made here, not per call: an AbortSignal costs more than a whole request on node:http.
      const signal = options.signal ?? this.settings.wire.signal ?? new AbortController().signal;
      const failed = new AbortController();
      const roundSignal = AbortSignal.any([signal, failed.signal]);
      const answers = Promise.all(
        asks.map(async ({ key, request, again }) => {
          const ctx = { key, method, name, round, era: 'modern' as const, again, signal: roundSignal };
          try {
            return [key, await fulfil(host, request, ctx)] as const;
          } catch (error) {
            failed.abort(error);
            throw error;
          }
        }),
      );
      // A caller that gives up is not kept waiting on a host that does not stop, as no request is kept waiting on it.
      const responses = Object.fromEntries(await untilAborted(answers, signal, method));
      reAsks.answered(asks, responses, state, round);
      if (entries.length > 0) onRound?.({ phase: 'answered', round, method, name, inputResponses: responses });
      // A new request, not a continuation: the original params, this round's answers, the state as sent.
      next = { ...params };
      if (entries.length > 0) next.inputResponses = responses;
      if (state !== undefined) next.requestState = state;
    }
  }

  /** The envelope carries the level on every later request (SEP-2575): there is no session to tell. */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    this.settings.logLevel = level;
  }

  async discover(send: Send): Promise<{ identity: ServerIdentity; result: DiscoverResult }> {
    const result = (await send('server/discover', {})) as unknown as DiscoverResult;
    return { identity: identityOf(result), result };
  }

  // The 2026 tasks extension: the server decides which call runs as a task and answers with its handle.
  taskOps(send: Send) {
    return {
      get: (taskId: string, signal: AbortSignal) => send('tasks/get', { taskId }, signal),
      update: (taskId: string, inputResponses: Record<string, InputResponse>, signal: AbortSignal) => send('tasks/update', { taskId, inputResponses }, signal),
    };
  }

  async getTask(send: Send, taskId: string): Promise<Task> {
    return asTask(await send('tasks/get', { taskId }), `tasks/get ${taskId}`);
  }
}

/** `work`, or an AbortedError for `method` as soon as `signal` aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, method: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const stop = () => reject(new AbortedError(method, signal.reason));
    if (signal.aborted) stop();
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** server/discover's answer as the client keeps it. The final spec moved serverInfo into _meta (PR #3002); older mocks still put it in the body. */
export function identityOf(result: DiscoverResult): ServerIdentity {
  return {
    serverInfo: (result._meta?.[META.serverInfo] ?? result.serverInfo) as Implementation | undefined,
    serverCapabilities: result.capabilities ?? {},
    instructions: result.instructions,
  };
}

export function inputRequiredMisplaced(method: string): ProtocolError {
  return new ProtocolError(`${method} answered input_required, which only tools/call, resources/read and prompts/get may`, 'this is a server bug (spec basic/patterns/mrtr.mdx)');
}
