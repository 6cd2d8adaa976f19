// Multi round-trip requests (SEP-2322, spec basic/patterns/mrtr.mdx). On `input_required` the client
// fulfils every inputRequests entry, concurrently, and sends the same method again with a new id,
// `inputResponses` (bare results, this round's only) and `requestState` (echoed byte for byte, omitted
// when none came) as TOP-LEVEL members of params. Bounded by a round cap and a re-ask detector.

import { InputLoopError, ProtocolError, RoundLimitError } from './errors.js';
import { fulfil } from './fulfil.js';
import type { Host, InputResponse, JsonObject } from './types.js';

export const INPUT_METHODS = new Set(['tools/call', 'resources/read', 'prompts/get']);
export const DEFAULT_MAX_ROUNDS = 10;

export type RoundEvent =
  | { phase: 'asked'; round: number; method: string; name: string; inputRequests: JsonObject; requestState?: string }
  | { phase: 'answered'; round: number; method: string; name: string; inputResponses: Record<string, InputResponse> };

export interface MultiRoundOptions {
  host: Host;
  maxRounds: number;
  signal: AbortSignal;
  onRound?: (event: RoundEvent) => void;
}

export function inputRequiredMisplaced(method: string): ProtocolError {
  return new ProtocolError(`${method} answered input_required, which only tools/call, resources/read and prompts/get may`, 'this is a server bug (spec basic/patterns/mrtr.mdx)');
}

/** Sends `params`, then keeps answering input requests until the result is complete. */
export async function withInputRounds(
  method: string,
  name: string,
  params: JsonObject,
  send: (params: JsonObject) => Promise<JsonObject>,
  options: MultiRoundOptions,
): Promise<JsonObject> {
  let answered = new Map<string, string>();
  let next = params;
  for (let round = 1; ; round++) {
    const result = await send(next);
    const type = result.resultType;
    if (type === undefined || type === 'complete') return result;
    if (type !== 'input_required') {
      throw new ProtocolError(`${method} ${name} answered with resultType '${String(type)}', which byhand does not know`, 'the server may need an extension (such as tasks) that the client did not ask for');
    }
    if (!INPUT_METHODS.has(method)) throw inputRequiredMisplaced(method);
    if (round > options.maxRounds) throw new RoundLimitError(method, name, options.maxRounds);
    const requests = result.inputRequests;
    const state = result.requestState;
    if (requests !== undefined && (typeof requests !== 'object' || requests === null || Array.isArray(requests))) {
      throw new ProtocolError(`${method} ${name}: inputRequests is not an object`, 'this is a server bug: inputRequests maps keys to requests');
    }
    if (state !== undefined && typeof state !== 'string') {
      throw new ProtocolError(`${method} ${name}: requestState is not a string`, 'this is a server bug: requestState is an opaque string');
    }
    if (requests === undefined && state === undefined) {
      throw new ProtocolError(`${method} ${name} asked for input but sent neither inputRequests nor requestState`, 'this is a server bug (spec: at least one of them MUST be present)');
    }
    const entries = Object.entries((requests ?? {}) as JsonObject);
    const again = entries.filter(([key, request]) => answered.get(key) === JSON.stringify(request)).map(([key]) => key);
    if (again.length > 0) throw new InputLoopError(method, name, again, round);
    options.onRound?.({ phase: 'asked', round, method, name, inputRequests: (requests ?? {}) as JsonObject, ...(state !== undefined ? { requestState: state } : {}) });

    const responses = Object.fromEntries(
      await Promise.all(
        entries.map(async ([key, request]) => {
          const ctx = { key, method, name, round, era: 'modern' as const, signal: options.signal };
          return [key, await fulfil(options.host, request as JsonObject, ctx)] as const;
        }),
      ),
    );
    if (entries.length > 0) options.onRound?.({ phase: 'answered', round, method, name, inputResponses: responses });
    answered = new Map(entries.map(([key, request]) => [key, JSON.stringify(request)]));
    next = { ...params };
    if (entries.length > 0) next.inputResponses = responses;
    if (state !== undefined) next.requestState = state;
  }
}
