// One legacy back's lane: the call it runs now, the calls waiting for it, and what the server asked while no call ran.
// A 2025 server's pushed request names no call on stdio (and need not on HTTP), so on a back shared by several
// hosts, or by one host's calls, the only request it can belong to with certainty is the one call the server is
// running: one call at a time goes to the back, and a pushed request is that call's. What the server asks while no
// call runs (server-filesystem asks for the roots once initialized) waits here, bounded, for the next call, whose
// host answers it before that call is sent. Why not a back per call or per host: a stdio server's state lives in its
// one process, and a host that opened a second one would meet a second server.

/** A request the server asked while no call ran, waiting for the next. */
export interface HeldAsk {
  key: string;
  request: Record<string, unknown>;
  resolve(answer: unknown): void;
  reject(error: Error): void;
  expiry: { cancel(): void };
}

export class BackLane<Call> {
  /** The call the back runs now: what the server pushes is its. */
  holder: Call | undefined;
  /** Calls waiting for the back, in the order they came. */
  private readonly queue: { call: Call; go: () => void }[] = [];
  /** What the server asked while no call ran, for the next call. */
  readonly held: HeldAsk[] = [];

  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves once `call` holds the back; `onWait` is told when it must wait first. */
  acquire(call: Call, onWait: (ahead: number) => void): Promise<void> {
    if (this.holder === undefined) {
      this.holder = call;
      return Promise.resolve();
    }
    onWait(this.queue.length + 1);
    return new Promise((go) => this.queue.push({ call, go }));
  }

  /** `call` lets go of the back, or gives up waiting for it; the next in line takes it. */
  release(call: Call): void {
    const at = this.queue.findIndex((entry) => entry.call === call);
    if (at >= 0) this.queue.splice(at, 1);
    if (this.holder !== call) return;
    const next = this.queue.shift();
    this.holder = next?.call;
    next?.go();
  }

  /** The asks held for the next call, handed over (and no longer held). */
  takeHeld(): HeldAsk[] {
    const taken = this.held.splice(0);
    for (const ask of taken) ask.expiry.cancel();
    return taken;
  }
}
