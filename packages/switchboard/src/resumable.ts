// The event streams of a 2025 session, resumable (spec 2025-11-25 basic/transports.mdx, "Resumability and
// Redelivery"): every event has an id naming its stream and its place in it, a POST stream opens with a priming event
// (an id and empty data, with `retry`) for a host that speaks 2025-11-25 or later, and a stream the host lost keeps
// what was sent on it, so a GET with Last-Event-ID replays what came after that id on that stream only and carries
// the rest. The priming event goes only to a host whose version has it: before 2025-11-25 an event with empty data
// was not in the spec, and the SDK sends it from that version on (@modelcontextprotocol/sdk
// dist/esm/server/webStandardStreamableHttp.js, writePrimingEvent).

import type { JsonRpcMessage } from '@byhand/client';
import type { HttpExchange, ResponseSink } from './exchange.js';
import { frame } from './json-rpc-peer.js';

/** How long a host waits before it reconnects to a stream it lost, in ms: said on the priming event. */
const RETRY_MS = 1000;
/** Events kept per stream for a host to resume from; past this the oldest go (such a stream resumes from what is kept). */
const MAX_EVENTS = 1000;
/** Ended streams kept per session for a host that lost one just before its end. */
const MAX_ENDED = 16;

/** One stream of a session: its events with their ids, written to the host while it listens. */
export class ResumableStream {
  private readonly events: { seq: number; text: string }[] = [];
  private seq = 0;
  private sink: ResponseSink | undefined;
  ended = false;

  constructor(
    readonly key: number,
    /** Called once the stream has ended and its last event reached a listening host. */
    private readonly onEnd: () => void,
  ) {}

  /** Opens the event stream on `exchange`, and from then on writes to it; `after` replays from that place. */
  attach(exchange: HttpExchange, headers: Record<string, string>, options: { prime?: boolean; after?: number } = {}): void {
    this.detach();
    const sink = exchange.open({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
    this.sink = sink;
    exchange.onClose(() => {
      if (this.sink === sink) this.sink = undefined;
    });
    if (options.prime === true) this.write({ seq: this.seq++, text: `retry: ${RETRY_MS}\ndata: \n\n` });
    if (options.after !== undefined) for (const event of this.events) if (event.seq > options.after) this.write(event);
    if (this.ended) this.finish();
  }

  send(message: JsonRpcMessage): void {
    const data = this.ended ? undefined : frame(message);
    if (data === undefined) return;
    const event = { seq: this.seq++, text: `event: message\ndata: ${data}\n\n` };
    this.events.push(event);
    if (this.events.length > MAX_EVENTS) this.events.shift();
    this.write(event);
  }

  /** No more events: the host listening is let go, a host that lost the stream can still replay it. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.finish();
  }

  /** Whether a host is listening on this stream now. */
  get listening(): boolean {
    return this.sink !== undefined;
  }

  /** Stops writing to the host's response (a newer one took the stream, or the session ends). */
  detach(): void {
    const sink = this.sink;
    this.sink = undefined;
    sink?.end();
  }

  private write(event: { seq: number; text: string }): void {
    this.sink?.write(`id: ${this.key}-${event.seq}\n${event.text}`);
  }

  private finish(): void {
    if (this.sink === undefined) return;
    this.detach();
    this.onEnd();
  }
}

/** A session's streams by key, and the Last-Event-ID that names one. */
export class SessionStreams {
  private readonly streams = new Map<number, ResumableStream>();
  private readonly ended: number[] = [];
  private next = 0;

  open(): ResumableStream {
    const key = this.next++;
    const stream = new ResumableStream(key, () => this.forget(key));
    this.streams.set(key, stream);
    return stream;
  }

  /** The stream and place a Last-Event-ID names, if this session still has that stream. */
  find(lastEventId: string): { stream: ResumableStream; after: number } | undefined {
    const match = /^(\d+)-(\d+)$/.exec(lastEventId.trim());
    const stream = match === null ? undefined : this.streams.get(Number(match[1]));
    return stream === undefined ? undefined : { stream, after: Number(match![2]) };
  }

  /** A stream that ended is kept for a while, in case its host lost it before the end. */
  retire(stream: ResumableStream): void {
    if (!stream.ended || !this.streams.has(stream.key) || this.ended.includes(stream.key)) return;
    this.ended.push(stream.key);
    if (this.ended.length > MAX_ENDED) this.streams.delete(this.ended.shift()!);
  }

  close(): void {
    for (const stream of this.streams.values()) stream.detach();
    this.streams.clear();
  }

  private forget(key: number): void {
    this.streams.delete(key);
    const at = this.ended.indexOf(key);
    if (at >= 0) this.ended.splice(at, 1);
  }
}
