import { createInterface, type Interface } from 'node:readline';

export type InputStream = NodeJS.ReadableStream & { isTTY?: boolean; readableEnded?: boolean };
export type OutputStream = NodeJS.WritableStream & { isTTY?: boolean };

/**
 * Line prompts on a stream pair, shared by the approval question and the forms.
 *
 * A readline interface is opened for each question and closed once it is answered: an open one
 * keeps a TTY in raw mode (so Ctrl-C would do nothing while a model call runs) and keeps the
 * process alive. Lines that arrive together (piped input) are kept for the next questions.
 */
export class Terminal {
  readonly #input: InputStream;
  readonly #output: OutputStream;
  readonly #ahead: string[] = [];
  #ended = false;

  constructor(input: InputStream, output: OutputStream) {
    this.#input = input;
    this.#output = output;
    input.once('end', () => (this.#ended = true));
  }

  /** True when a person is at the keyboard: the input is a TTY. */
  get interactive(): boolean {
    return Boolean(this.#input.isTTY);
  }

  write(text: string): void {
    this.#output.write(text);
  }

  /** One line of answer, or null for end of input (Ctrl-D) and Ctrl-C. */
  async ask(prompt: string, signal?: AbortSignal): Promise<string | null> {
    const line = await this.#read(prompt, signal);
    // A terminal echoes what is typed; piped answers are echoed here so the transcript reads whole.
    if (!this.#terminalMode) this.#output.write(`${line ?? ''}\n`);
    return line;
  }

  get #terminalMode(): boolean {
    return Boolean(this.#input.isTTY && this.#output.isTTY);
  }

  #read(prompt: string, signal?: AbortSignal): Promise<string | null> {
    signal?.throwIfAborted();
    if (this.#ahead.length) {
      this.#output.write(prompt);
      return Promise.resolve(this.#ahead.shift()!);
    }
    if (this.#ended || this.#input.readableEnded) {
      this.#output.write(prompt);
      return Promise.resolve(null);
    }
    return new Promise((resolve, reject) => {
      const rl: Interface = createInterface({ input: this.#input, output: this.#output, terminal: this.#terminalMode });
      let answered = false;
      const finish = (line: string | null) => {
        if (answered) return;
        answered = true;
        signal?.removeEventListener('abort', onAbort);
        rl.close();
        resolve(line);
      };
      const onAbort = () => {
        answered = true;
        rl.close();
        reject(signal!.reason);
      };
      rl.on('line', (line) => (answered ? this.#ahead.push(line) : finish(line)));
      rl.on('close', () => finish(null));
      rl.on('SIGINT', () => finish(null));
      signal?.addEventListener('abort', onAbort, { once: true });
      rl.setPrompt(prompt);
      rl.prompt();
    });
  }
}

/**
 * Server text made safe to print: control characters (which could move the cursor, recolour or
 * rewrite what the user sees, say to disguise a URL) and bidirectional overrides become visible
 * escapes. Newlines and tabs stay.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) =>
    `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
