// What the client takes from a server before it stops reading. Each bound is per message (a JSON
// body, one SSE event, one stdio line), so memory stays bounded however long a stream runs; an
// overflow fails that request alone (a LimitError), never the process.

export interface Limits {
  /** The largest JSON body, SSE event or stdio line the client reads, in bytes. Default 4 MiB. */
  maxMessageBytes: number;
}

export const DEFAULT_LIMITS: Limits = { maxMessageBytes: 4 * 1024 * 1024 };
