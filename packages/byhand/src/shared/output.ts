// Small pieces of output every command shares: notices on stderr and shell words a person can paste.

import { printable } from '@byhand/host';
import type { CommandIO } from './io.js';

/** A shell word the user can paste back. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `byhand: …` on stderr: what byhand chose on the user's behalf (which file, which servers). */
export function notice(io: Pick<CommandIO, 'stderr'>, text: string): void {
  io.stderr.write(`byhand: ${printable(text)}\n`);
}

/**
 * A notice for while work runs: on a terminal it stands on its own line until `clear` wipes it, so the result that
 * follows does not repeat it; elsewhere (a log) it is a line as `notice` writes it, and `clear` does nothing.
 */
export function passingNotice(io: Pick<CommandIO, 'stderr'>, text: string): { clear(): void } {
  if (io.stderr.isTTY !== true) {
    notice(io, text);
    return { clear: () => undefined };
  }
  io.stderr.write(`byhand: ${printable(text)}…`);
  let shown = true;
  return {
    clear() {
      if (shown) io.stderr.write('\r\x1b[2K');
      shown = false;
    },
  };
}
