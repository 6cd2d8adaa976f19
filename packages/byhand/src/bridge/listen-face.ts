// `subscriptions/listen` from a 2026 host (spec 2026-07-28 basic/patterns/subscriptions.mdx). A modern server holds
// the stream itself: the bridge carries it, each notification stamped with the host's request id. A legacy server
// tells its changes on its session: the bridge acknowledges what the server can tell (its listChanged and subscribe
// capabilities), subscribes to the resources asked for, and sends each matching notification on every host stream.

import type { Client, JsonObject, JsonRpcNotification } from '@byhand/client';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export type Notify = (notification: JsonRpcNotification) => void;

interface Listener {
  filter: JsonObject;
  id: string | number;
  notify: Notify;
}

/** A notification stamped as one of the host's subscription's (the server's own stamp replaced). */
function stamped(notification: JsonRpcNotification, id: string | number): JsonRpcNotification {
  const params = notification.params ?? {};
  return { jsonrpc: '2.0', method: notification.method, params: { ...params, _meta: { ...(params._meta as JsonObject | undefined), [SUBSCRIPTION_ID]: id } } };
}

/** What of the filter a legacy server can tell, by its capabilities. */
function honored(asked: JsonObject, caps: JsonObject): JsonObject {
  const cap = (name: string, key: string) => (caps[name] as JsonObject | undefined)?.[key] === true;
  const uris = Array.isArray(asked.resourceSubscriptions) ? asked.resourceSubscriptions.filter((uri): uri is string => typeof uri === 'string') : [];
  return {
    ...(asked.toolsListChanged === true && cap('tools', 'listChanged') ? { toolsListChanged: true } : {}),
    ...(asked.promptsListChanged === true && cap('prompts', 'listChanged') ? { promptsListChanged: true } : {}),
    ...(asked.resourcesListChanged === true && cap('resources', 'listChanged') ? { resourcesListChanged: true } : {}),
    ...(uris.length > 0 && cap('resources', 'subscribe') ? { resourceSubscriptions: uris } : {}),
  };
}

function accepts(filter: JsonObject, notification: JsonRpcNotification): boolean {
  switch (notification.method) {
    case 'notifications/tools/list_changed':
      return filter.toolsListChanged === true;
    case 'notifications/prompts/list_changed':
      return filter.promptsListChanged === true;
    case 'notifications/resources/list_changed':
      return filter.resourcesListChanged === true;
    case 'notifications/resources/updated':
      return Array.isArray(filter.resourceSubscriptions) && filter.resourceSubscriptions.includes(notification.params?.uri);
    default:
      return false;
  }
}

export class ListenFace {
  private readonly listeners = new Set<Listener>();
  /** How many host streams asked for each resource: the legacy server is unsubscribed when the last one ends. */
  private readonly subscribed = new Map<string, number>();

  /** A legacy server's notification, for the host streams that asked for it. */
  relay(notification: JsonRpcNotification): void {
    for (const listener of this.listeners) if (accepts(listener.filter, notification)) listener.notify(stamped(notification, listener.id));
  }

  /** Holds one host stream until its request is cancelled (or a modern server ends it). */
  async listen(client: Client, id: string | number, params: JsonObject, signal: AbortSignal, notify: Notify): Promise<JsonObject> {
    const { _meta: _, ...bare } = params;
    if (client.era === 'modern') {
      return client.request('subscriptions/listen', bare, { timeoutMs: Infinity, signal, onNotification: (n) => notify(stamped(n, id)) });
    }
    const filter = honored((bare.notifications ?? {}) as JsonObject, client.serverCapabilities);
    notify(stamped({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: filter } }, id));
    const uris = (filter.resourceSubscriptions ?? []) as string[];
    if (Object.keys(filter).length === 0) return { _meta: { [SUBSCRIPTION_ID]: id } };
    const listener = { filter, id, notify };
    this.listeners.add(listener);
    try {
      const first = uris.filter((uri) => !this.subscribed.has(uri));
      for (const uri of uris) this.subscribed.set(uri, (this.subscribed.get(uri) ?? 0) + 1);
      for (const uri of first) await client.request('resources/subscribe', { uri }, { signal });
      await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
    } finally {
      this.listeners.delete(listener);
      for (const uri of uris) {
        const count = (this.subscribed.get(uri) ?? 1) - 1;
        if (count > 0) this.subscribed.set(uri, count);
        else {
          this.subscribed.delete(uri);
          await client.request('resources/unsubscribe', { uri }, { timeoutMs: 2_000 }).catch(() => undefined);
        }
      }
    }
    return { _meta: { [SUBSCRIPTION_ID]: id } };
  }
}
