// Many pieces of work under one signal (a checkpoint's probes under the command's interrupt) follow it through one
// listener of ours. Node's EventTarget walks the listeners already there on every addEventListener, so one listener
// per probe grows with the square of the probes at once, and past ten it is reported as a leak.

const followers = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `listener` once when `signal` aborts (not if it already has); returns the way to stop following. */
export function followAbort(signal: AbortSignal, listener: () => void): () => void {
  let all = followers.get(signal);
  if (all === undefined) {
    const fresh = new Set<() => void>();
    followers.set(signal, fresh);
    signal.addEventListener('abort', () => {
      for (const follower of fresh) follower();
      fresh.clear();
    }, { once: true });
    all = fresh;
  }
  const mine = all;
  mine.add(listener);
  return () => void mine.delete(listener);
}
