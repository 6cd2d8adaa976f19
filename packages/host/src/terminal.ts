import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';
import { InterruptedError } from './errors.js';

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

  /**
   * One line of answer, or null for end of input (Ctrl-D). Ctrl-C rejects with InterruptedError.
   * A secret is read without echo: nothing typed reaches the screen, and a piped one shows as ***.
   */
  async ask(prompt: string, signal?: AbortSignal, options: { secret?: boolean } = {}): Promise<string | null> {
    const line = await this.#read(prompt, signal, options.secret ?? false);
    // A terminal echoes what is typed; piped answers are echoed here so the transcript reads whole.
    if (!this.#terminalMode) this.#output.write(`${line === null ? '' : options.secret && line !== '' ? '***' : line}\n`);
    return line;
  }

  get #terminalMode(): boolean {
    return Boolean(this.#input.isTTY && this.#output.isTTY);
  }

  #read(prompt: string, signal: AbortSignal | undefined, secret: boolean): Promise<string | null> {
    signal?.throwIfAborted();
    if (this.#ahead.length) {
      this.#output.write(prompt);
      return Promise.resolve(this.#ahead.shift()!);
    }
    if (this.#ended || this.#input.readableEnded) {
      this.#output.write(prompt);
      return Promise.resolve(null);
    }
    const muted = secret && this.#terminalMode;
    return new Promise((resolve, reject) => {
      // Without echo, readline draws into a sink: the prompt is written here, the keystrokes nowhere.
      const output = muted ? new Writable({ write: (_chunk, _encoding, done) => done() }) : this.#output;
      const rl: Interface = createInterface({ input: this.#input, output, terminal: this.#terminalMode });
      let answered = false;
      const settle = () => {
        answered = true;
        signal?.removeEventListener('abort', onAbort);
        rl.close();
        if (muted) this.#output.write('\n');
      };
      const finish = (line: string | null) => {
        if (answered) return;
        settle();
        resolve(line);
      };
      const fail = (error: unknown) => {
        if (answered) return;
        settle();
        reject(error);
      };
      const onAbort = () => fail(signal!.reason);
      rl.on('line', (line) => (answered ? this.#ahead.push(line) : finish(line)));
      rl.on('close', () => finish(null));
      rl.on('SIGINT', () => fail(new InterruptedError()));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (muted) this.#output.write(prompt);
      rl.setPrompt(muted ? '' : prompt);
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
