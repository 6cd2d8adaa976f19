// A 2026 host (enveloped requests, `server/discover`) in front of any server. Each request carries the host's
// envelope. In front of a 2026 server the calls that may ask for input (and the tasks they start) pass through: the
// host's envelope goes on with the server's version, the headers are made to agree with it, and the server's
// `input_required` and `requestState` come back untouched, so the server itself holds the -32021 gate on what the
// host declared. In front of a legacy server the back client carries the request, and what the server pushes during
// a call comes back to the host as `input_required` with a signed handle of the call (pending-calls.ts), refused
// with -32021 when the host's envelope does not declare it. A legacy server's tasks reach a host that declares the
// tasks extension in the extension's form: those it runs itself (modern-tasks.ts), or, when it runs none, those the
// bridge makes of the calls its tools/list says may run as tasks (made-tasks.ts).

import { headerParams, META, MODERN_VERSIONS, standardHeaders, TASKS_EXTENSION, type Client, type ClientCapabilities, type JsonObject, type JsonRpcNotification, type JsonRpcRequest, type LoggingLevel, type Tool } from '@byhand/client';
import { admit, checkParamHeaders, refused, type HeaderLookup, type MirroredParam } from './modern-gate.js';
import { forward } from './forward.js';
import { ListenFace, type Notify } from './listen-face.js';
import type { ModernBack, ModernBacks } from './modern-backs.js';
import { declaresTasks, legacyCapabilities, ModernTasks, offersLegacyTasks } from './modern-tasks.js';
import { MadeTasks, mayRunAsTask, type MadeTasksOptions } from './made-tasks.js';
import { carriedCapabilities } from './extensions.js';
import { AnswerError } from './json-rpc-peer.js';
import type { Leased, PendingCalls, Progress, Round } from './pending-calls.js';

/** The requests during which a server may ask for input, and the parameter that names what they are about. */
const INPUT_METHODS: Record<string, string> = { 'tools/call': 'name', 'resources/read': 'uri', 'prompts/get': 'name' };

/** What passes through to a 2026 server as the host sent it: the tasks extension's requests (SEP-2663) with the calls. */
const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

let lastId = 0;

/**
 * A call naming a tool the listing lacks lists the tools again (it may be new), but not more often than this: else
 * every call with a made-up name would make the server list its tools once more.
 */
export const RELIST_AFTER_MS = 5_000;

/**
 * The results a 2026 server must give its caching hints on (SEP-2549). A legacy server gives none, and `tools/list` is
 * rebuilt from every page, so where the server's own are missing the bridge says: not to be reused, not shared.
 */
const CACHEABLE = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);

/** Whether a request is a 2026 one: it carries the envelope, or is server/discover (refused -32602 without one, as a 2026 server does). */
export function isModernRequest(request: JsonRpcRequest): boolean {
  const meta = request.params?._meta as JsonObject | undefined;
  return request.method === 'server/discover' || (meta !== undefined && meta[META.protocolVersion] !== undefined);
}

export class ModernFace {
  /** The host streams of `subscriptions/listen`: a legacy server's notifications go to them (`relay`). */
  readonly listens = new ListenFace();
  /** A legacy server's tasks, for the hosts that declare the extension. */
  private readonly tasks: ModernTasks;
  /** The tasks the bridge makes, in front of a legacy server that runs none. */
  private readonly made: MadeTasks;
  /** Each back's tools, listed once: the Mcp-Param-* headers their schemas ask for (checked, and sent on), which may run as tasks. */
  private readonly listed = new WeakMap<Client, { listing: Promise<Map<string, Listed>>; at: number }>();
  /** The log level each legacy back's session was last told (logging/setLevel). */
  private readonly levels = new WeakMap<Client, LoggingLevel>();
  private readonly now: () => number;

  constructor(
    /** The backs for each set of declared capabilities, opened on first use (modern-backs.ts). */
    private readonly backs: Pick<ModernBacks, 'client' | 'lease'>,
    private readonly pending: PendingCalls,
    options: { now?: () => number; tasks?: MadeTasksOptions } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.tasks = new ModernTasks(backs, pending);
    this.made = new MadeTasks(pending, options.tasks);
  }

  /**
   * `notify`: how a notification reaches the host during this request (a subscription's, the call's progress and logs);
   * `caller` names the host for the per-caller bounds.
   */
  async handle(request: JsonRpcRequest, signal: AbortSignal, notify: Notify, caller: string): Promise<JsonObject> {
    await this.check(request);
    return this.run(request, signal, notify, caller);
  }

  /** A notification of a back's with no request of its own: a subscription's, or a log message of the call it runs. */
  relay(notification: JsonRpcNotification, from: { scope: string; group: string }): void {
    this.listens.relay(notification, from);
    this.pending.relay(notification, from.scope);
  }

  /**
   * What a 2026 server refuses before running a request (modern-gate.ts); on HTTP, `header` also has the headers
   * checked against the body, a tool call's Mcp-Param-* ones against the tool's schema.
   */
  async check(request: JsonRpcRequest, header?: HeaderLookup): Promise<void> {
    admit(request, header);
    if (request.method === 'server/discover' || (request.method !== 'tools/call' && !TASK_METHODS.has(request.method))) return;
    const declared = declaredBy(request);
    const { client } = await this.backs.client(declared);
    // As a 2026 server refuses it (the servers' task-methods.ts): the extension is the caller's to declare. In front
    // of a legacy server the tasks are the bridge's to carry or to make, so it offers them whatever the server runs.
    if (TASK_METHODS.has(request.method) && !client.traits.inputRounds && !declaresTasks(declared)) {
      throw refused(400, -32021, `${request.method} needs the ${TASKS_EXTENSION} extension, which this request's clientCapabilities do not declare`, { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    }
    if (request.method !== 'tools/call' || header === undefined) return;
    checkParamHeaders((await this.toolNamed(client, String(request.params?.name)))?.mirrored ?? [], request.params?.arguments, header);
  }

  /** A request `check` admitted. */
  async run(request: JsonRpcRequest, signal: AbortSignal, notify: Notify, caller: string): Promise<JsonObject> {
    const result = await this.answer(request, signal, notify, caller);
    // A 2026 result says whether it is complete; a legacy server's never does.
    const complete = result.resultType === undefined ? { ...result, resultType: 'complete' } : result;
    return CACHEABLE.has(request.method) && complete.resultType === 'complete' ? withCacheHints(complete) : complete;
  }

  private async answer(request: JsonRpcRequest, signal: AbortSignal, notify: Notify, caller: string): Promise<JsonObject> {
    const params = request.params ?? {};
    const meta = (params._meta ?? {}) as JsonObject;
    const declared = declaredBy(request);
    const back = await this.backs.client(declared);
    const { client } = back;
    if (request.method === 'server/discover') return discoverResult(client);
    if (request.method === 'subscriptions/listen') return this.listens.listen(back, request.id, params, signal, notify);
    const about = INPUT_METHODS[request.method];
    // A server that asks in MRTR rounds takes the host's request as it is, and keeps its own state in its requestState.
    if (client.traits.inputRounds && (about !== undefined || TASK_METHODS.has(request.method))) return this.passThrough(client, request.method, params, signal, notify);
    if (TASK_METHODS.has(request.method)) {
      const { taskId } = params;
      if (typeof taskId !== 'string') throw new AnswerError({ code: -32602, message: `Invalid params: ${request.method} needs a taskId, a string` });
      if (!offersLegacyTasks(client)) {
        if (request.method === 'tasks/get') return this.made.get(taskId);
        return request.method === 'tasks/update' ? this.made.update(taskId, params.inputResponses) : this.made.cancel(taskId);
      }
      if (request.method === 'tasks/get') return this.tasks.get(declared, caller, taskId, signal);
      if (request.method === 'tasks/update') return this.tasks.update(declared, taskId, params.inputResponses);
      return this.tasks.cancel(declared, taskId, signal);
    }
    if (about === undefined) return forward(client, request.method, params, { signal });
    const binding = `${request.method}\0${String(params[about])}`;
    const { inputResponses, requestState, ...call } = params;
    // The server's progress and log messages go to the round the host is waiting on, under that request's own token.
    const round: Round = { signal, notify, ...(isProgressToken(meta.progressToken) ? { progressToken: meta.progressToken } : {}) };
    if (typeof requestState === 'string') return this.pending.resume(requestState, (inputResponses ?? {}) as JsonObject, declared, binding, round);
    // A host that declared the tasks extension gets the task a 2025 server makes; any other, the task's result.
    const asTask = request.method === 'tools/call' && declaresTasks(declared) && offersLegacyTasks(client);
    const logLevel = meta[META.logLevel] as LoggingLevel | undefined;
    const work = async (held: ModernBack, signal: AbortSignal, progress: Progress) => {
      // The call holds its back while it runs, so the session's level is this call's.
      if (logLevel !== undefined) await this.logsAt(held.client, logLevel, signal);
      return asTask ? this.tasks.call(held, call, signal, progress) : forward(held.client, request.method, call, { signal, progress });
    };
    const lease = async (signal: AbortSignal): Promise<Leased> => {
      const { back: held, release } = await this.backs.lease(declared, { asked: (scope) => this.pending.asked(scope), signal });
      return { scope: held.scope, release, run: (s, progress) => work(held, s, progress), flush: () => ping(held.client) };
    };
    const start = { declared, binding, caller, ...(logLevel !== undefined ? { logLevel } : {}), lease };
    // A server that runs no tasks, for a host that declares the extension: the bridge makes the task.
    if (request.method === 'tools/call' && declaresTasks(declared) && !offersLegacyTasks(client) && mayRunAsTask((await this.toolNamed(client, String(params.name)))?.tool)) return this.made.start(start);
    return this.pending.start(start, round);
  }

  /** A legacy back's session told to send log messages at `level` and above, unless it already is (or logs nothing). */
  private async logsAt(client: Client, level: LoggingLevel, signal: AbortSignal): Promise<void> {
    if (client.serverCapabilities.logging === undefined || this.levels.get(client) === level) return;
    await client.setLogLevel(level, { signal });
    this.levels.set(client, level);
  }

  /** The back's tools, by name; listed once (or again, `fresh`). */
  private toolsOf(client: Client, fresh = false): Promise<Map<string, Listed>> {
    const known = fresh ? undefined : this.listed.get(client);
    if (known !== undefined) return known.listing;
    const listing = client.listTools().then((tools) => new Map(tools.map((tool) => [tool.name, { tool, mirrored: mirroredOf(tool) }] as const)));
    const entry = { listing, at: this.now() };
    this.listed.set(client, entry);
    listing.catch(() => this.listed.get(client) === entry && this.listed.delete(client));
    return listing;
  }

  /** A back's tool, from its listing; for a name the listing lacks (a tool listed since), listed again unless the listing is recent. */
  private async toolNamed(client: Client, name: string): Promise<Listed | undefined> {
    const tools = await this.toolsOf(client);
    if (tools.has(name) || this.now() - (this.listed.get(client)?.at ?? 0) < RELIST_AFTER_MS) return tools.get(name);
    return (await this.toolsOf(client, true)).get(name);
  }

  /** The host's request as it sent it, with the server's protocol version; the server's answer as it came. */
  private async passThrough(client: Client, method: string, params: JsonObject, signal: AbortSignal, notify: Notify): Promise<JsonObject> {
    const version = client.protocolVersion;
    const body: JsonObject = { ...params, _meta: { ...(params._meta as JsonObject), [META.protocolVersion]: version } };
    const send = () => {
      const headers = { ...standardHeaders(method, body, version), ...(method === 'tools/call' ? client.paramHeadersFor(String(params.name), (params.arguments ?? {}) as JsonObject) : {}) };
      return client.sendRaw({ jsonrpc: '2.0', id: `bridge-${++lastId}`, method, params: body }, { signal, headers, onNotification: notify });
    };
    if (method === 'tools/call') await this.toolsOf(client);
    let reply = await send();
    // A schema that changed since the tools were listed shows as an Mcp-Param mismatch: list again, once (as the client does).
    if (method === 'tools/call' && reply.message.error?.code === -32020 && /Mcp-Param/i.test(reply.message.error.message)) {
      await this.toolsOf(client, true);
      reply = await send();
    }
    if (reply.message.error) throw new AnswerError(reply.message.error);
    return reply.message.result ?? {};
  }
}

/** A ping, answered once the server has read what came before it; a server that does not answer it is not waited for. */
async function ping(client: Client): Promise<void> {
  await client.request('ping', {}, { timeoutMs: 5_000 }).catch(() => undefined);
}

const isProgressToken = (token: unknown): token is string | number => typeof token === 'string' || typeof token === 'number';

/** What the caller's envelope declares (admitted requests carry one). */
function declaredBy(request: JsonRpcRequest): ClientCapabilities {
  const meta = (request.params?._meta ?? {}) as JsonObject;
  return (meta[META.clientCapabilities] ?? {}) as ClientCapabilities;
}

/** A listed tool, with its x-mcp-header arguments. */
interface Listed {
  tool: Tool;
  mirrored: MirroredParam[];
}

/** A tool's x-mcp-header arguments (none for a tool whose annotations are invalid: the client leaves it out of its list). */
function mirroredOf(tool: Tool): MirroredParam[] {
  const found = headerParams(tool);
  return 'params' in found ? found.params : [];
}

/** What server/discover says: the server's own answer when it is modern, its initialize result when it is legacy. */
function discoverResult(client: Client): JsonObject {
  return {
    supportedVersions: [...MODERN_VERSIONS],
    capabilities: carriedCapabilities(client.traits.inputRounds ? client.serverCapabilities : legacyCapabilities(client), [TASKS_EXTENSION]),
    ...(client.instructions !== undefined ? { instructions: client.instructions } : {}),
    _meta: { [META.serverInfo]: client.serverInfo ?? { name: 'byhand-bridge', version: '0' } },
  };
}

/** The server's hints when it gave valid ones, else the safe ones. */
function withCacheHints(result: JsonObject): JsonObject {
  const ttlMs = Number.isInteger(result.ttlMs) && (result.ttlMs as number) >= 0 ? result.ttlMs : 0;
  const cacheScope = result.cacheScope === 'public' || result.cacheScope === 'private' ? result.cacheScope : 'private';
  return { ...result, ttlMs, cacheScope };
}
