// The client: one API over both eras and both transports. The era is found by trying (negotiate.ts) and
// recorded as a verdict; the modern era (modern.ts) and the legacy one (legacy.ts) each do the rest their own
// way behind one interface (connection.ts), so nothing here asks which era it is. What is the same in both
// lives here: listing with pagination and cache hints, the shape of the results a caller depends on, and the
// x-mcp-header mirrors of a tool's arguments.

import { defaultRequester, defaultTransport } from '#default-requester';
import { ListLimitError, ProtocolError } from './errors.js';
import type { RequestOptions, Wire } from './exchange.js';
import { capabilitiesFor } from './fulfil.js';
import type { Connection, Send, ServerIdentity, Traits } from './connection.js';
import { asTask, followTask, isTaskHandle, TASKS_EXTENSION, type Task, type TaskOps } from './tasks.js';
import { headerParams, paramHeaders, type HeaderParam } from './headers.js';
import { HttpTransport, type HttpAuth } from './transport/http/http.js';
import { DEFAULT_LIMITS, MAX_TOOL_DEPTH, weigh, type Limits } from './limits.js';
import { legacyEra } from './legacy-door.js';
import { DEFAULT_MAX_ROUNDS, type RoundEvent } from './modern.js';
import { negotiate } from './negotiate.js';
import { headerRetry, retryAfter, verdictRetry, versionRetry, type Attempted, type Retry } from './retry.js';
import { redactUrl } from './redact.js';
import { Deadline } from './deadline.js';
import type { Reply, Trace, Transport } from './transport/transport.js';
import type {
  CallToolResult, ClientCapabilities, CompleteResult, DiscoverResult, Era, GetPromptResult, Host, Implementation, JsonObject,
  JsonRpcNotification, JsonRpcRequest, LoggingLevel, Prompt, ReadResourceResult, Resource, ResourceTemplate, Tool,
} from './types.js';
import { processVerdicts, type EraVerdict, type VerdictCache } from './verdict.js';
import { fetchRequester, type Requester } from './transport/http/wire.js';

/** An HTTP target may name its transport: 'sse' is the deprecated HTTP+SSE of 2024-11-05; unnamed, Streamable HTTP is tried first and HTTP+SSE after it. */
export type Target = string | URL | { url: string; headers?: Record<string, string>; transport?: 'sse' } | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string };

export interface ConnectOptions {
  /** 'auto' (default) negotiates by trying; a pin is for tests and diagnosis, never falls back and is never cached. */
  era?: 'auto' | Era;
  host?: Host;
  clientInfo?: Implementation;
  /** Per request, excluding time the host spends on input; on stdio also how long a server may take to start. Default 30 s. */
  timeoutMs?: number;
  /** stdio: how long server/discover may go unanswered once the server answered ping, before it is taken as legacy. Default 3 s. */
  probeTimeoutMs?: number;
  /** Input rounds per MRTR request. Default 10. */
  maxRounds?: number;
  signal?: AbortSignal;
  /** HTTP: 'auto' (default) is node:http on Node and fetch elsewhere. A custom `fetch` implies 'fetch'. */
  transport?: 'auto' | 'fetch' | 'node';
  fetch?: typeof fetch;
  /** How much the client reads from a server (see limits.ts). */
  limits?: Partial<Limits>;
  /** Ask the server for log notifications at this level and above (modern: per request; legacy: logging/setLevel). */
  logLevel?: LoggingLevel;
  /** Where probed era verdicts are kept; default one cache for the process. */
  verdicts?: VerdictCache;
  /** The clock for verdicts and list caching; default Date.now. */
  now?: () => number;
  /** Every message sent and received, as it happens (credentials redacted). */
  onTrace?: Trace;
  /** Each MRTR round: what the server asked for, what the host answered. */
  onRound?: (event: RoundEvent) => void;
  onNotification?: (notification: JsonRpcNotification) => void;
  /**
   * A stdio server's process exited on its own once it had answered: every request fails from then on, and a new
   * connect() starts it again. `reason` has its exit code and its last stderr. Not told when the client closes it.
   */
  onGone?: (reason: string) => void;
  /** HTTP authorization (OAuth, or any bearer source). */
  auth?: HttpAuth;
  /** Tools may run as tasks that callTool follows: the tasks extension (SEP-2663) is declared, and on a 2025-11-25 server a task is asked for where the tool allows one. Default true. */
  tasks?: boolean;
  /**
   * Other extensions to declare (SEP-2133), each with its settings, such as MCP Apps' `appsExtension()`: in both eras,
   * the 2026 envelope's clientCapabilities and 2025 initialize's capabilities carry them. Tasks has its own option.
   */
  extensions?: Record<string, JsonObject>;
  /** Injected in tests: how the client waits between tasks/get polls. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export type CallOptions = RequestOptions;

export interface ToolCallOptions extends CallOptions {
  /** Each status of a tool that runs as a task, the first handle included. */
  onTask?: (task: Task) => void;
}

/** Forget the cached era verdicts (tests, or a server known to have changed). */
export function forgetEras(): void {
  processVerdicts.clear();
}

/**
 * Connects to a server: a URL, a command line (stdio), or a transport of the caller's own (transport.ts says what one
 * must do; it is used as given, the HTTP options do not apply to it, and it is closed with the client).
 */
export async function connect(target: Target | Transport, options: ConnectOptions = {}): Promise<Client> {
  const client = new Client(target, options, await openTransport(target, options));
  try {
    await client.open();
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return client;
}

const LIST_CHANGED: Record<string, string[]> = {
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
};

export class Client {
  verdict!: EraVerdict;
  serverInfo: Implementation | undefined;
  serverCapabilities: JsonObject = {};
  instructions: string | undefined;
  discovered: DiscoverResult | undefined;
  /** Tools left out of listTools(), with why: an invalid x-mcp-header annotation, a tool nested past MAX_TOOL_DEPTH. */
  excludedTools: { name: string; reason: string }[] = [];

  readonly capabilities: ClientCapabilities;
  private readonly wire: Wire;
  private connection!: Connection;
  private readonly options: ConnectOptions;
  private readonly now: () => number;
  /** The era came from a cached verdict without a word from the server (negotiate.ts). */
  private unconfirmed = false;
  /** The Mcp-Param-* mirrors of each listed tool, worked out once at listTools(). */
  private toolHeaders: Map<string, HeaderParam[]> | undefined;
  /** List results the server said may be reused (ttlMs), until they expire or a list_changed says otherwise. */
  private readonly lists = new Map<string, { items: unknown[]; expires: number }>();
  /** How a failed request is sent again (retry.ts): the version the server named, the tools listed again, the era found again. */
  private readonly retries: readonly Retry<Attempted>[] = [
    versionRetry(() => this.connection),
    headerRetry((options) => this.relist(options)),
    verdictRetry(() => this.unconfirmed, (error) => this.refind(error)),
  ];

  constructor(private readonly target: Target | Transport, options: ConnectOptions, transport: Transport) {
    this.options = options;
    this.now = options.now ?? Date.now;
    const capabilities = capabilitiesFor(options.host ?? {});
    const extensions = { ...options.extensions, ...(options.tasks === false ? {} : { [TASKS_EXTENSION]: {} }) };
    this.capabilities = Object.keys(extensions).length > 0 ? { ...capabilities, extensions } : capabilities;
    this.wire = {
      transport,
      timeoutMs: options.timeoutMs ?? 30_000,
      signal: options.signal,
      onNotification: (notification) => {
        for (const method of LIST_CHANGED[notification.method] ?? []) this.lists.delete(method);
        options.onNotification?.(notification);
      },
    };
  }

  get era(): Era {
    return this.verdict.era;
  }

  get protocolVersion(): string {
    return this.connection.protocolVersion;
  }

  /** The server's recent stderr (stdio only): where a failing server usually says why. */
  get stderr(): string {
    return this.wire.transport.stderr ?? '';
  }

  /** Lines the server wrote on stdout that were not JSON-RPC (stdio only): a stray console.log breaks the protocol. */
  get strayOutput(): readonly string[] {
    return this.wire.transport.strayOutput ?? [];
  }

  get sessionId(): string | undefined {
    return this.wire.transport.sessionId;
  }

  /** 'http' when messages carry HTTP headers, else 'stdio' (a stream): `traits` says what a caller usually wants to know. */
  get transportKind(): 'http' | 'stdio' {
    return this.wire.transport.carriesHeaders ? 'http' : 'stdio';
  }

  /** Which transport carries the connection ('streamable-http', 'sse', 'stdio', or a given one's): found by trying on HTTP, like the era. */
  get transportName(): string {
    return this.wire.transport.name;
  }

  /** What the connection can do: whether the server pushes, keeps a session, tells of changes, and which headers requests carry. */
  get traits(): Traits {
    return this.connection.traits;
  }

  async open(): Promise<void> {
    const { host = {}, clientInfo = { name: 'byhand', version: '0.2.0' } } = this.options;
    const negotiated = await negotiate({
      mode: this.options.era ?? 'auto',
      settings: {
        wire: this.wire,
        capabilities: this.capabilities,
        clientInfo,
        host,
        maxRounds: this.options.maxRounds ?? DEFAULT_MAX_ROUNDS,
        logLevel: this.options.logLevel,
        onRound: this.options.onRound,
      },
      cache: this.options.verdicts ?? processVerdicts,
      probeTimeoutMs: this.options.probeTimeoutMs ?? 3000,
      reopen: () => openTransport(this.target, this.options),
      now: this.now,
    });
    this.connection = negotiated.connection;
    this.verdict = negotiated.verdict;
    this.unconfirmed = negotiated.unconfirmed === true;
    this.discovered = negotiated.discovered;
    if (negotiated.identity) this.recordIdentity(negotiated.identity);
  }

  /**
   * Asks for log notifications at `level` and above from now on: the modern envelope carries it on every later
   * request (SEP-2575); a legacy session is told with logging/setLevel.
   */
  setLogLevel(level: LoggingLevel, options: CallOptions = {}): Promise<void> {
    return this.connection.setLogLevel(level, options);
  }

  async listTools(options?: CallOptions): Promise<Tool[]> {
    const all = await this.listAll<Tool>('tools/list', 'tools', options);
    const kept: Tool[] = [];
    this.excludedTools = [];
    this.toolHeaders = new Map();
    this.connection.listedTools?.(all);
    for (const tool of all) {
      // A 100k-deep schema parses, but every walk of it after this one would overflow the stack: it is left out, said why.
      if (weigh(tool).depth > MAX_TOOL_DEPTH) {
        this.excludedTools.push({ name: String(tool.name), reason: `it nests deeper than ${MAX_TOOL_DEPTH} levels` });
        continue;
      }
      // Only a connection that mirrors arguments into headers must refuse a bad annotation (SEP-2243).
      const check = this.connection.traits.mirrorsHeaders ? headerParams(tool) : { params: [] };
      if ('invalid' in check) {
        this.excludedTools.push({ name: tool.name, reason: check.invalid });
        continue;
      }
      kept.push(tool);
      if (check.params.length > 0) this.toolHeaders.set(tool.name, check.params);
    }
    return kept;
  }

  listResources(options?: CallOptions): Promise<Resource[]> {
    return this.listAll('resources/list', 'resources', options);
  }

  listResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return this.listAll('resources/templates/list', 'resourceTemplates', options);
  }

  listPrompts(options?: CallOptions): Promise<Prompt[]> {
    return this.listAll('prompts/list', 'prompts', options);
  }

  /** Calls a tool; one that runs as a task is followed to its end (polling, its input through the host, tasks/cancel on abort). */
  async callTool(name: string, args: JsonObject = {}, options: ToolCallOptions = {}): Promise<CallToolResult> {
    const started = await this.startTool(name, args, options);
    return 'result' in started ? started.result : this.followTask(started.task, name, options, true);
  }

  /**
   * Follows a task (startTool's, or one read back with getTask) to its result as callTool does; `name` is its tool's,
   * for the host and errors. A wait that stops (abort, timeout) cancels the task only when `owned`: callTool's task has
   * no one else waiting on it, another's may.
   */
  async followTask(task: Task, name: string, options: ToolCallOptions = {}, owned = false): Promise<CallToolResult> {
    const signal = options.signal ?? this.options.signal ?? new AbortController().signal;
    const send: Send = (method, params, s) => this.request(method, params, { ...options, ...(s ? { signal: s } : {}) });
    const cancel = (taskId: string) => (owned ? this.cancelTask(taskId, { timeoutMs: 5_000 }) : Promise.resolve());
    const ops: TaskOps = { ...this.connection.taskOps(send, options.onTask), cancel };
    const result = await followTask(
      ops,
      task,
      {
        host: this.options.host ?? {},
        name,
        signal,
        maxRounds: this.options.maxRounds ?? DEFAULT_MAX_ROUNDS,
        timeoutMs: options.timeoutMs ?? this.wire.timeoutMs,
        ...(options.onTask ? { onTask: options.onTask } : {}),
        ...(this.options.sleep ? { sleep: this.options.sleep } : {}),
        now: this.now,
      },
    );
    return expectShape(result, 'tools/call', name, 'content', 'a content array') as unknown as CallToolResult;
  }

  /** Calls a tool and returns at once with its result, or with its task when it runs as one (`byhand call --detach`). */
  async startTool(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<{ result: CallToolResult } | { task: Task }> {
    const excluded = this.excludedTools.find((t) => t.name === name);
    if (excluded) {
      // A tool with an invalid x-mcp-header must not be called over HTTP (SEP-2243).
      throw new ProtocolError(`tool '${name}' was left out of tools/list: ${excluded.reason}`, 'the server must fix the tool; until then it is not called');
    }
    const params: JsonObject = { name, arguments: args };
    const asks = this.connection.asksForTask?.(name, () => this.listTools(options));
    if (asks && (await asks)) params.task = {};
    const result = await this.input('tools/call', name, params, options);
    if (isTaskHandle(result)) return { task: asTask(result, `tools/call ${name}`) };
    const task = this.connection.createdTask?.(result, `tools/call ${name}`);
    if (task) return { task };
    return { result: expectShape(result, 'tools/call', name, 'content', 'a content array') as unknown as CallToolResult };
  }

  /** tasks/get: a task's status, and its result, error or pending input requests. */
  async getTask(taskId: string, options: CallOptions = {}): Promise<Task> {
    return this.connection.getTask((method, params) => this.request(method, params, options), taskId);
  }

  /** tasks/cancel: asks the server to stop a task. */
  async cancelTask(taskId: string, options: CallOptions = {}): Promise<void> {
    await this.request('tasks/cancel', { taskId }, options);
  }

  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    const result = await this.input('resources/read', uri, { uri }, options);
    return expectShape(result, 'resources/read', uri, 'contents', 'a contents array') as unknown as ReadResourceResult;
  }

  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    const result = await this.input('prompts/get', name, { name, arguments: args }, options);
    return expectShape(result, 'prompts/get', name, 'messages', 'a messages array') as unknown as GetPromptResult;
  }

  /** completion/complete: values for a prompt's or a resource template's argument (both eras). */
  async complete(ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }, argument: { name: string; value: string }, context?: { arguments?: Record<string, string> }, options?: CallOptions): Promise<CompleteResult> {
    const result = await this.request('completion/complete', { ref, argument, ...(context ? { context } : {}) }, options);
    const completion = result.completion as JsonObject | undefined;
    if (!completion || !Array.isArray(completion.values)) {
      throw new ProtocolError('completion/complete answered without completion.values', 'this is a server bug: the result is {completion: {values, total?, hasMore?}}');
    }
    return result as unknown as CompleteResult;
  }

  async discover(options: CallOptions = {}): Promise<DiscoverResult> {
    const { identity, result } = await this.connection.discover((method, params) => this.send(method, params, options));
    this.discovered = result;
    this.recordIdentity(identity);
    return result;
  }

  /** Any request, with the era's envelope and headers; throws McpError on a JSON-RPC error. */
  request(method: string, params: JsonObject = {}, options: CallOptions = {}): Promise<JsonObject> {
    return this.send(method, params, options);
  }

  /**
   * One JSON-RPC request exactly as given (no envelope, no headers but `options.headers` and the transport's own), and the
   * reply as it came, error or not: for a tool that checks servers by sending what a well-behaved client never does,
   * and for a bridge that carries another client's request. Notifications on the way go to `options.onNotification`.
   */
  async sendRaw(message: JsonRpcRequest, options: CallOptions = {}): Promise<Reply> {
    const deadline = new Deadline(message.method, options.timeoutMs ?? this.wire.timeoutMs, options.signal ?? this.wire.signal);
    try {
      return await this.wire.transport.request(message, { deadline, headers: {}, ...options });
    } finally {
      deadline.dispose();
    }
  }

  async close(): Promise<void> {
    await this.wire.transport.close();
  }

  private input(method: string, name: string, params: JsonObject, options: CallOptions): Promise<JsonObject> {
    return this.connection.input(method, name, params, options, (round) => this.send(method, round, options));
  }

  /**
   * Every request of the connection goes out here, once, and again where a rule of retry.ts says so after a failure.
   * A tools/call carries the Mcp-Param headers of its tool's schema, read at each attempt: after a -32020 the tools
   * are listed again, and the schema may name others.
   */
  private send(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject> {
    return this.attempt(method, params, options).catch((error: unknown) => this.retry(error, method, params, options));
  }

  private retry(error: unknown, method: string, params: JsonObject, options: CallOptions): Promise<JsonObject> {
    return retryAfter(error, () => this.attempt(method, params, options), this.retries, { method, options });
  }

  private attempt(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject> {
    const mirrors = method === 'tools/call' ? this.paramHeadersFor(params.name as string, params.arguments as JsonObject) : undefined;
    return this.connection.request(method, params, mirrors ? { ...options, headers: { ...options.headers, ...mirrors } } : options);
  }

  /** retry.ts: the cached verdict was contradicted; the era is found again, and the request sent on it. */
  private async refind(error: unknown): Promise<void> {
    (this.options.verdicts ?? processVerdicts).delete(this.wire.transport.key);
    await this.open();
    this.verdict.revalidated = `the cached modern verdict was contradicted: ${(error as Error).message}`;
  }

  /** retry.ts: the schemas the Mcp-Param headers come from, listed again. */
  private relist(options: CallOptions): Promise<unknown> {
    this.lists.delete('tools/list');
    return this.listTools(options);
  }

  private recordIdentity(identity: ServerIdentity): void {
    this.serverInfo = identity.serverInfo;
    this.serverCapabilities = identity.serverCapabilities;
    this.instructions = identity.instructions;
  }

  /** The Mcp-Param-* headers of a call, from the tool's schema as the last listTools() saw it; none for a tool without. */
  paramHeadersFor(name: string, args: JsonObject): Record<string, string> | undefined {
    const params = this.toolHeaders?.get(name);
    return params && paramHeaders(params, args);
  }

  /** Every page of a list, reused while the server's ttlMs says it may be (SEP-2549), within one bound over all its pages. */
  private async listAll<T>(method: string, key: string, options?: CallOptions): Promise<T[]> {
    const cached = this.lists.get(method);
    if (cached && cached.expires > this.now()) return cached.items as T[];
    const items: T[] = [];
    const seen = new Set<string>();
    const maxBytes = this.options.limits?.maxListBytes ?? DEFAULT_LIMITS.maxListBytes;
    let bytes = 0;
    let cursor: string | undefined;
    let ttlMs = Infinity;
    for (let page = 0; page < 1000; page++) {
      const result = await this.request(method, cursor ? { cursor } : {}, options);
      const list = result[key];
      if (!Array.isArray(list)) throw new ProtocolError(`${method} answered without a ${key} array`, 'this is a server bug, or the endpoint is not an MCP server');
      bytes += weigh(list).bytes;
      if (bytes > maxBytes) throw new ListLimitError(method, page + 1, bytes, maxBytes);
      items.push(...(list as T[]));
      ttlMs = Math.min(ttlMs, typeof result.ttlMs === 'number' && result.ttlMs >= 0 ? result.ttlMs : 0);
      const next = result.nextCursor;
      if (typeof next !== 'string' || next === '') {
        if (ttlMs > 0) this.lists.set(method, { items, expires: this.now() + ttlMs });
        return items;
      }
      if (seen.has(next)) throw new ProtocolError(`${method} returned the cursor '${next}' twice`, 'the server paginates in a circle: this is a server bug');
      seen.add(next);
      cursor = next;
    }
    throw new ProtocolError(`${method} had more than 1000 pages`, 'the server keeps returning a nextCursor');
  }
}

/** A result missing what its caller reads (a tools/call answered with a tools/list result) is a server bug, said so. */
function expectShape(result: JsonObject, method: string, name: string, field: string, what: string): JsonObject {
  if (Array.isArray(result[field])) return result;
  const has = Object.keys(result).filter((k) => k !== '_meta').join(', ') || 'nothing';
  throw new ProtocolError(`${method} ${name} answered without ${what} (it has ${has})`, 'this is a server bug: the result does not have the shape the method promises');
}

/** HTTP needs nothing but a requester; stdio, and node:child_process with it, loads only when asked for, so the client imports on fetch-only runtimes. */
async function openTransport(target: Target | Transport, options: ConnectOptions): Promise<Transport> {
  const { auth, onTrace: trace, onGone } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  if (typeof target === 'object' && 'request' in target) return target;
  if (typeof target === 'string' || target instanceof URL || 'url' in target) {
    const url = typeof target === 'string' || target instanceof URL ? String(target) : target.url;
    const headers = typeof target === 'object' && 'url' in target ? target.headers : undefined;
    const http = new HttpTransport({ url, headers, requester: requesterFor(options), limits, trace, auth });
    if (typeof target !== 'object' || !('transport' in target) || target.transport !== 'sse') return http;
    return sseOnly(http, options);
  }
  const { StdioTransport } = await import('#stdio');
  return new StdioTransport({ ...target, limits, trace, onGone });
}

/** A target that asks for HTTP+SSE: no fallback to try, so a URL that does not speak it is an error. */
async function sseOnly(http: HttpTransport, options: ConnectOptions): Promise<Transport> {
  const { openSse } = await legacyEra();
  const sse = await openSse(http, options.timeoutMs ?? 30_000, options.signal).catch(async (error: unknown) => {
    await http.close();
    throw error;
  });
  if (sse) return sse;
  await http.close();
  throw new ProtocolError(`${redactUrl(http.url)} opened no HTTP+SSE event stream with an endpoint event`, 'the 2024-11-05 transport answers a GET with an event stream whose first event is `endpoint`; for a Streamable HTTP server, leave the transport to be detected');
}

function requesterFor(options: ConnectOptions): Requester {
  const choice = options.fetch ? 'fetch' : (options.transport ?? 'auto');
  if (choice === 'fetch') return fetchRequester(options.fetch);
  if (choice === 'node' && defaultTransport !== 'node') {
    throw new ProtocolError("transport: 'node' was asked for, but this runtime has no node:http", "leave transport at 'auto', or use 'fetch'");
  }
  return defaultRequester();
}
