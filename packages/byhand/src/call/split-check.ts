// The guess `byhand call -- COMMAND… TOOL k=v` makes (args.ts, splitCommandLine), checked against
// what the server has: when the name it split off is not one of the server's, or the command it
// left did not start, say in plain words how the words were split and the exact command to run.

import { shellQuote } from '../shared/output.js';
import type { CallArgs } from './args.js';
import { NAME_FLAG } from './spec.js';

const KIND = { call: 'tool', read: 'resource', prompt: 'prompt' } as const;

/** For a name the server does not have: the split whose name it has, or how to keep the word in the command line. */
export function splitAdvice(args: CallArgs, names: readonly string[]): string | undefined {
  const { guessed } = args;
  if (!guessed) return undefined;
  const { words } = guessed;
  const split = words.length - 1 - args.pairs.length;
  for (let at = words.length - 1; at >= 1; at--) {
    if (at === split || !names.includes(words[at])) continue;
    return `${said(args)}, and ${words[at]} is one of its ${KIND[args.verb]}s; run: ${exact(args, words[at], words.slice(at + 1), words.slice(0, at))}`;
  }
  // Runnable as printed: one of the names this server has, for the one wanted.
  const example = names[0] ?? KIND[args.verb].toUpperCase();
  return `${said(args)}; if ${args.name} belongs to the command line, run (with the ${KIND[args.verb]} you want): ${exact(args, example, args.pairs, words.slice(0, split + 1))}`;
}

/** For a command that did not start or answer: how the words were split, should the name belong to it. */
export function splitNote(args: CallArgs): string | undefined {
  const { guessed } = args;
  if (!guessed) return undefined;
  const whole = guessed.words.slice(0, guessed.words.length - args.pairs.length);
  return `${said(args)}; if ${args.name} belongs to the command line, name the ${KIND[args.verb]} exactly: ${exact(args, KIND[args.verb].toUpperCase(), args.pairs, whole)} (byhand list -- ${line(whole)} lists what it offers)`;
}

function said(args: CallArgs): string {
  return `the words after -- were split into the command \`${line(args.server.command ?? [])}\` and the ${KIND[args.verb]} ${args.name}`;
}

function exact(args: CallArgs, name: string, pairs: readonly string[], command: readonly string[]): string {
  const named = name === name.toUpperCase() && name === KIND[args.verb].toUpperCase() ? name : shellQuote(name);
  return ['byhand', args.verb, ...args.guessed!.options.map(shellQuote), `--${NAME_FLAG[args.verb]}`, named, ...pairs.map(shellQuote), '--', line(command)].join(' ');
}

function line(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
