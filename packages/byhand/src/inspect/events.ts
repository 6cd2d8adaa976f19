// What the page is told, as it happens: every wire message, each MRTR round, notifications, questions and the calls
// they belong to. The backend keeps the last of them (a page opened again sees what came before) within a bound,
// counting what it dropped, and streams each to the pages listening. A slow page is not waited for: past the bound
// its stream is closed, and it reads the kept log again when it reconnects.

export type InspectEvent = { seq: number; at: number; type: string } & Record<string, unknown>;

export const DEFAULT_LOG_BOUND = 2_000;

type Listener = (event: InspectEvent) => void;

export class EventLog {
  private readonly kept: InspectEvent[] = [];
  private readonly listeners = new Set<Listener>();
  private seq = 0;
  /** Events dropped from the front of the log, for the page's "N earlier messages dropped". */
  dropped = 0;

  constructor(private readonly bound = DEFAULT_LOG_BOUND, private readonly now: () => number = Date.now) {}

  push(type: string, fields: Record<string, unknown> = {}): InspectEvent {
    const event: InspectEvent = { ...fields, seq: ++this.seq, at: this.now(), type };
    this.kept.push(event);
    if (this.kept.length > this.bound) {
      this.kept.splice(0, this.kept.length - this.bound);
      this.dropped = this.seq - this.bound;
    }
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /** What is kept, oldest first, and how many came before it. */
  snapshot(): { events: InspectEvent[]; dropped: number } {
    return { events: [...this.kept], dropped: this.dropped };
  }

  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
