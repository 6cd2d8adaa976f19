// A hand-written text/event-stream reader (WHATWG HTML "server-sent events"): events are separated by a
// blank line, `data:` lines join with "\n", lines starting with ':' are comments (keep-alives), and a
// `retry:` field sets the reconnection delay. Events are yielded as they arrive, not after the stream ends.
// Linear time: each chunk is scanned once from where the last scan stopped, so a long line costs its
// length, not its length squared; a line or an event larger than `maxEventBytes` ends the stream with a
// LimitError.

import type { ByteStream } from './bytes.js';
import { LimitError } from '../errors.js';

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

export async function* readSse(body: ByteStream, maxEventBytes: number): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const lineEnd = /\r\n|\r|\n/g;
  // The unfinished line, in pieces: joined once when its end arrives, never rescanned.
  let pending: string[] = [];
  let pendingSize = 0;
  // A chunk that ended in '\r' ended a line; a '\n' opening the next chunk is the rest of that "\r\n".
  let skipLineFeed = false;
  let data: string[] = [];
  let dataSize = 0;
  let event = '';
  let id: string | undefined;
  let retry: number | undefined;
  let finished = false;
  try {
    for (;;) {
      const chunk = await body.read();
      const done = chunk === undefined;
      const text = done ? decoder.decode() : decoder.decode(chunk, { stream: true });
      let pos = 0;
      if (skipLineFeed && text.length > 0) {
        if (text[0] === '\n') pos = 1;
        skipLineFeed = false;
      }
      lineEnd.lastIndex = pos;
      for (let match = lineEnd.exec(text); match !== null; match = lineEnd.exec(text)) {
        const piece = text.slice(pos, match.index);
        const line = pending.length > 0 ? pending.join('') + piece : piece;
        pending = [];
        pendingSize = 0;
        pos = match.index + match[0].length;
        if (match[0] === '\r' && pos === text.length) skipLineFeed = true;
        if (line === '') {
          if (data.length > 0 || retry !== undefined) yield { event: event || 'message', data: data.join('\n'), id, retry };
          data = [];
          dataSize = 0;
          event = '';
          retry = undefined;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'data') {
          dataSize += value.length + 1;
          if (dataSize > maxEventBytes) throw new LimitError('an event of the response stream', maxEventBytes);
          data.push(value);
        } else if (field === 'event') event = value;
        else if (field === 'id' && !value.includes('\0')) id = value;
        else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
      }
      if (pos < text.length) {
        pending.push(pos === 0 ? text : text.slice(pos));
        pendingSize += text.length - pos;
        if (pendingSize > maxEventBytes) throw new LimitError('a line of the response stream', maxEventBytes);
      }
      if (done) {
        finished = true;
        break;
      }
    }
    // Lenient where WHATWG drops it: an event the stream ended inside of, after its last full line.
    if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id, retry };
  } finally {
    // Leaving early (the answer arrived, a limit tripped) must still release the connection.
    if (!finished) await body.cancel();
  }
}
