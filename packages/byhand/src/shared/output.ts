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
