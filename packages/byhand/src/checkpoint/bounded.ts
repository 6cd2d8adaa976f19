// How many probes run at once. The total should follow the slowest server, so the bounds are as high as the
// resources they spend allow: an HTTP probe holds at most four sockets (server/discover, then three lists in
// parallel), so 256 probes stay near 1,000 descriptors; a stdio probe is a child process (tens of MB each), so 16.

export const DEFAULT_BOUNDS = { http: 256, stdio: 16 } as const;

export interface Bounds {
  http: number;
  stdio: number;
}

/**
 * Runs `work` over `items`, at most `limit` at a time, keeping the order of `items`. The workers start one per
 * turn of the event loop: started all in one turn, every probe's set-up runs before the first request reaches the
 * wire (its socket connects only when the turn ends), so the set-up of 200 probes is added to the wall time instead
 * of overlapping the first probes' waits.
 */
export async function mapBounded<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  const workers: Promise<void>[] = [];
  for (let started = 0; started < Math.min(limit, items.length); started++) {
    if (started > 0) await new Promise((resolve) => setImmediate(resolve));
    workers.push(worker());
  }
  await Promise.all(workers);
  return results;
}

/** Two pools side by side, one per kind, results in the order of `items`. */
export async function mapByKind<T, R>(items: T[], kindOf: (item: T) => keyof Bounds, bounds: Bounds, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  const indexed = items.map((item, i) => ({ item, i }));
  await Promise.all(
    (['http', 'stdio'] as const).map((kind) =>
      mapBounded(indexed.filter(({ item }) => kindOf(item) === kind), bounds[kind], async ({ item, i }) => {
        results[i] = await work(item);
      }),
    ),
  );
  return results;
}
