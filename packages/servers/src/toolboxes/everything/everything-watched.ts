// test://watched-resource changes on its own, every few seconds, and says so to whoever watches it: a 2026 client on
// subscriptions/listen that named it, a 2025 session subscribed to it. `byhand watch everything
// test://watched-resource` then shows updates with nothing else running.
// The clock starts at the first request the toolbox serves, not when it is made (a Worker may start no timer while
// its module loads), and stops with the toolbox.

import type { McpServer } from '@modelcontextprotocol/server';
import type { BuildContext } from '../../edge/toolbox.js';

export const WATCHED_URI = 'test://watched-resource';
const CHANGE_EVERY_MS = 3000;

export interface WatchedResource {
  /** The resource's text now: how many times it has changed. */
  text(): string;
  /** Called for every server the toolbox builds: starts the clock, once. */
  started(ctx: BuildContext): void;
  /** A 2025 session's resources/subscribe and resources/unsubscribe for the URI. */
  subscribe(session: McpServer): void;
  unsubscribe(session: McpServer): void;
  stop(): void;
}

export function watchedResource(everyMs = CHANGE_EVERY_MS): WatchedResource {
  let changes = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let notify: BuildContext['notify'] | undefined;
  const sessions = new Set<McpServer>();
  const tick = () => {
    changes++;
    notify?.()?.resourceUpdated(WATCHED_URI);
    for (const session of sessions) {
      // A session that ended can be told nothing more: it is forgotten.
      const forget = () => sessions.delete(session);
      try {
        session.server.sendResourceUpdated({ uri: WATCHED_URI }).catch(forget);
      } catch {
        forget();
      }
    }
  };
  return {
    text: () => `Watched resource content: changed ${changes} time(s) so far, once every ${everyMs / 1000} s`,
    started(ctx) {
      notify ??= ctx.notify;
      if (timer !== undefined) return;
      timer = setInterval(tick, everyMs);
      // On Node, the clock alone keeps no process alive.
      (timer as { unref?: () => void }).unref?.();
    },
    subscribe: (session) => void sessions.add(session),
    unsubscribe: (session) => void sessions.delete(session),
    stop() {
      clearInterval(timer);
      sessions.clear();
    },
  };
}
