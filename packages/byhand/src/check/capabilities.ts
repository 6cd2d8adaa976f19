// Capabilities: a server may ask a client only for what that request's envelope declared. A request that needs sampling,
// elicitation or roots from a client that did not declare it must be refused with -32021
// (MissingRequiredClientCapability, HTTP 400, data.requiredCapabilities), not answered with input_required: declaring
// is how a user says what a server may ask of their model and of them (the security control), and a client that never
// declared cannot answer anyway (spec basic/index.mdx; basic/patterns/mrtr.mdx). Each kind a request asks for is left
// out on its own, the others declared, so a gate that looks at one kind only is found.

import type { ClientCapabilities } from '@byhand/client';
import { add, labelOf, sendRaw, type CheckContext } from './context.js';
import { isObject, type RawReply } from './raw.js';
import { ALL_CAPABILITIES, gotText, targetRequest } from './request.js';

const CAPABILITY_OF: Record<string, keyof ClientCapabilities> = { 'sampling/createMessage': 'sampling', 'elicitation/create': 'elicitation', 'roots/list': 'roots' };

/** The capabilities a round's input requests need. */
export function needed(inputRequests: unknown): (keyof ClientCapabilities)[] {
  if (!isObject(inputRequests)) return [];
  return [...new Set(Object.values(inputRequests).map((r) => (isObject(r) && typeof r.method === 'string' ? CAPABILITY_OF[r.method] : undefined)).filter((c) => c !== undefined))];
}

type Outcome = { kind: keyof ClientCapabilities; reply: RawReply; verdict: 'gated' | 'asks' | 'fine' | 'other' | 'no-data' };

export async function checkCapabilities(ctx: CheckContext): Promise<void> {
  const asking = ctx.asking.filter((a) => needed(a.first.inputRequests).length > 0);
  if (asking.length === 0) {
    add(ctx, { area: 'capabilities', id: 'capabilities.gate', status: 'skip', title: 'capability gate not checked', why: ctx.serves.modern ? 'nothing check called, read or got asked for sampling, elicitation or roots (--call or --all-tools include more tools)' : 'the server does not serve the modern era' });
    return;
  }
  for (const { target, first } of asking) {
    const outcomes: Outcome[] = [];
    for (const kind of needed(first.inputRequests)) {
      const capabilities = Object.fromEntries(Object.entries(ALL_CAPABILITIES).filter(([k]) => k !== kind)) as ClientCapabilities;
      const { message, headers } = targetRequest(target, {}, { capabilities });
      const reply = await sendRaw(ctx, `${target.method} ${target.name} (without ${kind})`, message, headers);
      outcomes.push({ kind, reply, verdict: verdictOf(reply, kind) });
    }
    const id = `capabilities.gate:${target.name}`;
    const label = labelOf(target);
    const sentOf = (o: Outcome) => `${target.method} ${target.name} declaring ${Object.keys(ALL_CAPABILITIES).filter((k) => k !== o.kind).join(' and ')}, not ${o.kind} (it asks for ${o.kind} when it is declared)`;
    const asks = outcomes.filter((o) => o.verdict === 'asks');
    if (asks.length > 0) {
      add(ctx, {
        area: 'capabilities', id, status: 'error',
        title: `${label} asks a client that did not declare ${asks.map((o) => o.kind).join(', ')} (input_required, not -32021): the capability gate is missing${outcomes.length > asks.length ? ` for ${asks.length === 1 ? 'that kind' : 'those kinds'}` : ''}`,
        sent: sentOf(asks[0]), got: `${gotText(asks[0].reply)} asking for ${needed(asks[0].reply.message?.result?.inputRequests).join(', ')}`,
        why: 'declaring sampling, elicitation or roots is how the user lets a server use their model, ask them, or see their folders; a server that asks anyway ignores that choice, and the client cannot answer',
        fix: 'refuse with -32021 (MissingRequiredClientCapability) when the envelope lacks the capability, for every kind you ask for: the SDK\'s inputRequired() does so unless the request\'s clientCapabilities are bypassed; a hand-written server reads params._meta["io.modelcontextprotocol/clientCapabilities"] before it asks',
      });
      continue;
    }
    const other = outcomes.find((o) => o.verdict === 'other' || o.verdict === 'no-data');
    if (other) {
      add(ctx, {
        area: 'capabilities', id, status: 'warn',
        title: other.verdict === 'no-data' ? `${label}: -32021 without data.requiredCapabilities naming ${other.kind}` : `${label}: refused without ${other.kind}, but not with -32021 and HTTP 400`,
        sent: sentOf(other), got: `${gotText(other.reply)}${other.reply.message?.error?.data !== undefined ? `, data ${JSON.stringify(other.reply.message.error.data).slice(0, 120)}` : ''}`,
        why: 'the spec answers a missing capability with HTTP 400, -32021 and data.requiredCapabilities, so a client can tell the user what to enable',
        fix: 'answer HTTP 400 with error -32021 (MissingRequiredClientCapability) and data: {requiredCapabilities: {KIND: {}}}',
      });
      continue;
    }
    add(ctx, { area: 'capabilities', id, status: 'pass', title: `${label}: a client without ${outcomes.map((o) => o.kind).join(' or ')} is refused with -32021, or not asked`, sent: sentOf(outcomes[0]), got: gotText(outcomes[0].reply) });
  }
}

function verdictOf(reply: RawReply, kind: keyof ClientCapabilities): Outcome['verdict'] {
  const error = reply.message?.error;
  if (error?.code === -32021) {
    const required = isObject(error.data) ? error.data.requiredCapabilities : undefined;
    if (reply.status !== undefined && reply.status !== 400) return 'other';
    return isObject(required) && kind in required ? 'gated' : 'no-data';
  }
  const result = reply.message?.result;
  if (result?.resultType === 'input_required') return needed(result.inputRequests).includes(kind) ? 'asks' : 'fine';
  return result !== undefined ? 'fine' : 'other';
}
