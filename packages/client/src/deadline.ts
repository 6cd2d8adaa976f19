// A per-request deadline that can pause: time the host spends asking a person or a model (legacy
// server-to-client requests arrive mid-request) is not the server's time and must not time it out.
// An AbortSignal costs more to make than a whole request on node:http, so the deadline makes one only
// when something asks for it (fetch, the host); node:http listens through onAbort, to our timer and to
// the caller's signal directly.
// A caller's signal is followed by one listener, removed at dispose, rather than AbortSignal.any: the
// same outcome for a fraction of the CPU (a checkpoint passes a signal to each of hundreds of requests).

import { AbortedError, TimeoutError } from './errors.js';

/** What a requester needs to stop an exchange: a signal on demand, or a cheaper listener. */
export interface AbortSource {
  readonly signal: AbortSignal;
  readonly aborted: boolean;
  /** Calls `listener` once when aborted; returns the way to stop listening. */
  onAbort(listener: () => void): () => void;
}

export class Deadline implements AbortSource {
  private controller: AbortController | undefined;
  private unfollow: (() => void) | undefined;
  private timedOut = false;
  private listeners: (() => void)[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private remaining: number;
  private startedAt = 0;
  private paused = 0;

  constructor(private readonly method: string, private readonly ms: number, private readonly outer?: AbortSignal) {
    this.remaining = ms;
    this.start();
  }

  get signal(): AbortSignal {
    if (this.controller) return this.controller.signal;
    const controller = (this.controller = new AbortController());
    const { outer } = this;
    if (this.timedOut) controller.abort(new TimeoutError(this.method, this.ms));
    else if (outer?.aborted) controller.abort(outer.reason);
    else if (outer) {
      const follow = () => controller.abort(outer.reason);
      outer.addEventListener('abort', follow, { once: true });
      this.unfollow = () => outer.removeEventListener('abort', follow);
    }
    return controller.signal;
  }

  get aborted(): boolean {
    return this.timedOut || this.outer?.aborted === true;
  }

  onAbort(listener: () => void): () => void {
    if (this.controller) {
      const { signal } = this.controller;
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    }
    // Our timeout calls the listeners; a caller's signal, which can fire at any time, is listened to itself
    // rather than through a signal of ours made for it (an AbortController per request costs more than the rest of the deadline on Node 20).
    const { outer } = this;
    const once = () => {
      stop();
      listener();
    };
    const stop = () => {
      const at = this.listeners.indexOf(once);
      if (at >= 0) this.listeners.splice(at, 1);
      outer?.removeEventListener('abort', once);
    };
    this.listeners.push(once);
    outer?.addEventListener('abort', once, { once: true });
    return stop;
  }

  /** The error to report once aborted: a timeout of ours or the caller's abort. */
  failure(): TimeoutError | AbortedError {
    return this.timedOut ? new TimeoutError(this.method, this.ms) : new AbortedError(this.method, this.outer?.reason);
  }

  async excluding<T>(work: () => Promise<T>): Promise<T> {
    if (this.paused++ === 0) this.stop();
    try {
      return await work();
    } finally {
      if (--this.paused === 0) this.start();
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const listener of this.listeners) this.outer?.removeEventListener('abort', listener);
    this.listeners = [];
    this.unfollow?.();
    this.unfollow = undefined;
  }

  private start(): void {
    this.startedAt = Date.now();
    // No timer for a request that may run as long as it is wanted (a subscription): only its signal ends it.
    if (!Number.isFinite(this.remaining)) return;
    this.timer = setTimeout(() => this.expire(), Math.min(this.remaining, 2 ** 31 - 1));
    (this.timer as { unref?: () => void }).unref?.();
  }

  private expire(): void {
    this.timedOut = true;
    this.controller?.abort(new TimeoutError(this.method, this.ms));
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.remaining = Math.max(0, this.remaining - (Date.now() - this.startedAt));
  }
}
