// What a legacy back's server asks belongs to the one call holding that back (modern-backs.ts leases each call a back
// of its own), or, while no call holds it, waits here, bounded, for the next call that takes it, whose host answers
// it before that call is sent (server-filesystem asks for the roots once initialized).

/** A request the server asked while no call held its back. */
export interface HeldAsk {
  key: string;
  request: Record<string, unknown>;
  resolve(answer: unknown): void;
  reject(error: Error): void;
  expiry: { cancel(): void };
}

export class BackLane<Call> {
  /** The call holding the back: what the server pushes is its. */
  holder: Call | undefined;
  /** What the server asked while no call held the back, for the next. */
  readonly held: HeldAsk[] = [];

  /** The asks held for the next call, handed over (and no longer held). */
  takeHeld(): HeldAsk[] {
    const taken = this.held.splice(0);
    for (const ask of taken) ask.expiry.cancel();
    return taken;
  }
}
