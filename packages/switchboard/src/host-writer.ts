// What the stdio face writes to its host, no faster than the host reads it. A host that stops reading stdout (busy,
// or hostile) must not make the bridge hold everything the server sends: once write() says the pipe is full, lines
// wait here. Answers and requests always wait (their number is bounded by the requests in flight each way);
// notifications (progress, log messages, list changes, a subscription's updates) wait up to a bound, and past it are
// dropped and counted, and the count is said on stderr once the host has caught up, since JSON-RPC has no way to tell
// the host itself.

import type { JsonRpcMessage } from '@byhand/client';
import { frame } from './json-rpc-peer.js';

/** How many notifications wait for a host that stopped reading before the rest are dropped. */
export const MAX_WAITING_NOTIFICATIONS = 1000;

export interface Writable {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

export function createHostWriter(out: Writable, warn: (text: string) => void, max = MAX_WAITING_NOTIFICATIONS): (message: JsonRpcMessage) => void {
  const waiting: { line: string; notification: boolean }[] = [];
  let notifications = 0;
  let dropped = 0;
  let full = false;

  const put = (line: string) => {
    if (!out.write(line)) {
      full = true;
      out.once('drain', flush);
    }
  };

  function flush(): void {
    full = false;
    while (!full && waiting.length > 0) {
      const next = waiting.shift()!;
      if (next.notification) notifications--;
      put(next.line);
    }
    if (!full && dropped > 0) {
      warn(`the host read its stdout too slowly: ${dropped} notification${dropped === 1 ? ' was' : 's were'} dropped (progress, log messages or changes)`);
      dropped = 0;
    }
  }

  return (message) => {
    const text = frame(message);
    if (text === undefined) return;
    const line = `${text}\n`;
    if (!full && waiting.length === 0) return put(line);
    const notification = 'method' in message && !('id' in message);
    if (notification && notifications >= max) {
      dropped++;
      return;
    }
    if (notification) notifications++;
    waiting.push({ line, notification });
  };
}
