// A per-request deadline that can pause: time the host spends asking a person or a model (legacy
// server-to-client requests arrive mid-request) is not the server's time and must not time it out.

import { AbortedError, TimeoutError } from './errors.js';

export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private remaining: number;
  private startedAt = 0;
  private paused = 0;

  constructor(private readonly method: string, private readonly ms: number, outer?: AbortSignal) {
    this.remaining = ms;
    this.signal = outer ? AbortSignal.any([outer, this.controller.signal]) : this.controller.signal;
    this.start();
  }

  /** The error to report once the signal fired: a timeout of ours or the caller's abort. */
  failure(): TimeoutError | AbortedError {
    return this.controller.signal.aborted ? new TimeoutError(this.method, this.ms) : new AbortedError(this.method, this.signal.reason);
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
  }

  private start(): void {
    this.startedAt = Date.now();
    // No timer for a request that may run as long as it is wanted (a subscription): only its signal ends it.
    if (!Number.isFinite(this.remaining)) return;
    this.timer = setTimeout(() => this.controller.abort(new TimeoutError(this.method, this.ms)), Math.min(this.remaining, 2 ** 31 - 1));
    (this.timer as { unref?: () => void }).unref?.();
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.remaining = Math.max(0, this.remaining - (Date.now() - this.startedAt));
  }
}
