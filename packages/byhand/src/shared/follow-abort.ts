// Many pieces of work under one signal (a checkpoint's probes under the command's interrupt) follow it through one
// listener of ours. Node's EventTarget walks the listeners already there on every addEventListener, so one listener
// per probe grows with the square of the probes at once, and past ten it is reported as a leak.

const followers = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `listener` once when `signal` aborts (not if it already has); returns the way to stop following. */
export function followAbort(signal: AbortSignal, listener: () => void): () => void {
  const all = followers.get(signal) ?? followed(signal);
  all.add(listener);
  return () => void all.delete(listener);
}

/** The followers of a signal not followed until now, called by the one listener put on it here. */
function followed(signal: AbortSignal): Set<() => void> {
  const all = new Set<() => void>();
  followers.set(signal, all);
  signal.addEventListener('abort', () => {
    for (const follower of all) follower();
    all.clear();
  }, { once: true });
  return all;
}
