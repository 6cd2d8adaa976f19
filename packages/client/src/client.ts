// The client: one API over both eras and both transports. The era is found by trying (negotiate.ts),
// recorded on the client and cached per endpoint for the life of the process.

import { Deadline } from './deadline.js';
import { capabilitiesFor, envelope, META } from './envelope.js';
import { McpError, ProtocolError, RpcError, HostError } from './errors.js';
import { fulfil } from './fulfil.js';
import { headerParams, paramHeaders, standardHeaders, type HeaderParam } from './headers.js';
import { HttpTransport, type HttpAuth } from './http.js';
import { DEFAULT_MAX_ROUNDS, INPUT_METHODS, inputRequiredMisplaced, withInputRounds, type RoundEvent } from './mrtr.js';
import { classifyProbe } from './negotiate.js';
import type { Exchange, Reply, ServerRequestAnswer, Trace, Transport } from './transport.js';
import type {
  CallToolResult, ClientCapabilities, DiscoverResult, Era, GetPromptResult, Host, Implementation, JsonObject,
  JsonRpcNotification, JsonRpcRequest, Prompt, ReadResourceResult, Resource, ResourceTemplate, Tool,
} from './types.js';
import { LEGACY_VERSIONS, MODERN_VERSIONS } from './versions.js';

export type Target = string | URL | { url: string; headers?: Record<string, string> } | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string };

export interface ConnectOptions {
  /** 'auto' (default) negotiates by trying; a pin is for tests and diagnosis, and never falls back. */
  era?: 'auto' | Era;
  host?: Host;
  clientInfo?: Implementation;
  /** Per request, excluding time the host spends on input. Default 30 s. */
  timeoutMs?: number;
  /** How long a stdio server may stay silent on server/discover before it is taken as legacy. Default 3 s. */
  probeTimeoutMs?: number;
  /** Input rounds per MRTR request. Default 10. */
  maxRounds?: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Every message sent and received, as it happens. */
  onTrace?: Trace;
  /** Each MRTR round: what the server asked for, what the host answered. */
  onRound?: (event: RoundEvent) => void;
  onNotification?: (notification: JsonRpcNotification) => void;
  /** HTTP authorization (OAuth, or any bearer source). */
  auth?: HttpAuth;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export interface Negotiation {
  /** How the era was settled. */
  how: 'probe' | 'cached' | 'pinned';
  /** Set when a -32022 made the client retry with another version. */
  retriedWith?: string;
  /** Set when the client fell back to the legacy handshake: the evidence. */
  fellBack?: string;
}

const eraCache = new Map<string, { era: Era; protocolVersion: string }>();

/** Forget the cached era verdicts (tests, or a server known to have changed). */
export function forgetEras(): void {
  eraCache.clear();
}

export async function connect(target: Target, options: ConnectOptions = {}): Promise<Client> {
  const client = new Client(target, options, await openTransport(target, options));
  try {
    await client.open();
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return client;
}

let ids = 0;

export class Client {
  era: Era | undefined;
  protocolVersion: string | undefined;
  serverInfo: Implementation | undefined;
  serverCapabilities: JsonObject = {};
  instructions: string | undefined;
  discovered: DiscoverResult | undefined;
  negotiation: Negotiation = { how: 'probe' };
  /** Tools left out of listTools() because their x-mcp-header annotations are invalid. */
  excludedTools: { name: string; reason: string }[] = [];

  readonly capabilities: ClientCapabilities;
  private transport: Transport;
  private readonly host: Host;
  private readonly clientInfo: Implementation;
  private readonly options: ConnectOptions;
  /** The Mcp-Param-* mirrors of each listed tool, worked out once at listTools(). */
  private toolHeaders: Map<string, HeaderParam[]> | undefined;

  constructor(private readonly target: Target, options: ConnectOptions, transport: Transport) {
    this.options = options;
    this.host = options.host ?? {};
    this.capabilities = capabilitiesFor(this.host);
    this.clientInfo = options.clientInfo ?? { name: 'byhand', version: '0.1.0' };
    this.transport = transport;
  }

  /** The server's recent stderr (stdio only): where a failing server usually says why. */
  get stderr(): string {
    return this.transport.stderr ?? '';
  }

  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }

  get transportKind(): 'http' | 'stdio' {
    return this.transport.kind;
  }

  async open(): Promise<void> {
    const mode = this.options.era ?? 'auto';
    if (mode === 'legacy') {
      this.negotiation = { how: 'pinned' };
      return this.initialize(LEGACY_VERSIONS[0]);
    }
    const cached = mode === 'auto' ? eraCache.get(this.transport.key) : undefined;
    if (cached) {
      this.negotiation = { how: 'cached' };
      if (cached.era === 'legacy') return this.initialize(cached.protocolVersion);
      return this.settleModern(cached.protocolVersion);
    }
    if (mode === 'modern') this.negotiation = { how: 'pinned' };
    await this.probe(mode === 'auto');
  }

  async listTools(options?: CallOptions): Promise<Tool[]> {
    const all = await this.listAll<Tool>('tools/list', 'tools', options);
    const kept: Tool[] = [];
    this.excludedTools = [];
    this.toolHeaders = new Map();
    for (const tool of all) {
      // Only HTTP mirrors arguments into headers, so only HTTP must refuse a bad annotation (SEP-2243).
      const check = this.transport.kind === 'http' ? headerParams(tool) : { params: [] };
      if ('invalid' in check) {
        this.excludedTools.push({ name: tool.name, reason: check.invalid });
        continue;
      }
      kept.push(tool);
      this.toolHeaders.set(tool.name, check.params);
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

  async callTool(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<CallToolResult> {
    const excluded = this.excludedTools.find((t) => t.name === name);
    if (excluded) {
      throw new ProtocolError(`tool '${name}' was left out of tools/list: ${excluded.reason}`, 'a tool with an invalid x-mcp-header must not be called over HTTP (SEP-2243); the server must fix its schema');
    }
    let refreshed = false;
    const send = async (params: JsonObject): Promise<JsonObject> => {
      try {
        return await this.request('tools/call', params, options, this.paramHeadersFor(name, args));
      } catch (error) {
        // A schema that changed since tools/list shows as an Mcp-Param mismatch: list again, once (streamable-http.mdx L539-544).
        if (refreshed || !(error instanceof RpcError) || error.code !== -32020 || !/Mcp-Param/i.test(error.message)) throw error;
        refreshed = true;
        await this.listTools(options);
        return this.request('tools/call', params, options, this.paramHeadersFor(name, args));
      }
    };
    return (await this.withInput('tools/call', name, { name, arguments: args }, send, options.signal)) as unknown as CallToolResult;
  }

  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    const send = (params: JsonObject) => this.request('resources/read', params, options);
    return (await this.withInput('resources/read', uri, { uri }, send, options.signal)) as unknown as ReadResourceResult;
  }

  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    const send = (params: JsonObject) => this.request('prompts/get', params, options);
    return (await this.withInput('prompts/get', name, { name, arguments: args }, send, options.signal)) as unknown as GetPromptResult;
  }

  async discover(options: CallOptions = {}): Promise<DiscoverResult> {
    if (this.era === 'legacy') {
      throw new ProtocolError('server/discover is a modern-era method and this server speaks the legacy era', 'use the initialize result instead: serverInfo and serverCapabilities are on the client');
    }
    const result = (await this.request('server/discover', {}, options)) as unknown as DiscoverResult;
    this.recordDiscover(result);
    return result;
  }

  /** Any request, with the era's envelope and headers; throws McpError on a JSON-RPC error. */
  async request(method: string, params: JsonObject = {}, options: CallOptions = {}, extraHeaders: Record<string, string> = {}): Promise<JsonObject> {
    let reply = await this.send(method, params, options, extraHeaders);
    if (reply.message.error?.code === -32022 && this.era === 'modern') {
      // The server changed its versions under us: one retry with one it names (spec versioning.mdx L69-71),
      // read by the same rule as the probe's.
      const verdict = classifyProbe(reply, this.protocolVersion!, this.transport.kind);
      if (verdict.kind === 'retry') {
        this.settleModern(verdict.version);
        reply = await this.send(method, params, options, extraHeaders);
      }
    }
    return this.unwrap(reply, method, params);
  }

  async close(): Promise<void> {
    await this.transport.close();
  }

  // ---- era negotiation ----------------------------------------------------

  private async probe(fallback: boolean): Promise<void> {
    let version: string = MODERN_VERSIONS[0];
    const timeoutMs = this.transport.kind === 'stdio' ? (this.options.probeTimeoutMs ?? 3000) : this.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.send('server/discover', {}, { timeoutMs }, {}, version).catch((error: Error) => error);
      const verdict = classifyProbe(outcome, version, this.transport.kind);
      if (verdict.kind === 'modern') {
        this.settleModern(verdict.version);
        this.recordDiscover(verdict.result as unknown as DiscoverResult);
        return;
      }
      if (verdict.kind === 'retry' && attempt === 0) {
        version = verdict.version;
        this.negotiation.retriedWith = version;
        continue;
      }
      if (verdict.kind === 'legacy') {
        if (!fallback) {
          throw new ProtocolError(`the server did not answer as a modern server (${verdict.reason})`, 'the era is pinned to modern, so the client does not fall back; it probably speaks the legacy era');
        }
        this.negotiation.fellBack = verdict.reason;
        if (this.transport.hasExited) this.transport = await openTransport(this.target, this.options);
        return this.initialize(verdict.version ?? LEGACY_VERSIONS[0]);
      }
      const failed = verdict.kind === 'error' ? verdict.error : (outcome as Reply);
      if (failed instanceof Error) throw failed;
      throw this.errorFrom(failed, 'server/discover', {}, version);
    }
  }

  private async initialize(version: string): Promise<void> {
    const params = { protocolVersion: version, capabilities: this.legacyCapabilities(), clientInfo: this.clientInfo };
    // No MCP-Protocol-Version on initialize: the header names an agreed version, and the SDK refuses
    // an initialize that carries a modern one (-32020, curl L4 in sdk-2.4.0-wire.md).
    const reply = await this.send('initialize', params, {}, {}, null);
    const result = this.unwrap(reply, 'initialize', params);
    const agreed = String(result.protocolVersion);
    if (!(LEGACY_VERSIONS as readonly string[]).includes(agreed)) {
      throw new ProtocolError(`the server wants protocol version ${agreed}, which byhand does not speak`, `byhand speaks ${[...MODERN_VERSIONS, ...LEGACY_VERSIONS].join(', ')}`);
    }
    this.era = 'legacy';
    this.protocolVersion = agreed;
    this.serverInfo = result.serverInfo as Implementation | undefined;
    this.serverCapabilities = (result.capabilities ?? {}) as JsonObject;
    this.instructions = result.instructions as string | undefined;
    const deadline = new Deadline('notifications/initialized', this.timeoutMs, this.options.signal);
    try {
      await this.transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' }, { deadline, headers: this.headersFor('notifications/initialized', undefined, agreed) });
    } finally {
      deadline.dispose();
    }
    eraCache.set(this.transport.key, { era: 'legacy', protocolVersion: agreed });
    if (this.transport instanceof HttpTransport && this.transport.sessionId) {
      this.transport.listen({
        headers: { 'MCP-Protocol-Version': agreed },
        onServerRequest: (request) => this.answerServerRequest(request, 'the event stream', {}, this.options.signal ?? new AbortController().signal),
        onNotification: (notification) => this.options.onNotification?.(notification),
      });
    }
  }

  private settleModern(version: string): void {
    this.era = 'modern';
    this.protocolVersion = version;
    eraCache.set(this.transport.key, { era: 'modern', protocolVersion: version });
  }

  private recordDiscover(result: DiscoverResult): void {
    this.discovered = result;
    this.serverCapabilities = (result.capabilities ?? {}) as JsonObject;
    this.instructions = result.instructions;
    // The final spec moved serverInfo into _meta (PR #3002); older mocks still put it in the body.
    this.serverInfo = (result._meta?.[META.serverInfo] ?? result.serverInfo) as Implementation | undefined;
  }

  private legacyCapabilities(): ClientCapabilities {
    const caps = { ...this.capabilities };
    if (caps.roots) caps.roots = { listChanged: false };
    return caps;
  }

  // ---- one request on the wire --------------------------------------------

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? 30_000;
  }

  /**
   * Sends one JSON-RPC request and returns its reply, error or not. `version` overrides the agreed
   * protocol version; null sends none (the legacy handshake).
   */
  private async send(method: string, params: JsonObject, options: CallOptions, extraHeaders: Record<string, string>, version?: string | null): Promise<Reply> {
    const protocolVersion = version === undefined ? this.protocolVersion : (version ?? undefined);
    const modern = version === undefined ? this.era === 'modern' : version !== null && !(LEGACY_VERSIONS as readonly string[]).includes(version);
    const progressToken = options.onProgress ? `byhand-${++ids}` : undefined;
    const extraMeta = progressToken ? { ...(params._meta as JsonObject), progressToken } : (params._meta as JsonObject | undefined);
    const body: JsonObject = modern
      ? { ...params, _meta: envelope(protocolVersion!, this.capabilities, this.clientInfo, extraMeta) }
      : extraMeta ? { ...params, _meta: extraMeta } : params;
    const message: JsonRpcRequest = { jsonrpc: '2.0', id: ++ids, method, params: body };
    const deadline = new Deadline(method, options.timeoutMs ?? this.timeoutMs, options.signal ?? this.options.signal);
    const exchange: Exchange = {
      deadline,
      headers: { ...this.headersFor(method, body, protocolVersion), ...extraHeaders },
      onServerRequest: (request) => this.answerServerRequest(request, method, body, deadline.signal),
      onNotification: (notification) => {
        const p = notification.params as JsonObject | undefined;
        if (notification.method === 'notifications/progress' && progressToken !== undefined && p?.progressToken === progressToken) {
          options.onProgress?.({ progress: Number(p.progress), total: p.total as number | undefined, message: p.message as string | undefined });
        }
        this.options.onNotification?.(notification);
      },
    };
    try {
      return await this.transport.request(message, exchange);
    } finally {
      deadline.dispose();
    }
  }

  private headersFor(method: string, params: JsonObject | undefined, protocolVersion: string | undefined): Record<string, string> {
    const headers = standardHeaders(method, params, protocolVersion ?? '');
    if (!protocolVersion) delete headers['MCP-Protocol-Version'];
    return headers;
  }

  private paramHeadersFor(name: string, args: JsonObject): Record<string, string> {
    const params = this.toolHeaders?.get(name);
    return params ? paramHeaders(params, args) : {};
  }

  private unwrap(reply: Reply, method: string, params: JsonObject): JsonObject {
    if (reply.message.error) throw this.errorFrom(reply, method, params, this.protocolVersion);
    const result = reply.message.result;
    if (!result || typeof result !== 'object') {
      throw new ProtocolError(`${method} got a response with neither result nor error`, 'this is a server bug: a JSON-RPC response carries one of them');
    }
    if (result.resultType === 'input_required' && !INPUT_METHODS.has(method)) throw inputRequiredMisplaced(method);
    return result;
  }

  private errorFrom(reply: Reply, method: string, params: JsonObject, protocolVersion: string | undefined): RpcError {
    const name = (params.name ?? params.uri) as string | undefined;
    const headers = this.transport.kind === 'http' ? this.headersFor(method, params, protocolVersion) : undefined;
    return new RpcError(reply.message.error!, { method, name, protocolVersion, headers }, reply.status);
  }

  private async withInput(method: string, name: string, params: JsonObject, send: (params: JsonObject) => Promise<JsonObject>, signal?: AbortSignal): Promise<JsonObject> {
    if (this.era !== 'modern' || !INPUT_METHODS.has(method)) return send(params);
    return withInputRounds(method, name, params, send, {
      host: this.host,
      maxRounds: this.options.maxRounds ?? DEFAULT_MAX_ROUNDS,
      signal: signal ?? this.options.signal ?? new AbortController().signal,
      onRound: this.options.onRound,
    });
  }

  /** Legacy era: a server-to-client request on the response stream, answered through the same host. */
  private legacyRounds = 0;
  private async answerServerRequest(request: JsonRpcRequest, method: string, params: JsonObject, signal: AbortSignal): Promise<ServerRequestAnswer> {
    if (request.method === 'ping') return { result: {} };
    const name = String(params.name ?? params.uri ?? '');
    const ctx = { key: String(request.id), method, name, round: ++this.legacyRounds, era: 'legacy' as const, signal };
    try {
      return { result: (await fulfil(this.host, request, ctx)) as unknown as JsonObject };
    } catch (error) {
      const code = error instanceof HostError ? -1 : error instanceof McpError && error.code === 'protocol' ? -32601 : -32603;
      return { error: { code, message: (error as Error).message } };
    }
  }

  private async listAll<T>(method: string, key: string, options?: CallOptions): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const result = await this.request(method, cursor ? { cursor } : {}, options);
      const list = result[key];
      if (!Array.isArray(list)) throw new ProtocolError(`${method} answered without a ${key} array`, 'this is a server bug, or the endpoint is not an MCP server');
      items.push(...(list as T[]));
      const next = result.nextCursor;
      if (typeof next !== 'string' || next === '') return items;
      if (seen.has(next)) throw new ProtocolError(`${method} returned the cursor '${next}' twice`, 'the server paginates in a circle: this is a server bug');
      seen.add(next);
      cursor = next;
    }
    throw new ProtocolError(`${method} had more than 1000 pages`, 'the server keeps returning a nextCursor');
  }
}

/** HTTP needs nothing but fetch; stdio, and node:child_process with it, loads only when asked for, so the client imports on fetch-only runtimes. */
async function openTransport(target: Target, options: ConnectOptions): Promise<Transport> {
  const { fetch, auth, onTrace: trace } = options;
  if (typeof target === 'string' || target instanceof URL) return new HttpTransport({ url: String(target), fetch, trace, auth });
  if ('url' in target) return new HttpTransport({ url: target.url, headers: target.headers, fetch, trace, auth });
  const { StdioTransport } = await import('./stdio.js');
  return new StdioTransport({ ...target, trace });
}
