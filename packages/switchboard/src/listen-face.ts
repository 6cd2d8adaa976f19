// `subscriptions/listen` from a 2026 host (spec 2026-07-28 basic/patterns/subscriptions.mdx). A modern server holds
// the stream itself: the bridge carries it, each notification stamped with the host's request id. A legacy server
// tells its changes on the session of each back: the bridge acknowledges what the server can tell (its listChanged and
// subscribe capabilities), subscribes to the resources asked for on that back, and sends each matching notification
// of a back on every host stream that listens to it.

import type { JsonObject, JsonRpcNotification } from '@byhand/client';
import type { ModernBack } from './modern-backs.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export type Notify = (notification: JsonRpcNotification) => void;

interface Listener {
  filter: JsonObject;
  id: string | number;
  notify: Notify;
  /** The back it subscribed on, and its group (modern-backs.ts). */
  scope: string;
  group: string;
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
  /**
   * How many host streams asked for each resource of each back (`scope\nuri`): each back is a session of its own on
   * the legacy server, unsubscribed when the last of its streams ends.
   */
  private readonly subscribed = new Map<string, number>();

  /**
   * A legacy server's notification, for the host streams that asked it: a resource update of the back the stream
   * subscribed on; a list change of any back of its group (the server's lists are the same whichever session tells).
   */
  relay(notification: JsonRpcNotification, from: { scope: string; group: string }): void {
    const mine = (listener: Listener) => (notification.method === 'notifications/resources/updated' ? listener.scope === from.scope : listener.group === from.group);
    for (const listener of this.listeners) if (mine(listener) && accepts(listener.filter, notification)) listener.notify(stamped(notification, listener.id));
  }

  /**
   * Holds one host stream until its request is cancelled, or the server ends it: a modern server itself, a legacy one
   * when it can tell nothing more between calls (`quiet`: no event stream, or its process exited). Such a server
   * honours nothing from then on, so the host is not told to wait for what cannot come.
   */
  async listen({ client, scope, group, quiet }: ModernBack, id: string | number, params: JsonObject, signal: AbortSignal, notify: Notify): Promise<JsonObject> {
    const { _meta: _, ...bare } = params;
    if (client.traits.changes === 'listen') {
      return client.request('subscriptions/listen', bare, { timeoutMs: Infinity, signal, onNotification: (n) => notify(stamped(n, id)) });
    }
    const filter = quiet.aborted ? {} : honored((bare.notifications ?? {}) as JsonObject, client.serverCapabilities);
    notify(stamped({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: filter } }, id));
    const uris = (filter.resourceSubscriptions ?? []) as string[];
    if (Object.keys(filter).length === 0) return { _meta: { [SUBSCRIPTION_ID]: id } };
    const listener = { filter, id, notify, scope, group };
    this.listeners.add(listener);
    const key = (uri: string) => `${scope}\n${uri}`;
    try {
      const first = uris.filter((uri) => !this.subscribed.has(key(uri)));
      for (const uri of uris) this.subscribed.set(key(uri), (this.subscribed.get(key(uri)) ?? 0) + 1);
      for (const uri of first) await client.request('resources/subscribe', { uri }, { signal });
      const ends = AbortSignal.any([signal, quiet]);
      await new Promise<void>((resolve) => (ends.aborted ? resolve() : ends.addEventListener('abort', () => resolve(), { once: true })));
    } finally {
      this.listeners.delete(listener);
      for (const uri of uris) {
        const count = (this.subscribed.get(key(uri)) ?? 1) - 1;
        if (count > 0) this.subscribed.set(key(uri), count);
        else {
          this.subscribed.delete(key(uri));
          await client.request('resources/unsubscribe', { uri }, { timeoutMs: 2_000 }).catch(() => undefined);
        }
      }
    }
    return { _meta: { [SUBSCRIPTION_ID]: id } };
  }
}
