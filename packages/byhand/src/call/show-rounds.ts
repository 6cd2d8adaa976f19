// The MRTR loop told as it happens: what the server asked for in each round (from the client's round
// events) and what the host did about it (from the host's events). Legacy-era servers ask with
// server-to-client requests instead of rounds; those are told from the host's events alone.

import type { ElicitResult, JsonObject, RoundEvent } from '@byhand/client';
import { truncate } from '@byhand/client';
import type { HostEvent } from '@byhand/host';
import { printable } from '@byhand/host';
import { cliText } from '../shared/fail.js';

export interface Narrator {
  onRound(event: RoundEvent): void;
  onEvent(event: HostEvent): void;
  /** Rounds that asked for input so far. */
  readonly rounds: number;
}

const SHOWN = 80;

export function createNarrator(say: (line: string) => void, answersFile?: string): Narrator {
  let rounds = 0;
  return {
    get rounds() {
      return rounds;
    },

    onRound(event) {
      if (event.phase === 'asked') {
        rounds = event.round;
        const entries = Object.entries(event.inputRequests);
        for (const [key, request] of entries) say(`round ${event.round}: the server asks ${asked(request as JsonObject)} [${printable(key)}]`);
        if (event.requestState !== undefined) {
          say(entries.length > 0
            ? `  (with a requestState of ${event.requestState.length} characters, sent back unchanged)`
            : `round ${event.round}: the server asks to be called again, carrying its requestState (${event.requestState.length} characters)`);
        }
        return;
      }
      const keys = Object.keys(event.inputResponses).map(printable).join(', ');
      say(`round ${event.round + 1}: ${event.method} ${printable(event.name)} again, with the answers for ${keys}`);
    },

    onEvent(event) {
      // A legacy request has no input key, only its JSON-RPC id.
      const key = event.ctx.era === 'legacy' ? `request #${printable(event.ctx.key)}` : printable(event.ctx.key);
      // A modern request was told by onRound; a legacy one only reaches the host.
      const pushed = event.ctx.era === 'legacy' ? ' (a 2025-era request from server to client, during the call)' : '';
      switch (event.type) {
        case 'sampling-request':
          if (pushed) say(`the server asks ${asked({ method: 'sampling/createMessage', params: event.params })}${pushed}`);
          return;
        case 'elicitation-request':
          if (pushed) say(`the server asks ${asked({ method: 'elicitation/create', params: event.params })}${pushed}`);
          return;
        case 'sampling-result':
          say(
            event.provider === 'offline'
              ? `  the host answered [${key}] with byhand's offline provider, which is not a model: no model was called; the text is made from the request's own words`
              : `  the host answered [${key}] with ${printable(event.model)} via ${event.provider} (maxTokens ${event.maxTokens}${event.usage ? `; the provider reports ${event.usage.input.toLocaleString('en')} tokens in, ${event.usage.output.toLocaleString('en')} out` : ''})`,
          );
          return;
        case 'sampling-refused':
          // The host names its own options (`yes`); a person at the shell has flags for them.
          say(`  the host refused [${key}]: ${printable(cliText(event.message))}`);
          return;
        case 'sampling-failed':
          say(`  the model call failed [${key}]: ${printable(cliText(event.error.message))}`);
          return;
        case 'elicitation-result': {
          const from = { 'answers-file': `from ${answersFile ?? 'the answers file'}`, piped: 'from the pipe on stdin', terminal: 'at the terminal' }[event.source];
          say(`  ${event.source === 'piped' ? 'the answer' : 'you answered'} [${key}] ${from}: ${answer(event.result)}`);
          return;
        }
        case 'roots-listed': {
          const roots = event.result.roots.map((root) => printable(root.uri)).join(', ');
          say(pushed ? `the server asks for the roots${pushed}; the host gave ${roots}` : `  the host gave the roots [${key}]: ${roots}`);
          return;
        }
      }
    },
  };
}

function asked(request: JsonObject): string {
  const params = (request.params ?? {}) as JsonObject;
  switch (request.method) {
    case 'sampling/createMessage': {
      const messages = Array.isArray(params.messages) ? (params.messages as JsonObject[]) : [];
      return `the host to think: ${quote(firstText(messages[0]?.content))}, maxTokens ${String(params.maxTokens)}`;
    }
    case 'elicitation/create':
      if (params.mode === 'url') return `you to open ${printable(String(params.url))}: ${quote(params.message)}`;
      return `you: ${quote(params.message)}${fields(params.requestedSchema)}`;
    case 'roots/list':
      return 'for the roots';
    default:
      return `for ${printable(String(request.method))}, which is no input request byhand knows`;
  }
}

function firstText(content: unknown): unknown {
  const blocks = Array.isArray(content) ? content : [content];
  const text = blocks.find((b): b is JsonObject => typeof b === 'object' && b !== null && (b as JsonObject).type === 'text');
  return text?.text ?? '(no text)';
}

function fields(schema: unknown): string {
  const properties = (schema as { properties?: JsonObject } | undefined)?.properties;
  const names = properties ? Object.keys(properties) : [];
  return names.length > 0 ? ` (fields: ${names.map(printable).join(', ')})` : '';
}

function answer(result: ElicitResult): string {
  if (result.action !== 'accept') return result.action;
  return `accept ${printable(JSON.stringify(result.content ?? {}))}`;
}

function quote(text: unknown): string {
  return `"${printable(truncate(String(text), SHOWN))}"`;
}
