// MRTR (multi round-trip requests, 2026-07-28), for each tool check called that asked for input:
// - a correct answer completes: byhand's client runs the rounds with the canned host (bare results, top-level
//   inputResponses, requestState byte for byte), and its re-ask rule (client reask.ts) names the re-ask trap;
// - the placement trap: the same answers placed inside _meta must not be taken;
// - a tampered requestState must be refused, not trusted;
// - rounds must converge (the client's round bound).

import { InputLoopError, RoundLimitError, type JsonObject } from '@byhand/client';
import { cannedAnswer } from './canned.js';
import { add, labelOf, sendRaw, type CheckContext, type InputTarget } from './context.js';
import { errorText } from './lists.js';
import { isObject } from './raw.js';
import { gotText, targetRequest } from './request.js';
import { checkResult } from './schemas.js';

export async function checkMrtr(ctx: CheckContext): Promise<void> {
  if (ctx.asking.length === 0) {
    add(ctx, { area: 'mrtr', id: 'mrtr', status: 'skip', title: 'no MRTR round to check', why: ctx.serves.modern ? 'nothing check called, read or got answered input_required (--call or --all-tools include more tools)' : 'the server does not serve the modern era' });
    return;
  }
  for (const { target, first } of ctx.asking) {
    await happyPath(ctx, target);
    await placement(ctx, target, first);
    await tampered(ctx, target, first);
  }
}

function answersFor(inputRequests: unknown, cwd: string): Record<string, unknown> {
  if (!isObject(inputRequests)) return {};
  return Object.fromEntries(Object.entries(inputRequests).map(([key, request]) => [key, cannedAnswer(request, cwd)]));
}

/** Did a reply complete the call: a result that is neither input_required nor a tool error. */
function completed(result: Record<string, unknown> | undefined): boolean {
  return result !== undefined && result.resultType !== 'input_required' && result.isError !== true;
}

/** The call, read or get through byhand's client, which runs every round with the canned host. */
async function throughClient(ctx: CheckContext, target: InputTarget): Promise<JsonObject> {
  const params = target.params;
  if (target.method === 'tools/call') return await ctx.client.callTool(target.name, params.arguments as JsonObject);
  if (target.method === 'resources/read') return await ctx.client.readResource(target.name);
  return await ctx.client.getPrompt(target.name, params.arguments as Record<string, string>);
}

async function happyPath(ctx: CheckContext, target: InputTarget): Promise<void> {
  const label = labelOf(target);
  const id = `mrtr.complete:${target.name}`;
  const sent = `${target.method} ${target.name}, every round answered with canned bare results, top-level inputResponses and the requestState as sent`;
  const started = performance.now();
  try {
    const result = await throughClient(ctx, target);
    ctx.timings.push({ what: `${target.method} ${target.name} (all rounds)`, ms: Math.round(performance.now() - started) });
    add(ctx, { area: 'mrtr', id, status: 'pass', title: `${label}: correct answers complete it`, sent, got: result.isError === true ? 'a tool error (isError)' : 'a complete result' });
    if (target.tool) checkResult(ctx, target.tool, result);
  } catch (error) {
    if (error instanceof InputLoopError) {
      const data = error.data as { keys: string[]; sampling: boolean };
      add(ctx, {
        area: 'mrtr', id: `mrtr.reask:${target.name}`, status: 'error',
        title: `${label} asks again for ${data.keys.map((k) => `'${k}'`).join(', ')} after a correct answer: the re-ask trap`,
        sent, got: error.message,
        why: data.sampling
          ? 'the answer to a sampling request arrived but the handler did not see it; the likely cause is reading it with a reader for another kind of request, such as the SDK\'s acceptedContent(), which reads only accepted elicitation answers and returns undefined for a sampling result. Every round is a paid model call and the user never gets a result'
          : 'the answer arrived but the handler did not see it: it reads another key, another place (such as _meta), or with a reader for another kind of request, so every client loops until it gives up',
        fix: data.sampling
          ? 'read a sampling answer with inputResponse(ctx.mcpReq.inputResponses, key) and check view.kind === "sampling" (then view.result.content); keep acceptedContent() for elicitation answers'
          : 'read each answer with inputResponse(ctx.mcpReq.inputResponses, key) under the key you asked with, from the top-level inputResponses (the SDK puts them in ctx.mcpReq.inputResponses)',
      });
      return;
    }
    if (error instanceof RoundLimitError) {
      add(ctx, { area: 'mrtr', id: `mrtr.converge:${target.name}`, status: 'error', title: `${label} never converges: still asking after ${(error.data as { rounds: number }).rounds} rounds`, sent, got: error.message, why: 'a client gives up after a bounded number of rounds; the user never gets a result', fix: 'make each round progress: carry what was answered in requestState and stop asking for it' });
      return;
    }
    add(ctx, { area: 'mrtr', id, status: 'error', title: `${label}: failed although every round was answered`, sent, got: errorText(error), why: 'a client that answers correctly gets no result', fix: 'see the error; byhand call (read, prompt) with --trace shows each round' });
  }
}

async function placement(ctx: CheckContext, target: InputTarget, first: Record<string, unknown>): Promise<void> {
  const label = labelOf(target);
  if (!isObject(first.inputRequests) || Object.keys(first.inputRequests).length === 0) return;
  const inputResponses = answersFor(first.inputRequests, ctx.cwd);
  const state = typeof first.requestState === 'string' ? { requestState: first.requestState } : {};
  const { message, headers } = targetRequest(target, { _meta: { inputResponses, ...state } });
  const sent = `${target.method} ${target.name} with the answers inside params._meta (inputResponses${state.requestState !== undefined ? ', requestState' : ''}) and none at the top level`;
  const reply = await sendRaw(ctx, `${target.method} ${target.name} (answers in _meta)`, message, headers);
  const result = reply.message?.result;
  const sameAsk = result?.resultType === 'input_required' && isObject(result.inputRequests) && sameKeys(result.inputRequests, first.inputRequests);
  const id = `mrtr.placement:${target.name}`;
  if (completed(result) || (result?.resultType === 'input_required' && !sameAsk)) {
    add(ctx, {
      area: 'mrtr', id, status: 'error',
      title: `${label} takes answers placed inside _meta: the placement trap`,
      sent, got: gotText(reply),
      why: 'inputResponses and requestState are top-level members of params (spec basic/patterns/mrtr); a server that reads them from _meta works only with clients that make the same mistake, and asks every correct client again and again',
      fix: 'read the answers from params.inputResponses and params.requestState (the SDK: ctx.mcpReq.inputResponses and ctx.mcpReq.requestState()), never from _meta',
    });
  } else {
    add(ctx, { area: 'mrtr', id, status: 'pass', title: `${label}: answers inside _meta are not taken`, sent, got: gotText(reply) });
  }
}

async function tampered(ctx: CheckContext, target: InputTarget, first: Record<string, unknown>): Promise<void> {
  const label = labelOf(target);
  const id = `mrtr.request-state:${target.name}`;
  if (typeof first.requestState !== 'string' || first.requestState === '') {
    add(ctx, { area: 'mrtr', id, status: 'skip', title: `${label}: no requestState in its first round to tamper with`, why: 'nothing to check' });
    return;
  }
  const forged = tamper(first.requestState);
  const inputResponses = answersFor(first.inputRequests, ctx.cwd);
  const { message, headers } = targetRequest(target, { ...(Object.keys(inputResponses).length > 0 ? { inputResponses } : {}), requestState: forged });
  const sent = `${target.method} ${target.name} with correct answers and the requestState changed in one character (${JSON.stringify(first.requestState.slice(0, 40))} → ${JSON.stringify(forged.slice(0, 40))})`;
  const reply = await sendRaw(ctx, `${target.method} ${target.name} (tampered requestState)`, message, headers);
  add(ctx, completed(reply.message?.result)
    ? {
      area: 'mrtr', id, status: 'error',
      title: `${label} trusts a tampered requestState`,
      sent, got: gotText(reply),
      why: 'requestState comes back from the client: anything the server keeps in it (who asked, what was approved, what it costs) can be forged unless the server verifies it before use',
      fix: 'protect requestState with a MAC and verify it on every round: the SDK\'s createRequestStateCodec({ key }) mints and verifies; refuse (an error, or ask again from the start) when it does not verify',
    }
    : { area: 'mrtr', id, status: 'pass', title: `${label}: a tampered requestState is refused`, sent, got: gotText(reply) });
}

/** One character changed, in the middle, where a MAC or a signature covers it. */
export function tamper(state: string): string {
  const at = Math.floor(state.length / 2);
  const swap = state[at] === 'A' ? 'B' : 'A';
  return `${state.slice(0, at)}${swap}${state.slice(at + 1)}`;
}

function sameKeys(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}
