// A modern host in front of the back client: while a call runs, each input request the server makes (a modern
// round's entry, or a request a legacy server pushes) waits here, and the call is answered `input_required` with
// the waiting requests and a signed handle of the call as `requestState`. The retry's `inputResponses` answer
// them and the call goes on. Calls waiting on their caller are bounded in count and in time: a caller who never
// retries leaves the server an error answer, not a request held for ever.

import { AsyncLocalStorage } from 'node:async_hooks';
import { McpError, type ClientCapabilities, type CreateMessageResult, type ElicitResult, type Host, type InputContext, type InputResponse, type JsonObject, type ListRootsResult } from '@byhand/client';
import type { StateCodec } from '@byhand/servers/edge';
import { AnswerError } from './json-rpc-peer.js';
import { elicitationModes } from './relay-host.js';

export interface PendingCallsOptions {
  codec: StateCodec;
  /** Calls at once, running or waiting for their caller; default 64. */
  max?: number;
  /** How long a call waits for its caller to retry; default 60 s. */
  waitMs?: number;
  /** The timer (injected in tests). */
  schedule?: (run: () => void, ms: number) => { cancel(): void };
}

interface Waiting {
  request: JsonObject;
  resolve(response: InputResponse): void;
  reject(error: Error): void;
}

type Outcome = { result: JsonObject } | { error: unknown } | { asked: true };

export type Progress = (progress: { progress: number; total?: number; message?: string }) => void;

/** What each input request needs the caller to have declared (spec basic/patterns/mrtr.mdx, -32021). */
function needs(request: JsonObject): string | undefined {
  const params = (request.params ?? {}) as JsonObject;
  switch (request.method) {
    case 'sampling/createMessage':
      return params.tools !== undefined ? 'sampling.tools' : 'sampling';
    case 'elicitation/create':
      return params.mode === 'url' ? 'elicitation.url' : 'elicitation';
    case 'roots/list':
      return 'roots';
    default:
      return undefined;
  }
}

/** `sampling.tools` as the ClientCapabilities object that declares it, `{ sampling: { tools: {} } }`; plain elicitation is form mode. */
function capabilityObject(need: string): JsonObject {
  const [name, sub] = need.split('.') as [string, string | undefined];
  if (name === 'elicitation') return { elicitation: { [sub ?? 'form']: {} } };
  return { [name]: sub === undefined ? {} : { [sub]: {} } };
}

const isDeclared = (value: unknown) => value !== undefined && value !== null;

function declares(declared: ClientCapabilities, need: string): boolean {
  const [name, sub] = need.split('.') as [string, string | undefined];
  const value = declared[name];
  if (value === undefined || value === null) return false;
  if (sub === undefined) return true;
  const subs = value as JsonObject;
  // `elicitation: {}` is form mode only (2025-06-18, before modes were named).
  return subs[sub] !== undefined;
}

class PendingCall {
  readonly waiting = new Map<string, Waiting>();
  /** Keys already sent to the caller and not yet answered. */
  readonly told = new Set<string>();
  readonly controller = new AbortController();
  result!: Promise<JsonObject>;
  expiry: { cancel(): void } | undefined;
  private wake: (() => void) | undefined;
  refused: AnswerError | undefined;
  /** Where the server's progress goes: the caller's request of the round now running, under its token. */
  progress: Progress | undefined;

  /** Which round the caller is on: each round's requestState names it, so a state of an earlier round is refused. */
  round = 0;

  constructor(readonly id: string, public declared: ClientCapabilities, readonly binding: string, readonly scope: string) {}

  /** An input request from the server, answered once the caller retries with it. */
  ask(key: string, request: JsonObject): Promise<InputResponse> {
    const need = needs(request);
    if (need !== undefined && !declares(this.declared, need)) {
      this.refused ??= new AnswerError({
        code: -32021,
        message: `the server asked for ${String(request.method)}, and this request's clientCapabilities do not declare ${need}`,
        data: { requiredCapabilities: capabilityObject(need) },
      });
      this.wake?.();
      return Promise.reject(new McpError('protocol', `the caller did not declare ${need}`, 'the caller must declare the capability in its envelope'));
    }
    return new Promise<InputResponse>((resolve, reject) => {
      this.waiting.set(unique(key, this.waiting), { request, resolve, reject });
      this.wake?.();
    });
  }

  /** Until the call ends, or the server asks for something (the requests asked together are gathered first). */
  async next(): Promise<Outcome> {
    const asked = new Promise<Outcome>((resolve) => {
      this.wake = () => setImmediate(() => resolve({ asked: true }));
      if (this.untold().length > 0 || this.refused) this.wake();
    });
    const ended = this.result.then((result) => ({ result }), (error: unknown) => ({ error }));
    try {
      return await Promise.race([ended, asked]);
    } finally {
      this.wake = undefined;
    }
  }

  untold(): string[] {
    return [...this.waiting.keys()].filter((key) => !this.told.has(key));
  }

  /** Every waiting input request fails, and the work under them is given up. */
  fail(error: Error): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
    this.controller.abort(error);
  }
}

function unique(key: string, taken: Map<string, unknown>): string {
  if (!taken.has(key)) return key;
  for (let n = 2; ; n++) if (!taken.has(`${key}#${n}`)) return `${key}#${n}`;
}

export class PendingCalls {
  private readonly calls = new Map<string, PendingCall>();
  private readonly current = new AsyncLocalStorage<PendingCall>();
  private nextId = 0;
  private readonly max: number;
  private readonly waitMs: number;
  private readonly schedule: NonNullable<PendingCallsOptions['schedule']>;

  constructor(private readonly options: PendingCallsOptions) {
    this.max = options.max ?? 64;
    this.waitMs = options.waitMs ?? 60_000;
    this.schedule = options.schedule ?? ((run, ms) => {
      const timer = setTimeout(run, ms);
      timer.unref();
      return { cancel: () => clearTimeout(timer) };
    });
  }

  get size(): number {
    return this.calls.size;
  }

  /**
   * The back client's host for a caller that declared `declared`: a callback for what it declared and nothing else, so
   * the back declares no more to the server than the caller did (relay-host.ts derives the same). Every input request
   * joins the call it came from. A modern server's round runs inside the call; a request a legacy server pushes on
   * stdio names no call, so it joins the one call of this back (`scope`) running, or the earliest of several.
   */
  host(declared: ClientCapabilities, scope = ''): Host {
    const ask = (ctx: InputContext, method: string, params: unknown) => this.callFor(scope).ask(ctx.key, { method, params: (params ?? {}) });
    const host: Host = {};
    if (isDeclared(declared.sampling)) {
      host.sample = async (params, ctx) => (await ask(ctx, 'sampling/createMessage', params)) as CreateMessageResult;
      if ((declared.sampling as JsonObject).tools !== undefined) host.samplingTools = true;
    }
    if (isDeclared(declared.elicitation)) {
      host.elicit = async (params, ctx) => (await ask(ctx, 'elicitation/create', params)) as ElicitResult;
      host.elicitationModes = elicitationModes(declared.elicitation);
    }
    if (isDeclared(declared.roots)) host.roots = async (ctx) => (await ask(ctx, 'roots/list', {})) as ListRootsResult;
    return host;
  }

  /** A call's first round: its result, or `input_required` with what the server asks. */
  async start(declared: ClientCapabilities, binding: string, work: (signal: AbortSignal, progress: Progress) => Promise<JsonObject>, progress?: Progress, scope = ''): Promise<JsonObject> {
    if (this.calls.size >= this.max) {
      throw new AnswerError({ code: -32603, message: `byhand bridge: ${this.max} calls are already running or waiting for their callers; try again when one ends` });
    }
    const call = new PendingCall(String(++this.nextId), declared, binding, scope);
    this.calls.set(call.id, call);
    call.progress = progress;
    call.result = this.current.run(call, () => work(call.controller.signal, (p) => call.progress?.(p)));
    return this.answer(call);
  }

  /** A retry: its `inputResponses` answer what the call was waiting for, and the call goes on. */
  async resume(state: string, responses: JsonObject, declared: ClientCapabilities, binding: string, signal?: AbortSignal, progress?: Progress): Promise<JsonObject> {
    let id: unknown;
    let round: unknown;
    try {
      ({ call: id, round } = (await this.options.codec.verify(state, binding)) as JsonObject);
    } catch {
      throw new AnswerError({ code: -32602, message: 'Invalid params: requestState is not one this bridge issued for this request, or it expired' });
    }
    const call = this.calls.get(String(id));
    if (call === undefined) throw new AnswerError({ code: -32602, message: 'Invalid params: the call this requestState stood for has ended (it waited too long, or was answered)' });
    if (call.expiry === undefined || round !== call.round) throw new AnswerError({ code: -32602, message: "Invalid params: this requestState's round is already being retried, or was answered; a round is answered once" });
    call.expiry.cancel();
    call.expiry = undefined;
    call.declared = declared;
    call.progress = progress;
    for (const [key, response] of Object.entries(responses)) {
      const waiting = call.waiting.get(key);
      if (waiting === undefined) continue;
      call.waiting.delete(key);
      call.told.delete(key);
      waiting.resolve(response as InputResponse);
    }
    // What the caller left unanswered is asked again.
    for (const key of call.told) call.told.delete(key);
    // A caller who cancels its retry gives the call up: nobody is left to answer what the server asks next.
    const cancel = () => this.end(call, new McpError('aborted', 'the caller cancelled the call', 'the caller sent notifications/cancelled for its retry'));
    if (signal?.aborted) cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      return await this.answer(call);
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** Every call given up (the face is closing). */
  close(): void {
    for (const call of this.calls.values()) this.end(call, new McpError('closed', 'the bridge is closing', 'start the bridge again'));
  }

  private callFor(scope: string): PendingCall {
    let call = this.current.getStore();
    for (const running of this.calls.values()) if (call === undefined && running.scope === scope) call = running;
    if (call === undefined) throw new McpError('protocol', 'the server asked for input while no call was running', 'a server asks for input only during a request');
    return call;
  }

  private async answer(call: PendingCall): Promise<JsonObject> {
    const outcome = await call.next();
    if (call.refused) {
      this.end(call, call.refused);
      throw call.refused;
    }
    if ('result' in outcome) return (this.end(call), outcome.result);
    if ('error' in outcome) throw (this.end(call), outcome.error);
    const inputRequests: JsonObject = {};
    for (const key of call.untold()) {
      inputRequests[key] = call.waiting.get(key)!.request;
      call.told.add(key);
    }
    call.expiry = this.schedule(() => this.end(call, new McpError('timeout', `the caller did not retry within ${this.waitMs} ms`, 'the caller was asked for input and never answered')), this.waitMs);
    // A new state each round (the spec's requestState is the server's word on where the call is, and it moves on).
    return { resultType: 'input_required', inputRequests, requestState: await this.options.codec.mint({ call: call.id, round: ++call.round }, call.binding) };
  }

  private end(call: PendingCall, error?: Error): void {
    call.expiry?.cancel();
    this.calls.delete(call.id);
    if (error !== undefined) call.fail(error);
  }
}
