// The back client's host when a legacy host sits in front: each input request the server makes (a modern
// `input_required` round or a legacy pushed request, the client calls this for both) goes to the host as the
// ordinary server-initiated request it knows, and its answer comes back. What the host declared is what the
// back declares: a callback exists only for a declared capability (fulfil.ts derives the envelope from them),
// unless the user gave the bridge its own way to answer (`--sampling`, `--answers`).

import type { ClientCapabilities, CreateMessageResult, ElicitResult, Host, JsonObject, ListRootsResult } from '@byhand/client';

/** Asks the host; `signal` aborts when the server no longer needs the answer (its request ended). */
export type Ask = (method: string, params: JsonObject, signal: AbortSignal) => Promise<JsonObject>;

export function relayHost(declared: ClientCapabilities, ask: Ask, own: Host = {}): Host {
  const host: Host = {};
  if (declared.sampling !== undefined && declared.sampling !== null) {
    host.sample = async (params, ctx) => (await ask('sampling/createMessage', params as unknown as JsonObject, ctx.signal)) as unknown as CreateMessageResult;
    if (declared.sampling.tools !== undefined) host.samplingTools = true;
  } else if (own.sample) {
    host.sample = own.sample;
  }
  if (declared.elicitation !== undefined && declared.elicitation !== null) {
    host.elicit = async (params, ctx) => (await ask('elicitation/create', params as unknown as JsonObject, ctx.signal)) as unknown as ElicitResult;
    host.elicitationModes = elicitationModes(declared.elicitation);
  } else if (own.elicit) {
    host.elicit = own.elicit;
    host.elicitationModes = own.elicitationModes ?? ['form'];
  }
  if (declared.roots !== undefined && declared.roots !== null) host.roots = async (ctx) => (await ask('roots/list', {}, ctx.signal)) as unknown as ListRootsResult;
  else if (own.roots) host.roots = own.roots;
  return host;
}

/** `elicitation: {}` is form mode (2025-06-18, where no modes existed); otherwise the modes named. */
export function elicitationModes(declared: { form?: JsonObject; url?: JsonObject }): ('form' | 'url')[] {
  const modes = (['form', 'url'] as const).filter((mode) => declared[mode] !== undefined);
  return modes.length > 0 ? modes : ['form'];
}
