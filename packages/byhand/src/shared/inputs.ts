// VS Code's `${input:id}`: asked at the terminal with the input's description, without echo when
// it is a password. Without a terminal nothing is asked, and the caller says which --input to give.

import { createInterface } from 'node:readline';
import type { InputSpec } from './config.js';
import type { CommandIO } from './io.js';

/** The values, or undefined when there is no terminal to ask at. */
export async function askInputs(specs: InputSpec[], io: Pick<CommandIO, 'stdin' | 'stderr'>): Promise<Record<string, string> | undefined> {
  if (!io.stdin.isTTY) return undefined;
  const values: Record<string, string> = {};
  for (const spec of specs) {
    const answer = await askLine(`${spec.description ?? spec.id} (\${input:${spec.id}})${spec.password ? ', not shown' : ''}: `, spec.password, io);
    if (answer === null) return undefined;
    values[spec.id] = answer;
  }
  return values;
}

export function askLine(prompt: string, hidden: boolean, io: Pick<CommandIO, 'stdin' | 'stderr'>): Promise<string | null> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
    let answered = false;
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
    rl.on('close', () => answered || resolve(null));
  });
}
