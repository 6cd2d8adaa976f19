// One toolbox = one URL serving both eras. The edge here does what the SDK entry deliberately leaves to the caller
// (Host/Origin checks, a body cap it applies before anything is parsed), then routes: a request carrying the modern
// `_meta` envelope goes to createMcpHandler (stateless, a fresh server per request); anything else is 2025-era
// traffic, served either per request (no pushes possible) or through sessions (pushes possible).

import {
  createMcpHandler,
  isLegacyRequest,
  legacyStatelessFallback,
  McpServer,
  readRequestBody,
  type CacheHint,
  type McpRequestContext,
  type McpServerOptions,
  type ServerNotifier,
} from '@modelcontextprotocol/server';
import { clientAddressOf, rememberClientAddress } from './client-address.js';
import { readBodyOf } from './request-body.js';
import { surelyModern } from './era.js';
import { hostGuard } from './host-check.js';
import { LegacySessions } from './sessions.js';
import { calledTool, recordingTools, replayTool, type RecordedTool } from './narrow.js';
import { createStateKit, rememberBody, rememberedBody, type StateKeySource, type StateKit, type StateRefusal } from './state.js';

export const SERVER_VERSION = '0.1.0';

/** How a toolbox serves 2025-era clients. */
export type LegacyMode = 'stateless' | 'sessionful';

export interface ToolboxInfo {
  /** Registry key and the last path segment, e.g. `kitchen`. */
  name: string;
  title: string;
  description: string;
  /** Mount path under the Node server, e.g. `/api/kitchen`. */
  path: string;
  /** The default legacy posture and why it was chosen. */
  legacy: LegacyMode;
  legacyReason: string;
}

/** What a toolbox's registration code gets for one server instance. */
export interface BuildContext {
  era: 'modern' | 'legacy';
  /** True when this instance lives for a whole 2025 session (server-to-client requests can be answered). */
  sessionful: boolean;
  state: StateKit;
  /** The handler's subscriptions/listen notifier (modern era). */
  notify: () => ServerNotifier | undefined;
}

/** What a toolbox's code builds: the registry (toolboxes/registry.ts) says who it is. */
export interface ToolboxSpec {
  instructions?: string;
  capabilities?: McpServerOptions['capabilities'];
  /** Per-operation cache hints for the cacheable 2026-07-28 results. */
  cacheHints?: McpServerOptions['cacheHints'];
  register(server: McpServer, ctx: BuildContext): void;
  /**
   * What a server narrowed to one tool needs besides the tool's own registration, which narrow.ts plays again (a
   * gate over tools/call, say); `tool` is its name. A tool's code must keep neither the server it was registered on
   * nor anything of one request: its registration serves every request that calls it.
   */
  narrowed?(server: McpServer, tool: string): void;
  /** Resolves once what the registrations need (e.g. a database) is reachable. */
  ready?: () => Promise<void>;
  /** Releases resources the spec's registrations hold (e.g. a database). */
  dispose?: () => Promise<void> | void;
}

export interface EdgeOptions {
  /** Hostnames accepted in Host and Origin headers (no ports). Loopback names are always accepted. */
  allowedHosts?: readonly string[];
  /** Bytes; larger bodies get 413 before anything is parsed. */
  maxBodyBytes?: number;
  /** Overrides the toolbox's default legacy posture. */
  legacy?: LegacyMode;
  stateKey: StateKeySource;
  stateTtlSeconds?: number;
  /** The clock a requestState's expiry is read on; default Date.now. */
  now?: () => number;
  /** Idle timeout for 2025 sessions. */
  sessionIdleMs?: number;
  /** 2025 sessions held at once (500 by default); a full table evicts a never-used session first. */
  maxSessions?: number;
  onerror?: (error: Error) => void;
  /** Told of each requestState refused, and why (state.ts): the client only learns it was refused. */
  onStateRefused?: (refusal: StateRefusal) => void;
}

export interface ToolboxHandler {
  readonly info: ToolboxInfo;
  /** The legacy posture in effect. */
  readonly legacy: LegacyMode;
  fetch(request: Request): Promise<Response>;
  /** Resolves once the toolbox's storage is reachable (servers call it to fail at start, not on a first request). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export { LOOPBACK_HOSTS } from './host-check.js';

export const DEFAULT_LIST_CACHE: CacheHint = { ttlMs: 60_000, cacheScope: 'public' };

/** Arguments nested deeper than this are refused at the edge: no tool needs them, and recursive code after the edge
 * (binding requestState, schema validation) must not meet a million-level array. */
export const MAX_JSON_DEPTH = 64;

function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

/** Depth of a parsed JSON value, without recursion (the value may be as deep as the body is long). */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * What the edge refuses before the era is decided: the SDK would otherwise answer these with a session error. A
 * posted response can only answer a request a 2025 session sent, so without a session id it answers nothing.
 */
function malformed(body: unknown, sessionId: string | null): Response | undefined {
  if (body === undefined) return rpcError(400, -32700, 'Parse error: the body is empty or not JSON');
  if (depthExceeds(body, MAX_JSON_DEPTH)) return rpcError(400, -32600, `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return rpcError(400, -32600, 'Invalid Request: an empty batch');
  for (const message of messages) {
    if (message === null || typeof message !== 'object' || Array.isArray(message) || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      return rpcError(400, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
    }
  }
  if (sessionId === null && messages.every((m) => !('method' in (m as object)))) {
    return rpcError(400, -32600, 'Invalid Request: a JSON-RPC response can only answer a request of a 2025 session, and this POST names none');
  }
  return undefined;
}

function tooLarge(limit: number): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: `Request body exceeds the ${limit}-byte limit` }, id: null },
    { status: 413 },
  );
}

/** `loading` is the toolbox's code, loaded on first use: the registry names a toolbox without loading it. */
export function mountToolbox(info: ToolboxInfo, loading: Promise<ToolboxSpec>, options: EdgeOptions): ToolboxHandler {
  // Read only once `loaded` has settled: fetch awaits it before anything builds a server.
  let spec: ToolboxSpec = { register: () => {} };
  const loaded = loading.then((built) => {
    spec = built;
  });
  // A toolbox that fails to load says so on each request and at ready(); the rejection is never left unhandled.
  loaded.catch(() => {});
  const legacyMode = options.legacy ?? info.legacy;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const refuseForeignHost = hostGuard(options.allowedHosts ?? []);
  const state = createStateKit(info.name, options.stateKey, options.stateTtlSeconds, options.now, options.onStateRefused);
  const onerror = options.onerror;

  const newServer = (): McpServer => {
    const server = new McpServer(
      { name: `byhand-${info.name}`, title: info.title, description: info.description, version: SERVER_VERSION },
      {
        ...(spec.instructions !== undefined ? { instructions: spec.instructions } : {}),
        ...(spec.capabilities !== undefined ? { capabilities: spec.capabilities } : {}),
        cacheHints: {
          'tools/list': DEFAULT_LIST_CACHE,
          'prompts/list': DEFAULT_LIST_CACHE,
          'resources/list': DEFAULT_LIST_CACHE,
          'resources/templates/list': DEFAULT_LIST_CACHE,
          'server/discover': DEFAULT_LIST_CACHE,
          ...spec.cacheHints,
        },
        requestState: { verify: state.verify },
      },
    );
    if (onerror !== undefined) server.server.onerror = onerror;
    return server;
  };

  /** `view`: what the spec registers on (narrow.ts), the server itself by default. */
  const build = (era: 'modern' | 'legacy', sessionful: boolean, view: (server: McpServer) => McpServer = (server) => server): McpServer => {
    const server = newServer();
    spec.register(view(server), { era, sessionful, state, notify: () => modern.notify });
    return server;
  };

  // Each tool's modern registration, recorded once on a server that serves nothing (narrow.ts), so a tools/call of one
  // of them is served by a server with that registration alone; a name the toolbox lacks gets the full server and its
  // usual error.
  let modernTools: Map<string, RecordedTool> | undefined;
  const knownTools = (): ReadonlyMap<string, RecordedTool> => {
    if (modernTools === undefined) {
      const tools = new Map<string, RecordedTool>();
      let recording: ReturnType<typeof recordingTools> | undefined;
      build('modern', false, (server) => (recording = recordingTools(server, tools)).server);
      recording?.done();
      modernTools = tools;
    }
    return modernTools;
  };
  const narrowed = (tool: RecordedTool): McpServer => {
    const server = newServer();
    replayTool(server, tool);
    spec.narrowed?.(server, tool.args[0] as string);
    return server;
  };
  const factory = (ctx: McpRequestContext): McpServer => {
    const only = ctx.era === 'modern' ? calledTool(rememberedBody(ctx.requestInfo), knownTools()) : undefined;
    return only === undefined ? build(ctx.era, false) : narrowed(only);
  };
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    maxRequestBodySize: maxBodyBytes,
    ...(onerror !== undefined ? { onerror } : {}),
  });
  const sessions =
    legacyMode === 'sessionful'
      ? new LegacySessions({
          createServer: () => build('legacy', true),
          maxRequestBodySize: maxBodyBytes,
          resumable: true,
          ...(options.sessionIdleMs !== undefined ? { idleMs: options.sessionIdleMs } : {}),
          ...(options.maxSessions !== undefined ? { maxSessions: options.maxSessions } : {}),
          ...(onerror !== undefined ? { onerror } : {}),
        })
      : undefined;
  const stateless = legacyStatelessFallback(factory, onerror, { maxRequestBodySize: maxBodyBytes });

  async function fetch(incoming: Request): Promise<Response> {
    await loaded;
    // DNS-rebinding protection: a page on a foreign origin must not reach a loopback server through a rebound name.
    const refused = refuseForeignHost(incoming);
    if (refused !== undefined) return refused;

    let request = incoming;
    let parsedBody: unknown;
    /** The body text of a POST. */
    let read: string | undefined;
    if (incoming.method === 'POST') {
      // Read whole already by the server that accepted it (request-body.ts), or read here from its stream.
      const buffered = readBodyOf(incoming);
      const body = buffered !== undefined ? { text: buffered.text, tooLarge: buffered.bytes > maxBodyBytes } : await readRequestBody(incoming, maxBodyBytes).catch(() => undefined);
      if (body === undefined) {
        return rpcError(400, -32700, 'Parse error: unreadable body');
      }
      if (body.tooLarge) return tooLarge(maxBodyBytes);
      read = body.text;
      try {
        parsedBody = read.trim() === '' ? undefined : JSON.parse(read);
      } catch {
        parsedBody = undefined;
      }
      const refused = malformed(parsedBody, incoming.headers.get('mcp-session-id'));
      if (refused !== undefined) return refused;
      if (parsedBody !== undefined) rememberBody(incoming, parsedBody);
    }

    const legacy = !surelyModern(parsedBody) && (await isLegacyRequest(incoming, parsedBody, { maxRequestBodySize: maxBodyBytes }));
    const forwarded = parsedBody === undefined ? undefined : { parsedBody };
    // Given the parsed body, the modern entry reads nothing more from the request (classifyEntryRequest,
    // @modelcontextprotocol/server dist/index.mjs), so it gets the one already read: no second Request per call.
    if (!legacy) return modern.fetch(incoming, forwarded);
    // The 2025 transports may read the body again, so they get a readable copy.
    if (read !== undefined) {
      request = new Request(incoming.url, { method: 'POST', headers: incoming.headers, body: read, signal: incoming.signal });
      if (parsedBody !== undefined) rememberBody(request, parsedBody);
      rememberClientAddress(request, clientAddressOf(incoming));
    }
    if (sessions !== undefined) return sessions.handle(request, parsedBody);
    return stateless(request, forwarded);
  }

  return {
    info,
    legacy: legacyMode,
    fetch,
    ready: async () => {
      await loaded;
      await spec.ready?.();
    },
    async close() {
      await modern.close();
      await sessions?.close();
      await loaded.catch(() => {});
      await spec.dispose?.();
    },
  };
}
