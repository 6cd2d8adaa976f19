// Splits a byte stream (a stdio server's stdout) into newline-terminated lines in linear time, holding
// at most `max` bytes of an unfinished line. A longer line is never held: only its first and last
// bytes are kept, so the reader can still tell which request it answered (a JSON-RPC response names
// its id near one end: `{"jsonrpc":"2.0","id":…` or, as the SDK writes it, `…,"jsonrpc":"2.0","id":1}`).

export interface OversizeLine {
  head: Buffer;
  tail: Buffer;
}

const EDGE = 256;

export class LineSplitter {
  private pieces: Buffer[] = [];
  private size = 0;
  private oversize: OversizeLine | undefined;

  constructor(
    private readonly max: number,
    private readonly onLine: (line: Buffer) => void,
    /** Called when a line passes `max` (ended: false), and again when it ends (ended: true). */
    private readonly onOversize: (line: OversizeLine, ended: boolean) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, end < 0 ? chunk.length : end);
      if (this.oversize) this.oversize.tail = lastBytes([this.oversize.tail, piece]);
      else if (this.size + piece.length > this.max) {
        const parts = [...this.pieces, piece];
        this.oversize = { head: firstBytes(parts), tail: lastBytes(parts) };
        this.pieces = [];
        this.size = 0;
        this.onOversize(this.oversize, false);
      } else if (end >= 0) {
        const line = this.pieces.length === 0 ? piece : Buffer.concat([...this.pieces, piece]);
        this.pieces = [];
        this.size = 0;
        this.onLine(line);
      } else if (piece.length > 0) {
        this.pieces.push(piece);
        this.size += piece.length;
      }
      if (end < 0) return;
      if (this.oversize) {
        const line = this.oversize;
        this.oversize = undefined;
        this.onOversize(line, true);
      }
      start = end + 1;
    }
  }
}

/** The first EDGE bytes, copied so the chunks they came from can go. */
function firstBytes(parts: Buffer[]): Buffer {
  const out: Buffer[] = [];
  let n = 0;
  for (const part of parts) {
    if (n >= EDGE) break;
    const take = part.subarray(0, EDGE - n);
    out.push(take);
    n += take.length;
  }
  return Buffer.from(Buffer.concat(out));
}

/** The last EDGE bytes, copied. */
function lastBytes(parts: Buffer[]): Buffer {
  const out: Buffer[] = [];
  let n = 0;
  for (let i = parts.length - 1; i >= 0 && n < EDGE; i--) {
    const part = parts[i];
    const take = part.subarray(Math.max(0, part.length - (EDGE - n)));
    out.unshift(take);
    n += take.length;
  }
  return Buffer.from(Buffer.concat(out));
}

/** The id a JSON-RPC response line names at its start or at its end, if either edge shows one. */
export function responseIdAt(line: OversizeLine): string | number | undefined {
  const head = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(line.head.toString('latin1'));
  const tail = /[,{]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*\r?$/.exec(line.tail.toString('latin1'));
  const found = head?.[1] ?? tail?.[1];
  if (found === undefined) return undefined;
  try {
    return JSON.parse(found) as string | number;
  } catch {
    return undefined;
  }
}
