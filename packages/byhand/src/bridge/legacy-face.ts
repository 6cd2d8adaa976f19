// A 2025 host (it sent `initialize`) in front of any server. The back is opened once the host has said what it can
// do, so the back declares exactly that (relay-host.ts); `initialize` is answered from who the server says it is,
// every later request is carried by forward.ts, and `ping` never leaves the bridge.

import { LEGACY_VERSIONS, type Client, type ClientCapabilities, type Host, type JsonObject, type JsonRpcNotification, type JsonRpcRequest } from '@byhand/client';
import { forward } from './forward.js';
import { AnswerError } from './json-rpc-peer.js';
import { relayHost, type Ask } from './relay-host.js';

/** The server opened for a face: its client, and how to close both (a server the bridge started too). */
export interface Back {
  client: Client;
  close(): Promise<void>;
}

/** Opens the server with this host, its notifications sent to `onNotification`. */
export type OpenBack = (host: Host, onNotification: (notification: JsonRpcNotification) => void) => Promise<Back>;

export interface HostLink {
  ask: Ask;
  notify(method: string, params?: JsonObject): void;
}

export class LegacyFace {
  private back: Back | undefined;
  private opening: Promise<Back> | undefined;

  constructor(
    private readonly link: HostLink,
    private readonly openBack: OpenBack,
    /** The bridge's own answers (`--sampling`, `--answers`) for what the host did not declare. */
    private readonly own: Host = {},
  ) {}

  get client(): Client | undefined {
    return this.back?.client;
  }

  async close(): Promise<void> {
    await this.back?.close();
  }

  async handle(request: JsonRpcRequest, signal: AbortSignal): Promise<JsonObject> {
    const params = request.params ?? {};
    if (request.method === 'initialize') return this.initialize(params);
    if (request.method === 'ping') return {};
    if (this.back === undefined) throw new AnswerError({ code: -32600, message: `Invalid Request: ${request.method} before initialize` });
    const token = (params._meta as JsonObject | undefined)?.progressToken;
    const progress = token === undefined ? undefined : (p: JsonObject) => this.link.notify('notifications/progress', { ...p, progressToken: token });
    return forward(this.back.client, request.method, params, { signal, ...(progress ? { progress } : {}) });
  }

  private async initialize(params: JsonObject): Promise<JsonObject> {
    if (this.opening !== undefined) throw new AnswerError({ code: -32600, message: 'Invalid Request: initialize was already sent on this connection' });
    const declared = (params.capabilities ?? {}) as ClientCapabilities;
    this.opening = this.openBack(relayHost(declared, this.link.ask, this.own), (n) => this.relay(n));
    let client: Client;
    try {
      this.back = await this.opening;
      client = this.back.client;
    } catch (error) {
      // The host may try again, once the server is up.
      this.opening = undefined;
      throw error;
    }
    // An era found in the verdict cache comes without the server's word on who it is.
    if (client.era === 'modern' && client.serverInfo === undefined) await client.discover();
    const asked = String(params.protocolVersion);
    const versions: readonly string[] = LEGACY_VERSIONS;
    return {
      protocolVersion: versions.includes(asked) ? asked : LEGACY_VERSIONS[0],
      capabilities: legacyCapabilities(client),
      serverInfo: client.serverInfo ?? { name: 'byhand-bridge', version: '0' },
      ...(client.instructions !== undefined ? { instructions: client.instructions } : {}),
    };
  }

  /** The server's notifications, except progress: that is sent per request, under the host's own token. */
  private relay(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/progress') return;
    this.link.notify(notification.method, notification.params);
  }
}

/**
 * What the host is told the server can do. A modern server's subscriptions live on `subscriptions/listen`, which
 * this face does not open yet, so it promises no `resources/subscribe` and no list_changed.
 */
function legacyCapabilities(client: Client): JsonObject {
  if (client.era === 'legacy') return client.serverCapabilities;
  const caps: JsonObject = {};
  for (const [name, value] of Object.entries(client.serverCapabilities)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) caps[name] = value;
    else {
      const { subscribe: _s, listChanged: _l, ...rest } = value as JsonObject;
      caps[name] = rest;
    }
  }
  return caps;
}
