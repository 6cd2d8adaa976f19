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

  // Lines made in one turn of the event loop go out in one write: with many calls in flight their answers arrive
  // together, and each write to a pipe is a system call.
  let batch = '';
  const send = () => {
    const lines = batch;
    batch = '';
    if (lines !== '' && !out.write(lines)) {
      full = true;
      out.once('drain', flush);
    }
  };
  const put = (line: string) => {
    if (batch === '') later(send);
    batch += line;
  };

  function flush(): void {
    full = false;
    for (const next of waiting.splice(0)) put(next.line);
    notifications = 0;
    if (dropped > 0) {
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

/** After the I/O of this turn of the event loop: Node's check phase where there is one, else a timer. */
const later: (run: () => void) => void = (globalThis as { setImmediate?: (run: () => void) => void }).setImmediate ?? ((run) => void setTimeout(run, 0));
