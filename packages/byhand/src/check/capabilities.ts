// Capabilities: a server may ask a client only for what that request's envelope declared. A tool that needs sampling,
// elicitation or roots from a client that did not declare it must be refused with -32021
// (MissingRequiredClientCapability), not answered with input_required: declaring is how a user says what a server may
// ask of their model and of them (the security control), and a client that never declared cannot answer anyway.

import type { ClientCapabilities } from '@byhand/client';
import { add, labelOf, sendRaw, type CheckContext } from './context.js';
import { isObject } from './raw.js';
import { gotText, targetRequest } from './request.js';

const CAPABILITY_OF: Record<string, keyof ClientCapabilities> = { 'sampling/createMessage': 'sampling', 'elicitation/create': 'elicitation', 'roots/list': 'roots' };

/** The capabilities a round's input requests need. */
export function needed(inputRequests: unknown): (keyof ClientCapabilities)[] {
  if (!isObject(inputRequests)) return [];
  return [...new Set(Object.values(inputRequests).map((r) => (isObject(r) && typeof r.method === 'string' ? CAPABILITY_OF[r.method] : undefined)).filter((c) => c !== undefined))];
}

export async function checkCapabilities(ctx: CheckContext): Promise<void> {
  const asking = ctx.asking.filter((a) => needed(a.first.inputRequests).length > 0);
  if (asking.length === 0) {
    add(ctx, { area: 'capabilities', id: 'capabilities.gate', status: 'skip', title: 'capability gate not checked', why: ctx.serves.modern ? 'nothing check called, read or got asked for sampling, elicitation or roots (--call or --all-tools include more tools)' : 'the server does not serve the modern era' });
    return;
  }
  for (const { target, first } of asking) {
    const needs = needed(first.inputRequests);
    const { message, headers } = targetRequest(target, {}, { capabilities: {} });
    const sent = `${target.method} ${target.name} declaring no capabilities (it asks for ${needs.join(', ')} when they are declared)`;
    const reply = await sendRaw(ctx, `${target.method} ${target.name} (no capabilities)`, message, headers);
    const result = reply.message?.result;
    const id = `capabilities.gate:${target.name}`;
    const label = labelOf(target);
    if (reply.message?.error?.code === -32021) {
      add(ctx, { area: 'capabilities', id, status: 'pass', title: `${label}: a client without ${needs.join(', ')} gets -32021`, sent, got: gotText(reply) });
    } else if (result?.resultType === 'input_required') {
      const still = needed(result.inputRequests);
      add(ctx, {
        area: 'capabilities', id, status: 'error',
        title: `${label} asks a client that did not declare ${still.join(', ') || needs.join(', ')} (input_required, not -32021): the capability gate is missing`,
        sent, got: `${gotText(reply)} asking for ${still.join(', ') || 'input'}`,
        why: 'declaring sampling, elicitation or roots is how the user lets a server use their model, ask them, or see their folders; a server that asks anyway ignores that choice, and the client cannot answer',
        fix: 'refuse with -32021 (MissingRequiredClientCapability) when the envelope lacks the capability: the SDK\'s inputRequired() does so unless the request\'s clientCapabilities are bypassed; a hand-written server reads params._meta["io.modelcontextprotocol/clientCapabilities"] first',
      });
    } else if (result !== undefined) {
      add(ctx, { area: 'capabilities', id, status: 'pass', title: `${label}: without ${needs.join(', ')} it completes without asking`, sent, got: gotText(reply) });
    } else {
      add(ctx, { area: 'capabilities', id, status: 'warn', title: `${label}: refused, but not with -32021`, sent, got: gotText(reply), why: 'the spec names -32021 with data.requiredCapabilities so a client can tell the user what to enable', fix: 'answer -32021 (MissingRequiredClientCapability)' });
    }
  }
}
