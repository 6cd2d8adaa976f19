// A hand-written text/event-stream reader (WHATWG HTML "server-sent events"): events are separated by a
// blank line, `data:` lines join with "\n", lines starting with ':' are comments (keep-alives), and a
// `retry:` field sets the reconnection delay. Events are yielded as they arrive, not after the stream ends.

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  let retry: number | undefined;
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        const skip = buffer.startsWith('\r\n', newline) ? 2 : 1;
        // A lone '\r' at the end of the buffer may be the first half of '\r\n': wait for more.
        if (!done && skip === 1 && buffer[newline] === '\r' && newline === buffer.length - 1) break;
        buffer = buffer.slice(newline + skip);
        if (line === '') {
          if (data.length > 0 || retry !== undefined) yield { event: event || 'message', data: data.join('\n'), id, retry };
          data = [];
          event = '';
          retry = undefined;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'data') data.push(text);
        else if (field === 'event') event = text;
        else if (field === 'id' && !text.includes('\0')) id = text;
        else if (field === 'retry' && /^\d+$/.test(text)) retry = Number(text);
      }
      if (done) {
        finished = true;
        break;
      }
    }
    if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id, retry };
  } finally {
    // Leaving early (the answer arrived) must still release the connection.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
