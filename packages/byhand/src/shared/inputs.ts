// VS Code's `${input:id}`: asked at the terminal with the input's description, without echo when
// it is a password. Without a terminal nothing is asked, and the caller says which --input to give.
// Ctrl-C at any question stops the command (exit 130), as at the host's questions: a terminal in raw mode
// hands Ctrl-C to readline, not to the process as a signal, so readline's SIGINT is the command's.

import { createInterface } from 'node:readline';
import { InterruptedError } from '@byhand/host';
import type { InputSpec } from './config.js';
import type { CommandIO } from './io.js';

type AskIO = Pick<CommandIO, 'stdin' | 'stderr' | 'interrupt'>;

/** The values, or undefined when there is no terminal to ask at. */
export async function askInputs(specs: InputSpec[], io: AskIO): Promise<Record<string, string> | undefined> {
  if (!io.stdin.isTTY) return undefined;
  const values: Record<string, string> = {};
  for (const spec of specs) {
    const answer = await askLine(`${spec.description ?? spec.id} (\${input:${spec.id}})${spec.password ? ', not shown' : ''}: `, spec.password, io);
    if (answer === null) return undefined;
    values[spec.id] = answer;
  }
  return values;
}

/** The line typed, or null at the end of input (Ctrl-D). Rejects with InterruptedError at Ctrl-C, with the reason when `io.interrupt` aborts. */
export function askLine(prompt: string, hidden: boolean, io: AskIO): Promise<string | null> {
  return new Promise((resolve, reject) => {
    io.interrupt?.throwIfAborted();
    const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
    let answered = false;
    const stop = (error: unknown) => {
      if (answered) return;
      answered = true;
      rl.close();
      // The prompt's line is left as typed; what follows starts on a line of its own.
      io.stderr.write('\n');
      reject(error);
    };
    const onAbort = () => stop(io.interrupt!.reason);
    io.interrupt?.addEventListener('abort', onAbort, { once: true });
    rl.on('SIGINT', () => stop(new InterruptedError()));
    if (hidden) {
      // readline echoes through _writeToOutput; after the prompt nothing typed is written.
      const echo = rl as unknown as { _writeToOutput(text: string): void };
      const write = echo._writeToOutput.bind(rl);
      echo._writeToOutput = (text: string) => (text.startsWith(prompt) || text === '\r\n' || text === '\n' ? write(text) : undefined);
    }
    rl.question(prompt, (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    rl.on('close', () => {
      io.interrupt?.removeEventListener('abort', onAbort);
      if (!answered) resolve(null);
    });
  });
}
