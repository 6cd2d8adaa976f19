// The updates `watch` prints, written no faster than stdout's reader takes them. A reader that stalls (a slow
// pipe) must not make byhand hold everything the server sends: once write() says the stream is full, lines wait
// here, a list change already waiting is not queued twice (the reader learns the same thing once), and past
// MAX_PENDING_UPDATES updates are dropped and counted. The count is told in their place once the reader has
// taken what was waiting, so the output says where the gap is; until then every update is dropped, which
// keeps the order of what is printed the order the server sent.

import type { OutputStream } from '@byhand/host';

/** How many updates wait for a stalled reader before the rest are dropped. */
export const MAX_PENDING_UPDATES = 1000;

export interface UpdateQueue {
  /** Queues one line (newline included); `key` marks an update that repeats (a list change): one waiting is enough. */
  push(line: string, key?: string): void;
}

/**
 * `tellDropped` is called with the count once the lines waiting before the gap are written; a line it returns is
 * written there, in the gap.
 */
export function createUpdateQueue(out: OutputStream, tellDropped: (count: number) => string | undefined, max = MAX_PENDING_UPDATES): UpdateQueue {
  const waiting: { line: string; key: string | undefined }[] = [];
  const waitingKeys = new Set<string>();
  let dropped = 0;
  let full = false;

  const write = (line: string) => {
    if (!out.write(line)) {
      full = true;
      out.once('drain', flush);
    }
  };

  function flush(): void {
    full = false;
    while (!full && waiting.length > 0) {
      const next = waiting.shift()!;
      if (next.key !== undefined) waitingKeys.delete(next.key);
      write(next.line);
    }
    if (!full && waiting.length === 0 && dropped > 0) {
      const count = dropped;
      dropped = 0;
      const told = tellDropped(count);
      if (told !== undefined) write(told);
    }
  }

  return {
    push(line, key) {
      if (!full && waiting.length === 0 && dropped === 0) return write(line);
      if (key !== undefined && waitingKeys.has(key)) return;
      if (dropped > 0 || waiting.length >= max) {
        dropped++;
        return;
      }
      waiting.push({ line, key });
      if (key !== undefined) waitingKeys.add(key);
    },
  };
}
