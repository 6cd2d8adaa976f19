// A 2025 host (it sent `initialize`) in front of any server. The back is opened once the host has said what it can
// do, so the back declares exactly that (relay-host.ts); `initialize` is answered from who the server says it is,
// every later request is carried by forward.ts, `ping` never leaves the bridge, a modern server's changes come
// from the subscription stream the bridge holds for the host (listen-relay.ts), and its tasks in the host's form
// (legacy-tasks.ts).

import { LEGACY_VERSIONS, McpError, type Client, type ClientCapabilities, type Host, type JsonObject, type JsonRpcNotification, type JsonRpcRequest, type ToolCallOptions } from '@byhand/client';
import { isLogLevel, LOG_LEVELS } from './log-levels.js';
import { carriedCapabilities, declaredExtensions } from './extensions.js';
import { forward } from './forward.js';
import { AnswerError } from './json-rpc-peer.js';
import { LEGACY_TASKS_CAPABILITY, LegacyTasks, offersTasks, withTaskSupport } from './legacy-tasks.js';
import { ListenRelay } from './listen-relay.js';
import { relayHost, type Ask } from './relay-host.js';

/** The server opened for a face: its client, and how to close both (a server the bridge started too). */
export interface Back {
  client: Client;
  close(): Promise<void>;
}

/** What a server tells a face besides its answers. */
export interface BackEvents {
  onNotification(notification: JsonRpcNotification): void;
  /** A 2025 server can send nothing more between calls: it offers no event stream, or its stream was given up. */
  onEventsEnded?(reason: string): void;
  /** The server's process exited on its own: no request reaches it again (the client's onGone). */
  onGone?(reason: string): void;
}

/**
 * Opens the server with this host, declaring these extensions (the ones the hosts behind the back declared that the
 * bridge carries: `connect`'s `extensions`); what it tells besides its answers goes to `events`.
 */
export type OpenBack = (host: Host, events: BackEvents, extensions: Record<string, JsonObject>) => Promise<Back>;

/** `open`, with `gone` told too when a server it opened is gone (after the events' own onGone). */
export function alsoWhenGone(open: OpenBack, gone: (reason: string) => void): OpenBack {
  return (host, events, extensions) => open(host, { ...events, onGone: (reason) => (events.onGone?.(reason), gone(reason)) }, extensions);
}

export interface HostLink {
  ask: Ask;
  /** A notification to the host; `related`, the host's request it belongs to (its progress). */
  notify(method: string, params?: JsonObject, related?: string | number): void;
}

export class LegacyFace {
  private back: Back | undefined;
  private opening: Promise<Back> | undefined;
  /** A modern server's changes, for this host (listen-relay.ts). */
  private listen: ListenRelay | undefined;
  /** A modern server's tasks in the 2025-11-25 form, when it offers the extension (legacy-tasks.ts). */
  private tasks: LegacyTasks | undefined;
  /** The host's initialize while it runs: a request sent before its answer (a script's pipe) waits for it. */
  private initializing: Promise<unknown> | undefined;
  private closed = false;

  constructor(
    private readonly link: HostLink,
    private readonly openBack: OpenBack,
    /** The bridge's own answers (`--sampling`, `--answers`) for what the host did not declare. */
    private readonly own: Host = {},
    /** What the host cannot be told (a subscription stream that ended), for stderr. */
    private readonly warn: (text: string) => void = () => undefined,
  ) {}

  get client(): Client | undefined {
    return this.back?.client;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listen?.close();
    // A back still opening is closed once open, so nothing it started outlives the host.
    const back = this.back ?? (await this.opening?.catch(() => undefined));
    await back?.close();
  }

  async handle(request: JsonRpcRequest, signal: AbortSignal): Promise<JsonObject> {
    const params = request.params ?? {};
    if (request.method === 'initialize') {
      const first = this.opening === undefined;
      const answer = this.initialize(params);
      if (first) this.initializing = answer;
      return answer;
    }
    if (request.method === 'ping') return {};
    await this.initializing?.catch(() => undefined);
    if (this.back === undefined) throw new AnswerError({ code: -32600, message: `Invalid Request: ${request.method} before initialize` });
    if (this.listen !== undefined && (request.method === 'resources/subscribe' || request.method === 'resources/unsubscribe')) {
      if (request.method === 'resources/subscribe') this.listen.subscribe(String(params.uri));
      else this.listen.unsubscribe(String(params.uri));
      return {};
    }
    if (request.method === 'logging/setLevel') {
      // The client asks for the level its server's way: a 2025 session's logging/setLevel, or the 2026 envelope of
      // every later request (a modern server has no session to set a level on).
      if (!isLogLevel(params.level)) throw new AnswerError({ code: -32602, message: `Invalid params: level must be one of ${LOG_LEVELS.join(', ')}` });
      await this.back.client.setLogLevel(params.level);
      return {};
    }
    const token = (params._meta as JsonObject | undefined)?.progressToken;
    const progress = token === undefined ? undefined : (p: JsonObject) => this.link.notify('notifications/progress', { ...p, progressToken: token }, request.id);
    if (this.tasks !== undefined) {
      const call: ToolCallOptions = { signal, ...(progress ? { onProgress: progress } : {}) };
      const taskId = String(params.taskId);
      if (request.method.startsWith('tasks/') && request.method !== 'tasks/list' && typeof params.taskId !== 'string') throw new AnswerError({ code: -32602, message: `Invalid params: ${request.method} needs a taskId, a string` });
      switch (request.method) {
        case 'tools/list':
          return withTaskSupport(await forward(this.back.client, request.method, params, { signal }));
        case 'tools/call':
          if (params.task !== undefined) return this.tasks.call(params, call);
          break;
        case 'tasks/get':
          return this.tasks.get(taskId, call);
        case 'tasks/result':
          return this.tasks.result(taskId, call);
        case 'tasks/cancel':
          return this.tasks.cancel(taskId, call);
        case 'tasks/list':
          return this.tasks.list(params.cursor, call);
      }
    }
    return forward(this.back.client, request.method, params, { signal, ...(progress ? { progress } : {}) });
  }

  private async initialize(params: JsonObject): Promise<JsonObject> {
    if (this.opening !== undefined) throw new AnswerError({ code: -32600, message: 'Invalid Request: initialize was already sent on this connection' });
    const declared = (params.capabilities ?? {}) as ClientCapabilities;
    this.opening = this.openBack(relayHost(declared, this.link.ask, this.own), { onNotification: (n) => this.relay(n) }, declaredExtensions(declared));
    let client: Client;
    try {
      this.back = await this.opening;
      client = this.back.client;
    } catch (error) {
      // The host may try again, once the server is up.
      this.opening = undefined;
      throw error;
    }
    // Closed while the server was opening: the subscription stream would outlive the host.
    if (this.closed) throw new McpError('closed', 'the host went away during initialize', 'the host closed its connection to the bridge');
    if (client.traits.changes === 'listen') {
      this.listen = new ListenRelay(client, this.warn);
      this.listen.open();
    }
    if (offersTasks(client)) this.tasks = new LegacyTasks(client, { onStatus: (task) => this.link.notify('notifications/tasks/status', task) });
    const asked = String(params.protocolVersion);
    const versions: readonly string[] = LEGACY_VERSIONS;
    return {
      protocolVersion: versions.includes(asked) ? asked : LEGACY_VERSIONS[0],
      capabilities: this.tasks === undefined ? carriedCapabilities(client.serverCapabilities) : { ...carriedCapabilities(client.serverCapabilities), tasks: LEGACY_TASKS_CAPABILITY },
      serverInfo: client.serverInfo ?? { name: 'byhand-bridge', version: '0' },
      ...(client.instructions !== undefined ? { instructions: client.instructions } : {}),
    };
  }

  /** The server's notifications, except progress (sent per request, under the host's own token) and the 2026 stream's acknowledgement. */
  private relay(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/progress' || notification.method === 'notifications/subscriptions/acknowledged') return;
    this.link.notify(notification.method, notification.params);
  }
}
