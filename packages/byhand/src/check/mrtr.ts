// MRTR (multi round-trip requests, 2026-07-28), for each tool check called, resource it read or prompt it got that
// asked for input. The order matters: where the answers are taken is decided before a re-ask is given a cause.
// - the placement trap: the answers placed inside _meta must not be taken;
// - a correct answer completes: byhand's client runs the rounds with the canned host (bare results, top-level
//   inputResponses, requestState byte for byte). When the server asks again, its own words say why: a re-ask that
//   changed its request (a form's message saying what was wrong) follows a canned answer the server found invalid, a
//   warning; the very same request again is the re-ask trap (the handler never sees the answer);
// - requestState is attacker-controlled (spec basic/patterns/mrtr.mdx, "Integrity"): a value inside a state that
//   decodes as base64 JSON is changed and the state sent back, as is the state changed in one character. A forgery
//   that steers the answer is an error; one that changes nothing check can see is a state the server does not read,
//   which the spec allows unprotected ("nothing worse than request failure"), so a warning at most;
// - a state minted for other arguments is sent back with the first call's: the spec asks a server to bind the state
//   to its request (a SHOULD), so a state that is taken and steers the answer is a warning;
// - rounds must converge (the client's round bound).

import { InputLoopError, RoundLimitError, type JsonObject, type RoundEvent } from '@byhand/client';
import { cannedAnswer } from './canned.js';
import { add, labelOf, sendRaw, type CheckContext, type InputTarget } from './context.js';
import { errorText } from './lists.js';
import { isObject, type RawReply } from './raw.js';
import { gotText, targetRequest } from './request.js';
import { checkResult } from './schemas.js';
import { forgeries, FORGED, REPLAYED, type Forgery } from './state.js';

export async function checkMrtr(ctx: CheckContext): Promise<void> {
  if (ctx.asking.length === 0) {
    add(ctx, { area: 'mrtr', id: 'mrtr', status: 'skip', title: 'no MRTR round to check', why: ctx.serves.modern ? 'nothing check called, read or got answered input_required (--call or --all-tools include more tools)' : 'the server does not serve the modern era' });
    return;
  }
  for (const { target, first } of ctx.asking) {
    const inMeta = await placement(ctx, target, first);
    await happyPath(ctx, target, first, inMeta);
    if (typeof first.requestState !== 'string' || first.requestState === '') {
      add(ctx, { area: 'mrtr', id: `mrtr.request-state:${target.name}`, status: 'skip', title: `${labelOf(target)}: no requestState in its first round to forge`, why: 'nothing to check' });
      continue;
    }
    const honest = await honestAnswer(ctx, target, first, first.requestState);
    await integrity(ctx, target, first, first.requestState, honest);
    await replay(ctx, target, first, first.requestState, honest);
  }
}

function answersFor(ctx: CheckContext, inputRequests: unknown): Record<string, unknown> {
  if (!isObject(inputRequests)) return {};
  return Object.fromEntries(Object.entries(inputRequests).map(([key, request]) => [key, cannedAnswer(request, ctx.canned)]));
}

/** Did a reply complete the call: a result that is neither input_required nor a tool error. */
function completed(result: Record<string, unknown> | undefined): boolean {
  return result !== undefined && result.resultType !== 'input_required' && result.isError !== true;
}

/** The call, read or get through byhand's client, which runs every round with the canned host. */
async function throughClient(ctx: CheckContext, target: InputTarget): Promise<JsonObject> {
  const params = target.params;
  if (target.method === 'tools/call') {
    ctx.called.add(target.name);
    return await ctx.client.callTool(target.name, params.arguments as JsonObject);
  }
  if (target.method === 'resources/read') return await ctx.client.readResource(target.name);
  return await ctx.client.getPrompt(target.name, params.arguments as Record<string, string>);
}

/** The placement trap; true when the server takes answers from _meta. */
async function placement(ctx: CheckContext, target: InputTarget, first: Record<string, unknown>): Promise<boolean> {
  const label = labelOf(target);
  if (!isObject(first.inputRequests) || Object.keys(first.inputRequests).length === 0) return false;
  const inputResponses = answersFor(ctx, first.inputRequests);
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
      why: 'inputResponses and requestState are top-level members of params (spec basic/patterns/mrtr); a server that reads them from _meta works only with clients that make the same mistake, and a correct client that puts them at the top level is asked again and again',
      fix: 'read the answers from params.inputResponses and params.requestState (the SDK: ctx.mcpReq.inputResponses and ctx.mcpReq.requestState()), never from _meta',
    });
    return true;
  }
  add(ctx, { area: 'mrtr', id, status: 'pass', title: `${label}: answers inside _meta are not taken`, sent, got: gotText(reply) });
  return false;
}

async function happyPath(ctx: CheckContext, target: InputTarget, first: Record<string, unknown>, inMeta: boolean): Promise<void> {
  const label = labelOf(target);
  const id = `mrtr.complete:${target.name}`;
  const sent = `${target.method} ${target.name}, every round answered with canned bare results, top-level inputResponses and the requestState as sent`;
  const started = performance.now();
  ctx.rounds.length = 0;
  try {
    const result = await throughClient(ctx, target);
    ctx.timings.push({ what: `${target.method} ${target.name} (all rounds)`, ms: Math.round(performance.now() - started) });
    add(ctx, { area: 'mrtr', id, status: 'pass', title: `${label}: correct answers complete it`, sent, got: result.isError === true ? 'a tool error (isError)' : 'a complete result' });
    if (target.tool) checkResult(ctx, target.tool, result, target.yours === true);
  } catch (error) {
    if (error instanceof InputLoopError && inMeta) {
      // The placement finding is the cause: the server reads _meta, so the top-level answers are never seen.
      const placed = ctx.findings.find((f) => f.id === `mrtr.placement:${target.name}`);
      if (placed) placed.got = `${placed.got ?? ''}; with the answers at the top level, where the spec puts them, it asked again for ${(error.data as { keys: string[] }).keys.map((k) => `'${k}'`).join(', ')}`;
      return;
    }
    if (error instanceof InputLoopError) {
      reask(ctx, target, first, error, sent);
      return;
    }
    if (error instanceof RoundLimitError) {
      add(ctx, { area: 'mrtr', id: `mrtr.converge:${target.name}`, status: 'error', title: `${label} never converges: still asking after ${(error.data as { rounds: number }).rounds} rounds`, sent, got: error.message, why: 'a client gives up after a bounded number of rounds; the user never gets a result', fix: 'make each round progress: carry what was answered in requestState and stop asking for it' });
      return;
    }
    add(ctx, { area: 'mrtr', id, status: 'error', title: `${label}: failed although every round was answered`, sent, got: errorText(error), why: 'a client that answers correctly gets no result', fix: 'see the error; byhand call (read, prompt) with --trace shows each round' });
  }
}

/** A re-ask, by its cause: the server's own request says whether it saw the answer. */
function reask(ctx: CheckContext, target: InputTarget, first: Record<string, unknown>, error: InputLoopError, sent: string): void {
  const label = labelOf(target);
  const data = error.data as { keys: string[]; sampling: boolean };
  const keys = data.keys.map((k) => `'${k}'`).join(', ');
  const asked = ctx.rounds.filter((e): e is Extract<RoundEvent, { phase: 'asked' }> => e.phase === 'asked');
  const last = asked.at(-1)?.inputRequests ?? {};
  const firstAsks = isObject(first.inputRequests) ? first.inputRequests : {};
  const changed = data.keys.filter((k) => JSON.stringify(last[k]) !== JSON.stringify(firstAsks[k]));
  const says = data.keys.map((k) => messageOf(last[k])).find((m) => m !== undefined);
  const quoted = says !== undefined ? `; it says: ${JSON.stringify(says)}` : '';
  const id = `mrtr.reask:${target.name}`;
  if (changed.length > 0) {
    add(ctx, {
      area: 'mrtr', id, status: 'warn',
      title: `${label} found the canned answer to ${keys} invalid and asked again${quoted}`,
      sent, got: `round ${asked.length}: a changed request for ${keys}${quoted}`,
      why: 'the server saw the answer and asked again with a new request, which is how a server turns an answer down (spec basic/patterns/mrtr); canned answers follow the schema and today\'s date, not rules the schema does not state, so check could not complete the call',
      fix: target.tool ? `nothing if the rule is right; to check the rest of the call, give the tool arguments that lead to answers check can make (--call ${target.name}=JSON), or state the rule in the requested schema (minimum, enum, pattern, format)` : 'nothing if the rule is right; state it in the requested schema (minimum, enum, pattern, format) so a client can follow it',
    });
    return;
  }
  add(ctx, {
    area: 'mrtr', id, status: 'error',
    title: `${label} asks again for ${keys} after a correct answer: the re-ask trap`,
    sent, got: `${error.message}${quoted}`,
    why: data.sampling
      ? 'the answer to a sampling request arrived but the handler did not see it; the likely cause is reading it with a reader for another kind of request, such as the SDK\'s acceptedContent(), which reads only accepted elicitation answers and returns undefined for a sampling result. Every round is a paid model call and the user never gets a result'
      : 'the answer arrived (top-level inputResponses, the bare result) but the same request came back, so the handler did not see it: it reads another key, or with a reader for another kind of request, and every client loops until it gives up',
    fix: data.sampling
      ? 'read a sampling answer with inputResponse(ctx.mcpReq.inputResponses, key) and check view.kind === "sampling" (then view.result.content); keep acceptedContent() for elicitation answers'
      : 'read each answer under the key you asked with, from the top-level inputResponses (the SDK: inputResponse(ctx.mcpReq.inputResponses, key)); to turn an answer down, ask again with a message saying why',
  });
}

function messageOf(request: unknown): string | undefined {
  return isObject(request) && isObject(request.params) && typeof request.params.message === 'string' ? request.params.message : undefined;
}

/** The first round answered, with `state` as the requestState (or none). */
async function retry(ctx: CheckContext, target: InputTarget, first: Record<string, unknown>, state: string | undefined, what: string, params = target.params): Promise<RawReply> {
  const inputResponses = answersFor(ctx, first.inputRequests);
  const { message, headers } = targetRequest({ ...target, params }, { ...(Object.keys(inputResponses).length > 0 ? { inputResponses } : {}), ...(state !== undefined ? { requestState: state } : {}) });
  return await sendRaw(ctx, `${target.method} ${target.name} (${what})`, message, headers);
}

/** A reply as compared: its result without _meta, and without the requestState an input_required may mint anew. */
function comparable(reply: RawReply): string | undefined {
  const result = reply.message?.result;
  if (result === undefined) return undefined;
  const { _meta: _, requestState: __, ...rest } = result;
  return JSON.stringify(rest);
}

type Verdict = 'refused' | 'steered' | 'same' | 'differs' | 'unclear';

/** What a reply to a changed state shows, against the first round and the honest answer (when that is stable). */
function verdictOf(reply: RawReply, first: Record<string, unknown>, honest: string | undefined, marker: string | undefined): Verdict {
  const result = reply.message?.result;
  if (result === undefined || result.isError === true) return 'refused';
  // Asked again from the start: the server did not take the state.
  if (result.resultType === 'input_required' && isObject(result.inputRequests) && isObject(first.inputRequests) && JSON.stringify(result.inputRequests) === JSON.stringify(first.inputRequests)) return 'refused';
  if (marker !== undefined && JSON.stringify(result).includes(marker)) return 'steered';
  if (honest === undefined) return 'unclear';
  return comparable(reply) === honest ? 'same' : 'differs';
}

/** The honest answer to the first round, when two of them agree (a tool that answers with the time never does). */
async function honestAnswer(ctx: CheckContext, target: InputTarget, first: Record<string, unknown>, state: string): Promise<string | undefined> {
  const a = comparable(await retry(ctx, target, first, state, 'its requestState as sent'));
  const b = comparable(await retry(ctx, target, first, state, 'its requestState as sent, again'));
  return a !== undefined && a === b ? a : undefined;
}

async function integrity(ctx: CheckContext, target: InputTarget, first: Record<string, unknown>, original: string, honest: string | undefined): Promise<void> {
  const label = labelOf(target);
  const id = `mrtr.request-state:${target.name}`;
  const tried: { forgery: Forgery; reply: RawReply; verdict: Verdict }[] = [];
  for (const forgery of forgeries(original)) {
    const reply = await retry(ctx, target, first, forgery.state, `requestState forged: ${forgery.how}`);
    tried.push({ forgery, reply, verdict: verdictOf(reply, first, honest, forgery.marker) });
  }
  const sentOf = (t: (typeof tried)[number]) => `${target.method} ${target.name} with correct answers and the requestState forged (${t.forgery.how}): ${JSON.stringify(original.slice(0, 60))} → ${JSON.stringify(t.forgery.state.slice(0, 60))}`;
  const taken = tried.find((t) => t.verdict === 'steered') ?? tried.find((t) => t.verdict === 'differs');
  if (taken) {
    add(ctx, {
      area: 'mrtr', id, status: 'error',
      title: `${label} trusts a forged requestState: ${taken.verdict === 'steered' ? `the value check put in it (${JSON.stringify(FORGED)}) came back in the answer` : 'the answer changed with it'}`,
      sent: sentOf(taken), got: `${gotText(taken.reply)}: ${JSON.stringify(taken.reply.message?.result ?? null).slice(0, 160)}`,
      why: 'requestState comes back from the client, which can change it (spec basic/patterns/mrtr: "attacker-controlled input"): a state that steers the answer must be integrity-protected, and one that fails verification refused',
      fix: 'protect requestState with a MAC and verify it on every round: the SDK\'s createRequestStateCodec({ key }) mints and verifies; a hand-written server signs it with an HMAC and refuses (an error, or asks again from the start) a state that does not verify',
    });
    return;
  }
  if (tried.every((t) => t.verdict === 'refused')) {
    add(ctx, { area: 'mrtr', id, status: 'pass', title: `${label}: a forged requestState is refused (${tried.map((t) => t.forgery.how).join('; ')})`, sent: sentOf(tried[0]), got: gotText(tried[0].reply) });
    return;
  }
  const accepted = tried.find((t) => t.verdict !== 'refused')!;
  add(ctx, {
    area: 'mrtr', id, status: 'warn',
    title: `${label}: its requestState is not protected, but a forged one changed nothing check could see`,
    sent: sentOf(accepted), got: `${gotText(accepted.reply)}${accepted.verdict === 'same' ? ', the same answer as with the state as sent' : ''}`,
    why: 'the spec lets a server leave requestState unprotected only when tampering can do nothing worse than fail the request; this state looks unread here, but if it ever steers authorization, resource access or business logic it must be signed',
    fix: 'if the state matters, sign it (the SDK\'s createRequestStateCodec({ key })); if it does not, you may leave it as it is, or drop it',
  });
}

/** A state minted for other arguments, sent back with the first call's. */
async function replay(ctx: CheckContext, target: InputTarget, first: Record<string, unknown>, original: string, honest: string | undefined): Promise<void> {
  const id = `mrtr.replay:${target.name}`;
  const label = labelOf(target);
  const args = isObject(target.params.arguments) ? target.params.arguments : {};
  const key = Object.keys(args).find((k) => typeof args[k] === 'string');
  if (key === undefined || target.method === 'resources/read') {
    add(ctx, { area: 'mrtr', id, status: 'skip', title: `${label}: no string argument to change, so no second state to replay`, why: 'nothing to check' });
    return;
  }
  const other = { ...target.params, arguments: { ...args, [key]: REPLAYED } };
  const { message, headers } = targetRequest({ ...target, params: other });
  const minted = await sendRaw(ctx, `${target.method} ${target.name} (other arguments)`, message, headers);
  const state = minted.message?.result?.requestState;
  if (typeof state !== 'string' || state === original) {
    add(ctx, { area: 'mrtr', id, status: 'skip', title: `${label}: the call with other arguments minted no other requestState`, why: 'nothing to replay', got: gotText(minted) });
    return;
  }
  const reply = await retry(ctx, target, first, state, 'a requestState minted for other arguments');
  const verdict = verdictOf(reply, first, honest, REPLAYED);
  const sent = `${target.method} ${target.name} with its own arguments and correct answers, and the requestState minted for ${key}=${JSON.stringify(REPLAYED)}`;
  if (verdict === 'steered' || verdict === 'differs') {
    add(ctx, {
      area: 'mrtr', id, status: 'warn',
      title: `${label} takes a requestState minted for other arguments, and the answer follows it`,
      sent, got: `${gotText(reply)}: ${JSON.stringify(reply.message?.result ?? null).slice(0, 160)}`,
      why: 'a signed state proves the server minted it, not for which call: the spec asks a server to bind it to its request (the method and a digest of its salient parameters) and to the principal, so a state from one call cannot be replayed on another',
      fix: 'bind the state to its call: the SDK\'s createRequestStateCodec({ key, bind: (ctx) => ... }) verifies the binding; a hand-written server signs the tool name and a digest of the arguments into the state and compares them on every round',
    });
    return;
  }
  add(ctx, { area: 'mrtr', id, status: 'pass', title: verdict === 'refused' ? `${label}: a requestState minted for other arguments is refused` : `${label}: a requestState minted for other arguments does not change the answer`, sent, got: gotText(reply) });
}

function sameKeys(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}
