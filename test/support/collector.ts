// A writable stream that keeps what is written, for commands run in-process with their io injected.
import { Writable } from 'node:stream';
import { newRunMemory, type RunMemory } from '../../packages/byhand/src/shared/io.js';

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

/** What a command run in-process needs beside its streams: a folder, and a memory of its own, as a process has. */
export function runOwn(cwd = process.cwd()): { cwd: string; memory: RunMemory } {
  return { cwd, memory: newRunMemory() };
}
