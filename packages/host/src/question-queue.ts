import { InterruptedError } from './errors.js';

/**
 * One person, one question at a time. Every interactive question (a model-call approval, a form,
 * a URL consent) runs through one queue per terminal: it is shown, answered and closed before the
 * next one starts, so what is typed goes to the question on screen, never to a sibling asked in
 * the same round. Ctrl-C at any question interrupts them all: the ones waiting are never shown.
 */
export class QuestionQueue {
  #tail: Promise<unknown> = Promise.resolve();
  #interrupted: InterruptedError | undefined;
  /** Questions queued or on screen. */
  #open = 0;

  constructor(private readonly onInterrupt: (error: InterruptedError) => void = () => {}) {}

  get interrupted(): boolean {
    return this.#interrupted !== undefined;
  }

  /** Runs `question` once every question queued before it is closed; a request given up meanwhile is skipped. */
  ask<T>(question: () => Promise<T>, signal: AbortSignal): Promise<T> {
    this.#open++;
    const turn = this.#tail.then(async () => {
      if (this.#interrupted) throw this.#interrupted;
      signal.throwIfAborted();
      try {
        return await question();
      } catch (error) {
        if (error instanceof InterruptedError && !this.#interrupted) {
          this.#interrupted = error;
          this.onInterrupt(error);
        }
        throw error;
      } finally {
        this.#open--;
      }
    });
    // The next question waits for the event loop to turn, so the outcome of this one (a "no" that
    // fails the request and gives up its siblings) has settled before anything else is shown.
    this.#tail = turn.catch(() => undefined).then(() => new Promise((resolve) => setImmediate(resolve)));
    return turn;
  }

  /**
   * Runs `note` now when no question is open, else once the questions queued so far are closed: a line
   * written while a prompt waits for its answer would land inside the prompt's line.
   */
  between(note: () => void): void {
    if (this.#open === 0) {
      note();
      return;
    }
    void this.#tail.then(note);
  }
}
