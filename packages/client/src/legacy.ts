// The legacy era (2025-11-25 and older). An initialize handshake agrees on a version and, over HTTP,
// opens a session (Mcp-Session-Id). The server may push requests (sampling, elicitation, roots) down a
// POST's response stream, the standalone GET stream or stdout, and the client answers each through the
// same host. A request given up is announced with notifications/cancelled (2025 spec, cancellation:
// the client SHOULD send it; the server otherwise keeps running the tool).

import type { Connection, Send, ServerIdentity, Traits } from './connection.js';
import type { RequestOptions, Wire } from './exchange.js';
import { sessionOf, type HttpSession } from './transport/http/legacy-http.js';
import { kit } from './legacy-kit.js';
import { createdTask, getLegacyTask, LEGACY_CLIENT_TASKS, legacyTaskOps, offersToolTasks, runsAsTask } from './legacy-tasks.js';
import type { Task } from './tasks.js';
import type { ServerRequestAnswer } from './transport/transport.js';
import type { ClientCapabilities, DiscoverResult, Host, Implementation, JsonObject, JsonRpcNotification, JsonRpcRequest, LoggingLevel, Tool } from './types.js';

export interface LegacySettings {
  wire: Wire;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  host: Host;
  logLevel: LoggingLevel | undefined;
}

export class LegacyConnection implements Connection {
  readonly era = 'legacy';
  protocolVersion = '';
  /** initialize's answer: the legacy era's only self-description. */
  identity: ServerIdentity = { serverInfo: undefined, serverCapabilities: {}, instructions: undefined };
  private pushes = 0;
  /** The tools that may run as a task: in the 2025-11-25 form the client asks for one (legacy-tasks.ts). */
  private taskTools: Set<string> | undefined;
  private renewing: Promise<void> | undefined;
  /** The URIs this client is subscribed to (resources/subscribe): a renewed session is subscribed to them again. */
  private readonly subscribed = new Set<string>();
  /** Over Streamable HTTP, the 2025 session's rules (legacy-http.ts); none on stdio or HTTP+SSE. */
  private readonly session: HttpSession | undefined;

  private constructor(private readonly settings: LegacySettings) {
    this.session = sessionOf(settings.wire.transport);
  }

  /**
   * A session on a held connection (stdio, HTTP+SSE), or one the server named (Mcp-Session-Id): what the server pushes
   * comes back on it. A stateless server keeps none, and cannot ask at all.
   */
  get traits(): Traits {
    const sessionful = this.settings.wire.transport.held || this.session?.id !== undefined;
    return { pushes: sessionful, inputRounds: false, sessionful, changes: sessionful ? 'session' : 'none', mirrorsHeaders: false };
  }

  /** Runs the handshake with `version`; the server may agree on another it names. */
  static async open(settings: LegacySettings, version: string): Promise<LegacyConnection> {
    const connection = new LegacyConnection(settings);
    await connection.initialize(version);
    return connection;
  }

  /** One request, in a new session if the server lost this one; the subscriptions it makes are kept for that. */
  async request(method: string, params: JsonObject = {}, options: RequestOptions = {}): Promise<JsonObject> {
    const uri = typeof params.uri === 'string' ? params.uri : undefined;
    // Given up whether or not the server takes it: a renewed session must not be subscribed again.
    if (method === 'resources/unsubscribe' && uri !== undefined) this.subscribed.delete(uri);
    const result = await this.renewingOnce(method, params, options);
    if (method === 'resources/subscribe' && uri !== undefined) this.subscribed.add(uri);
    return result;
  }

  /**
   * A 404 to a request that carried Mcp-Session-Id says the server no longer knows the session (spec 2025-11-25,
   * session management: the client MUST start a new one). The server refused the request, so it never ran: a new
   * session is started, once, and the request sent again.
   */
  private async renewingOnce(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject> {
    const session = this.session?.id;
    try {
      return await this.send(method, params, options);
    } catch (error) {
      if (session === undefined || !sessionRefused(error)) throw error;
      try {
        await this.renew(session, `a 404 to ${method}, which is sent again`);
        return await this.send(method, params, options);
      } catch (again) {
        throw sessionRefused(again) ? sessionLost(method, again) : again;
      }
    }
  }

  private async send(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject> {
    const request = kit.message(method, params, options, params._meta as JsonObject | undefined);
    const reply = await kit.exchange(this.settings.wire, request, this.headers(), options, (pushed, signal) => this.answer(pushed, method, params, signal));
    return kit.resultOf(reply, method, params, this.protocolVersion);
  }

  /**
   * A new session in place of `stale`, subscribed to what the old one was (a subscription the new session refuses
   * fails the request that found the session lost, rather than going quiet); requests refused together start one
   * between them.
   */
  private renew(stale: string, found: string): Promise<void> {
    if (this.session?.id !== stale) return this.renewing ?? Promise.resolve();
    this.session.forget();
    this.renewing = this.initialize(this.protocolVersion)
      .then(() => this.resubscribe())
      .then(() => {
        const again = this.subscribed.size > 0 ? `, subscribed again to ${this.subscribed.size} resource(s)` : '';
        this.settings.host.sessionRenewed?.(`the server no longer knew the 2025 session (${found}): a new session was started${again}; what else the old one held on the server is gone`);
      })
      .finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  private async resubscribe(): Promise<void> {
    for (const uri of this.subscribed) await this.send('resources/subscribe', { uri }, {});
  }

  /** The legacy era has no MRTR: input arrives as pushes during the one request, answered by the host. */
  input(_method: string, _name: string, params: JsonObject, _options: RequestOptions, send: (params: JsonObject) => Promise<JsonObject>): Promise<JsonObject> {
    return send(params);
  }

  async discover(): Promise<{ identity: ServerIdentity; result: DiscoverResult }> {
    throw new kit.ProtocolError('server/discover is a modern-era method and this server speaks the legacy era', 'use the initialize result instead: serverInfo and serverCapabilities are on the client');
  }

  listedTools(tools: Tool[]): void {
    this.taskTools = new Set(tools.filter(runsAsTask).map((tool) => tool.name));
  }

  async asksForTask(name: string, list: () => Promise<unknown>): Promise<boolean> {
    if (this.settings.capabilities.extensions?.[kit.TASKS_EXTENSION] === undefined) return false;
    if (!offersToolTasks(this.identity.serverCapabilities)) return false;
    if (this.taskTools === undefined) await list();
    return this.taskTools?.has(name) ?? false;
  }

  createdTask(result: JsonObject, what: string): Task | undefined {
    return createdTask(result, what);
  }

  taskOps(send: Send, onTask?: (task: Task) => void) {
    return legacyTaskOps(send, onTask);
  }

  getTask(send: Send, taskId: string): Promise<Task> {
    return getLegacyTask(send, taskId);
  }

  /** The session is told; a renewed session is told again at its initialize. */
  async setLogLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    await this.request('logging/setLevel', { level }, options);
    this.settings.logLevel = level;
  }

  private async initialize(version: string): Promise<void> {
    const { wire, clientInfo, logLevel } = this.settings;
    const params = { protocolVersion: version, capabilities: this.capabilities(), clientInfo };
    // No MCP-Protocol-Version on initialize: the header names an agreed version, and the SDK refuses
    // an initialize that carries a modern one (-32020, curl L4 in sdk-2.4.0-wire.md).
    const reply = await kit.exchange(wire, kit.message('initialize', params, {}), {}, {});
    const result = kit.resultOf(reply, 'initialize', params, undefined);
    const agreed = String(result.protocolVersion);
    if (!kit.LEGACY_VERSIONS.includes(agreed)) {
      throw new kit.ProtocolError(`the server wants protocol version ${agreed}, which byhand does not speak`, `byhand speaks ${[...kit.MODERN_VERSIONS, ...kit.LEGACY_VERSIONS].join(', ')}`);
    }
    this.protocolVersion = agreed;
    this.identity = {
      serverInfo: result.serverInfo as Implementation | undefined,
      serverCapabilities: (result.capabilities ?? {}) as JsonObject,
      instructions: result.instructions as string | undefined,
    };
    const deadline = new kit.Deadline('notifications/initialized', wire.timeoutMs, wire.signal);
    try {
      await wire.transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' }, { deadline, headers: this.headers() });
    } catch (error) {
      // The session issued a moment ago is already unknown: another instance took the notification.
      throw sessionRefused(error) ? sessionLost('notifications/initialized', error) : error;
    } finally {
      deadline.dispose();
    }
    // A 2025 session's standalone GET stream, or the one stream of HTTP+SSE (or stdout), between requests.
    const between = {
      headers: this.headers(),
      onServerRequest: (request: JsonRpcRequest) => this.answer(request, 'the event stream', {}, wire.signal ?? new AbortController().signal),
      onNotification: (notification: JsonRpcNotification) => wire.onNotification?.(notification),
    };
    // Said to the host, which may be waiting for what can no longer come (a watch).
    const ended = (reason: string) =>
      this.settings.host.eventsEnded?.(`${reason}: list changes, resource updates and the server's own requests between calls will not arrive in this session`);
    // A session the stream finds lost is renewed with no request waiting on it: a renewal that fails is the host's to hear.
    const renew = (stale: string) => void this.renew(stale, 'its event stream was refused with a 404').catch((error: unknown) => ended(`the server no longer knows the session, and a new one could not be started (${(error as Error).message})`));
    if (this.session) this.session.listen(between, wire.timeoutMs, renew, ended);
    else wire.transport.listen?.(between, wire.timeoutMs, ended);
    // The legacy way to ask for logs: once for the session (the modern era asks per request).
    if (logLevel && this.identity.serverCapabilities.logging) await this.request('logging/setLevel', { level: logLevel });
  }

  private headers(): Record<string, string> {
    return { 'mcp-protocol-version': this.protocolVersion };
  }


  /** The 2025 shape of the same capabilities: roots may say listChanged, and byhand never sends that notification. */
  private capabilities(): ClientCapabilities {
    const caps = { ...this.settings.capabilities };
    if (caps.roots) caps.roots = { listChanged: false };
    // The tasks extension's 2025-11-25 ancestor is a capability of its own (legacy-tasks.ts).
    if (caps.extensions?.[kit.TASKS_EXTENSION] !== undefined) caps.tasks = LEGACY_CLIENT_TASKS;
    return caps;
  }

  /** A server-to-client request, answered through the host as its MRTR twin would be. */
  private async answer(request: JsonRpcRequest, method: string, params: JsonObject, signal: AbortSignal): Promise<ServerRequestAnswer> {
    if (request.method === 'ping') return { result: {} };
    const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : '';
    const ctx = { key: String(request.id), method, name, round: ++this.pushes, era: 'legacy' as const, signal };
    try {
      return { result: (await kit.fulfil(this.settings.host, request, ctx)) as unknown as JsonObject };
    } catch (error) {
      const code = error instanceof kit.HostError ? -1 : error instanceof kit.McpError && error.code === 'protocol' ? -32601 : -32603;
      return { error: { code, message: (error as Error).message } };
    }
  }
}

/** A 404 answer to a request that carried the session: the session is gone, whatever the body says. */
function sessionRefused(error: unknown): error is InstanceType<typeof kit.HttpStatusError> | InstanceType<typeof kit.RpcError> {
  return (error instanceof kit.HttpStatusError || error instanceof kit.RpcError) && error.status === 404;
}

function sessionLost(method: string, error: InstanceType<typeof kit.HttpStatusError> | InstanceType<typeof kit.RpcError>): Error {
  const said = (error instanceof kit.HttpStatusError ? error.body.trim() : error.message).slice(0, 300);
  return new kit.McpError(
    'session',
    `${method}: the server no longer knows the session, even one started afresh (it expired, the server restarted, or another instance holds it)${said ? `; the server said: ${said}` : ''}`,
    'behind a load balancer every request of a session must reach the instance that started it (sticky routing on Mcp-Session-Id); otherwise the server is dropping sessions: see its logs',
    undefined,
    { cause: error },
  );
}
