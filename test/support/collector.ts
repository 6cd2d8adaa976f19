// A writable stream that keeps what is written, for commands run in-process with their io injected.
import { Writable } from 'node:stream';

export function collector(): Writable & { text: string } {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      stream.text += String(chunk);
      done();
    },
  }) as Writable & { text: string };
  stream.text = '';
  return stream;
}
