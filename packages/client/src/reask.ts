// The re-ask rule of the MRTR loop (docs/wire.md §3.6). A server may ask again, with the very same
// request, for a key it was just answered: the SDK documents that as how a server rejects an invalid
// answer (re-issue the request, or give up). The same symptom is also the classic client bug, where
// the server never sees the answer (inputResponses put in _meta, or wrapped as {kind, result}). So a
// re-ask is passed to the host again, told apart from a loop by two bounds:
//
// - a fixed point: the same request, with the same requestState, answered the same way as last time.
//   Sending that again cannot change what the server does, so the loop stops before sending it;
// - a per-key budget of identical re-asks in a row: 3 for forms and roots, 1 for sampling, since every
//   ask of a sampling request is a paid model call.
//
// maxRounds bounds everything else (a server that asks for something new every round).

import { InputLoopError } from './errors.js';
import type { InputResponse, JsonObject } from './types.js';

export const REASK_BUDGET = { sampling: 1, other: 3 } as const;

interface Asked {
  request: string;
  answer: string;
  again: number;
}

export interface Ask {
  key: string;
  request: JsonObject;
  /** How many times in a row this same request was asked before (InputContext.again). */
  again: number;
}

export class ReAsks {
  #last = new Map<string, Asked>();
  #lastState: string | undefined;

  constructor(private readonly method: string, private readonly name: string) {}

  /** This round's requests, each with its re-ask count; throws when a key has used up its budget. */
  asks(entries: [string, unknown][], round: number): Ask[] {
    const asks = entries.map(([key, request]) => {
      const before = this.#last.get(key);
      const again = before?.request === JSON.stringify(request) ? before.again + 1 : 0;
      return { key, request: request as JsonObject, again };
    });
    const over = asks.filter((ask) => ask.again > budget(ask.request));
    if (over.length > 0) {
      const sampling = over.some((ask) => isSampling(ask.request));
      throw new InputLoopError(this.method, this.name, over.map((a) => a.key), round, {
        kind: 'budget',
        times: Math.max(...over.map((a) => a.again)) + 1,
        sampling,
        message: serverMessage(over[0].request),
      });
    }
    return asks;
  }

  /** After the host answered: stops at a fixed point, else remembers this round for the next. */
  answered(asks: Ask[], responses: Record<string, InputResponse>, state: string | undefined, round: number): void {
    const fixed = asks.filter(
      (ask) => ask.again > 0 && state === this.#lastState && this.#last.get(ask.key)?.answer === JSON.stringify(responses[ask.key]),
    );
    if (fixed.length > 0) {
      throw new InputLoopError(this.method, this.name, fixed.map((a) => a.key), round, {
        kind: 'fixed-point',
        times: fixed[0].again + 1,
        sampling: fixed.some((ask) => isSampling(ask.request)),
        message: serverMessage(fixed[0].request),
      });
    }
    this.#last = new Map(asks.map((ask) => [ask.key, { request: JSON.stringify(ask.request), answer: JSON.stringify(responses[ask.key]), again: ask.again }]));
    this.#lastState = state;
  }
}

function isSampling(request: JsonObject): boolean {
  return request.method === 'sampling/createMessage';
}

function budget(request: JsonObject): number {
  return isSampling(request) ? REASK_BUDGET.sampling : REASK_BUDGET.other;
}

/** An elicitation's message: often the reason the last answer was not taken. */
function serverMessage(request: JsonObject): string | undefined {
  const params = request.params as JsonObject | undefined;
  return request.method === 'elicitation/create' && typeof params?.message === 'string' ? params.message : undefined;
}
