// A 2025 host in front of a 2026 server: the host learns of changes from notifications on its session, the server
// tells them on one `subscriptions/listen` stream (spec 2026-07-28 basic/patterns/subscriptions.mdx). The bridge holds
// that stream for the host, asking for the lists the server says change and the resources the host subscribed to;
// what arrives is the same notification in both eras, and reaches the host with the back's others (legacy-face.ts).

import type { Client, JsonObject } from '@byhand/client';

export class ListenRelay {
  private readonly uris = new Set<string>();
  private stream: AbortController | undefined;
  private closed = false;

  constructor(
    private readonly client: Client,
    /** A stream that ended or failed on its own: said on stderr, since the host has no way to hear it. */
    private readonly onEnded: (why: string) => void,
  ) {}

  /** Opens the stream when the server has anything to tell; again, with the new filter, when a subscription changes. */
  open(): void {
    const filter = this.filter();
    this.stream?.abort();
    this.stream = undefined;
    if (this.closed || Object.keys(filter).length === 0) return;
    const stream = (this.stream = new AbortController());
    this.client.request('subscriptions/listen', { notifications: filter }, { timeoutMs: Infinity, signal: stream.signal }).then(
      () => !stream.signal.aborted && this.onEnded('the server ended subscriptions/listen; list changes and resource updates no longer reach the host'),
      (error: unknown) => !stream.signal.aborted && this.onEnded(`subscriptions/listen failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  subscribe(uri: string): void {
    this.uris.add(uri);
    this.open();
  }

  unsubscribe(uri: string): void {
    if (this.uris.delete(uri)) this.open();
  }

  close(): void {
    this.closed = true;
    this.stream?.abort();
  }

  private filter(): JsonObject {
    const caps = this.client.serverCapabilities;
    const changes = (name: string) => (caps[name] as JsonObject | undefined)?.listChanged === true;
    return {
      ...(changes('tools') ? { toolsListChanged: true } : {}),
      ...(changes('prompts') ? { promptsListChanged: true } : {}),
      ...(changes('resources') ? { resourcesListChanged: true } : {}),
      ...(this.uris.size > 0 ? { resourceSubscriptions: [...this.uris] } : {}),
    };
  }
}
