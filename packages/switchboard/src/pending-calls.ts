// A 2026 host in front of a legacy back: while a call runs, each request the server pushes waits here, and the call
// is answered `input_required` with the waiting requests and a signed handle of the call as `requestState`. The
// retry's `inputResponses` answer them and the call goes on. Which call a push belongs to is a property of the back,
// not a guess: each call holds a back of its own while it runs (modern-backs.ts), so a push is that back's call's,
// and what the server asks while no call holds its back waits for the next call that takes it (back-lane.ts). A
// round's request bounds only that round: a caller who gives it up (cancels, or hangs up before the answer) gives up
// the call, but the end of a round that was answered ends nothing. Calls are bounded in count, per caller and in
// all, and in time: a caller who never retries leaves the server an error answer, not a request held for ever. A
// handle names this process: another instance, or this one restarted, refuses it with the reason. A task the bridge
// makes runs its call detached (made-tasks.ts): the same back and bounds, but no rounds and no handle, what the server
// asks read and answered by key whenever its caller comes.

import { McpError, type ClientCapabilities, type CreateMessageResult, type ElicitResult, type Host, type InputContext, type InputResponse, type JsonObject, type JsonRpcNotification, type ListRootsResult, type LoggingLevel } from '@byhand/client';
import type { StateCodec } from '@byhand/servers/edge';
import { BackLane } from './back-lane.js';
import { AnswerError } from './json-rpc-peer.js';
import { heard, isLogLevel } from './log-levels.js';
import { elicitationModes } from './relay-host.js';

export interface PendingCallsOptions {
  codec: StateCodec;
  /** Calls at once, running, waiting for the back or waiting for their caller; default 64. */
  max?: number;
  /** Of those, one caller's; default 16. */
  maxPerCaller?: number;
  /** How long a call waits for its caller to retry, and a push made while no call ran for the next call; default 60 s. */
  waitMs?: number;
  /** Pushes held per back while no call runs; default 16. */
  maxHeld?: number;
  /** The timer (injected in tests). */
  schedule?: (run: () => void, ms: number) => { cancel(): void };
  /** What no caller can be told (a call that waits for the back, a push refused), for stderr. */
  warn?: (text: string) => void;
  /** Names this process in every handle; default a random one, so a restart is another instance. */
  instance?: string;
}

export type Progress = (progress: { progress: number; total?: number; message?: string }) => void;

/** One request of the caller's in a call: the first, or a retry. */
export interface Round {
  /** Aborted when the caller gives up this request before its answer: the call is given up with it. */
  signal?: AbortSignal;
  /** How a notification reaches the caller while this request runs; absent, it has nowhere to go. */
  notify?: (notification: JsonRpcNotification) => void;
  /** The caller's progress token on this request: the server's progress goes out under it. */
  progressToken?: string | number;
}

/** The back a call holds while it runs, and the call's work on it. */
export interface Leased {
  /** Names the back (modern-backs.ts). */
  scope: string;
  release(): void;
  run(signal: AbortSignal, progress: Progress): Promise<JsonObject>;
  /** Resolves once the server has read what the back sent it so far (a ping answered after it). */
  flush?(): Promise<void>;
}

/** A call run for a task the bridge makes: what the server asks is read and answered by key, in no round. */
export interface DetachedCall {
  /** What the server asked and no answer has reached yet, by key. */
  questions(): JsonObject;
  /** Answers the questions named, a key not waiting ignored; whether any was. */
  answer(responses: JsonObject): boolean;
  /** The call's result, or why it failed: the server's error, -32021 for what the caller did not declare, a give-up. */
  outcome: Promise<JsonObject>;
  /** The call given up: what the server is waiting on is answered with `error`, and the request cancelled. */
  giveUp(error: Error): void;
}

export interface CallStart {
  declared: ClientCapabilities;
  /** The method and what it names: a handle is good only for the call it was minted for. */
  binding: string;
  /** Who is calling, for the per-caller bound. */
  caller: string;
  /** The log level the caller's envelope asked for: the server's log messages at that level and above reach it. */
  logLevel?: LoggingLevel;
  /** A back for the call, held until it ends; `signal` aborts when the caller gives up while it waits for one. */
  lease(signal: AbortSignal): Promise<Leased>;
}

interface Waiting {
  request: JsonObject;
  resolve(response: InputResponse): void;
  reject(error: Error): void;
}

type Outcome = { result: JsonObject } | { error: unknown } | { asked: true };

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
  // `elicitation: {}` is form mode only (2025-06-18, before modes were named).
  return (value as JsonObject)[sub] !== undefined;
}

class PendingCall {
  readonly waiting = new Map<string, Waiting>();
  /** Every key the call has used: one is never used twice, so an answer always means the request it was given for. */
  private readonly used = new Set<string>();
  /** Keys already sent to the caller and not yet answered. */
  readonly told = new Set<string>();
  readonly controller = new AbortController();
  result!: Promise<JsonObject>;
  /** Set while the call waits for its caller's retry. */
  expiry: { cancel(): void } | undefined;
  private wake: (() => void) | undefined;
  refused: AnswerError | undefined;
  /** The caller's request now running, if one is: where the call's notifications go. */
  current: Round | undefined;
  /** Which round the caller is on: each round's requestState names it, so a state of an earlier round is refused. */
  round = 0;
  ended = false;
  /** The back it holds, once it holds one. */
  leased: Leased | undefined;

  constructor(readonly id: string, public declared: ClientCapabilities, readonly start: CallStart) {}

  /** An input request from the server, answered once the caller retries with it. */
  ask(key: string, request: JsonObject): Promise<InputResponse> {
    const need = needs(request);
    if (need !== undefined && !declares(this.declared, need)) {
      this.refuse(String(request.method), need);
      return Promise.reject(new McpError('protocol', `the caller did not declare ${need}`, 'the caller must declare the capability in its envelope'));
    }
    return new Promise<InputResponse>((resolve, reject) => {
      this.keep(key, { request, resolve, reject });
      this.wake?.();
    });
  }

  /** A request waiting under `key`, or under a key made from it when that one was used before. */
  keep(key: string, waiting: Waiting): void {
    const kept = unique(key, this.used);
    this.used.add(kept);
    this.waiting.set(kept, waiting);
  }

  /** The server asked for what the caller did not declare: the call ends with -32021, naming it (mrtr.mdx). */
  refuse(method: string, need: string): void {
    this.refused ??= new AnswerError({
      code: -32021,
      message: `the server asked for ${method}, and this request's clientCapabilities do not declare ${need}`,
      data: { requiredCapabilities: capabilityObject(need) },
    });
    this.wake?.();
  }

  /** A notification of the call's, to the caller's request now running. */
  notify(notification: JsonRpcNotification): void {
    this.current?.notify?.(notification);
  }

  progress(progress: { progress: number; total?: number; message?: string }): void {
    const token = this.current?.progressToken;
    if (token !== undefined) this.notify({ jsonrpc: '2.0', method: 'notifications/progress', params: { ...progress, progressToken: token } });
  }

  /** A log message of the server's, if the caller asked for its level. */
  log(notification: JsonRpcNotification): void {
    const asked = this.start.logLevel;
    const level = notification.params?.level;
    if (asked !== undefined && isLogLevel(level) && heard(level, asked)) this.notify(notification);
  }

  /** Until the call ends, or the server asks for something (the requests asked together are gathered first). */
  async next(): Promise<Outcome> {
    const asked = new Promise<Outcome>((resolve) => {
      this.wake = () => setTimeout(() => resolve({ asked: true }), 0);
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

function unique(key: string, taken: { has(key: string): boolean }): string {
  if (!taken.has(key)) return key;
  for (let n = 2; ; n++) if (!taken.has(`${key}#${n}`)) return `${key}#${n}`;
}

export class PendingCalls {
  private readonly calls = new Map<string, PendingCall>();
  /** What each back's server asked, by the back's scope: the call holding it, or the asks waiting for one. */
  private readonly lanes = new Map<string, BackLane<PendingCall>>();
  private readonly perCaller = new Map<string, number>();
  private nextId = 0;
  private readonly max: number;
  private readonly maxPerCaller: number;
  private readonly waitMs: number;
  private readonly maxHeld: number;
  private readonly schedule: NonNullable<PendingCallsOptions['schedule']>;
  private readonly warn: (text: string) => void;
  readonly instance: string;

  constructor(private readonly options: PendingCallsOptions) {
    this.max = options.max ?? 64;
    this.maxPerCaller = Math.min(options.maxPerCaller ?? 16, this.max);
    this.waitMs = options.waitMs ?? 60_000;
    this.maxHeld = options.maxHeld ?? 16;
    this.warn = options.warn ?? (() => undefined);
    this.instance = options.instance ?? crypto.randomUUID();
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
   * The back client's host for callers that declared `declared`: a callback for what they declared and nothing else, so
   * the back declares no more to the server than they did (relay-host.ts derives the same). What the server asks goes
   * to the call the back (`scope`) runs now, or waits for its next one.
   */
  host(declared: ClientCapabilities, scope = ''): Host {
    const ask = (ctx: InputContext, method: string, params: unknown) => this.ask(scope, ctx.key, { method, params: params ?? {} });
    const host: Host = {
      askedUndeclared: (request) => this.undeclared(scope, request),
    };
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

  /** Whether the server behind a back asked something while no call held it (a call taking that back answers it first). */
  asked(scope: string): boolean {
    return (this.lanes.get(scope)?.held.length ?? 0) > 0;
  }

  /** A notification of a back's that belongs to the call it runs: its log messages. */
  relay(notification: JsonRpcNotification, scope: string): void {
    if (notification.method === 'notifications/message') this.lanes.get(scope)?.holder?.log(notification);
  }

  /** A call's first round: its result, or `input_required` with what the server asks. */
  async start(start: CallStart, round: Round = {}): Promise<JsonObject> {
    const call = this.open(start);
    await this.take(call, round);
    return this.answer(call, round);
  }

  /**
   * A call with no rounds, for a task the bridge makes (made-tasks.ts): its caller is not waiting on a request, so
   * what the server asks waits until the caller reads it (`questions`) and answers it, by key, whenever it comes.
   * `asked` is told each time the server asks more. Bounded with the other calls; no requestState, no wait for a retry.
   */
  detach(start: CallStart, asked: () => void = () => undefined): DetachedCall {
    const call = this.open(start);
    const outcome = this.take(call, {}).then(() => this.settle(call, asked));
    return {
      questions: () => Object.fromEntries([...call.waiting].map(([key, waiting]) => [key, waiting.request])),
      answer: (responses) => {
        let answered = false;
        for (const [key, response] of Object.entries(responses)) {
          const waiting = call.waiting.get(key);
          if (waiting === undefined) continue;
          call.waiting.delete(key);
          call.told.delete(key);
          waiting.resolve(response as InputResponse);
          answered = true;
        }
        return answered;
      },
      outcome,
      giveUp: (error) => this.end(call, error),
    };
  }

  /** A new call, within the bounds on calls in all and per caller. */
  private open(start: CallStart): PendingCall {
    if (this.calls.size >= this.max) {
      throw new AnswerError({ code: -32603, message: `byhand bridge: ${this.max} calls are already running or waiting; try again when one ends` });
    }
    const mine = this.perCaller.get(start.caller) ?? 0;
    if (mine >= this.maxPerCaller) {
      throw new AnswerError({ code: -32603, message: `byhand bridge: this caller has ${mine} calls running or waiting, the most one caller may have; try again when one ends` });
    }
    const call = new PendingCall(String(++this.nextId), start.declared, start);
    this.calls.set(call.id, call);
    this.perCaller.set(start.caller, mine + 1);
    return call;
  }

  /** The call takes its back, what the server asked before it is its first question, and its work is sent. */
  private async take(call: PendingCall, round: Round): Promise<void> {
    const gaveUp = () => this.end(call, new McpError('aborted', 'the caller gave up the call', 'the caller cancelled its request, or hung up before the answer'));
    round.signal?.addEventListener('abort', gaveUp, { once: true });
    try {
      if (round.signal?.aborted) gaveUp();
      call.leased = await call.start.lease(call.controller.signal);
    } catch (error) {
      this.end(call, error instanceof Error ? error : new Error(String(error)));
      throw error;
    } finally {
      round.signal?.removeEventListener('abort', gaveUp);
    }
    if (call.ended) {
      call.leased.release();
      throw call.controller.signal.reason;
    }
    const lane = this.laneOf(call.leased.scope);
    lane.holder = call;
    // What the server asked while no call held the back is this call's first question, answered before the call is sent.
    const answered = lane.takeHeld().map(
      (held) =>
        new Promise<void>((settled) => {
          call.keep(held.key, {
            request: held.request,
            resolve: (response) => (held.resolve(response), settled()),
            reject: (error) => (held.reject(error), settled()),
          });
        }),
    );
    const leased = call.leased;
    const run = () => {
      call.controller.signal.throwIfAborted();
      return leased.run(call.controller.signal, (p) => call.progress(p));
    };
    // What the work says from its first step goes to this round.
    call.current = round;
    // The client writes the host's answers on the turn they come; the call is sent once the server has read them.
    call.result = answered.length > 0 ? Promise.all(answered).then(nextTurn).then(() => leased.flush?.()).then(run) : run();
  }

  /** A detached call until it ends: its result, or why it failed. */
  private async settle(call: PendingCall, asked: () => void): Promise<JsonObject> {
    for (;;) {
      const outcome = await call.next();
      if (call.refused) {
        this.end(call, call.refused);
        throw call.refused;
      }
      if ('result' in outcome) return (this.end(call), outcome.result);
      if ('error' in outcome) throw (this.end(call), outcome.error);
      // Seen: the next wait is for the server's next question, or the end.
      for (const key of call.untold()) call.told.add(key);
      asked();
    }
  }

  /** A retry: its `inputResponses` answer what the call was waiting for, and the call goes on. */
  async resume(state: string, responses: JsonObject, declared: ClientCapabilities, binding: string, round: Round = {}): Promise<JsonObject> {
    let payload: JsonObject;
    try {
      payload = (await this.options.codec.verify(state, binding)) as JsonObject;
    } catch {
      throw new AnswerError({ code: -32602, message: 'Invalid params: requestState is not one this bridge issued for this request, or it expired' });
    }
    if (payload.instance !== this.instance) {
      throw new AnswerError({
        code: -32602,
        message: 'Invalid params: this requestState was issued by another bridge instance, or by this one before it restarted; the call it stood for lives only there. Send the retry to the instance that issued it (route by requestState), or start the call again',
      });
    }
    const call = this.calls.get(String(payload.call));
    if (call === undefined) throw new AnswerError({ code: -32602, message: 'Invalid params: the call this requestState stood for has ended (it waited too long, or was answered)' });
    if (call.expiry === undefined || payload.round !== call.round) throw new AnswerError({ code: -32602, message: "Invalid params: this requestState's round is already being retried, or was answered; a round is answered once" });
    call.expiry.cancel();
    call.expiry = undefined;
    call.declared = declared;
    for (const [key, response] of Object.entries(responses)) {
      const waiting = call.waiting.get(key);
      if (waiting === undefined) continue;
      call.waiting.delete(key);
      call.told.delete(key);
      waiting.resolve(response as InputResponse);
    }
    // What the caller left unanswered is asked again.
    call.told.clear();
    return this.answer(call, round);
  }

  /** Every call given up (the face is closing), and what the servers asked while no call ran refused. */
  close(): void {
    const closing = new McpError('closed', 'the bridge is closing', 'start the bridge again');
    for (const call of this.calls.values()) this.end(call, closing);
    for (const lane of this.lanes.values()) for (const held of lane.takeHeld()) held.reject(closing);
  }

  private laneOf(scope: string): BackLane<PendingCall> {
    let lane = this.lanes.get(scope);
    if (lane === undefined) this.lanes.set(scope, (lane = new BackLane()));
    return lane;
  }

  /** What a back's server asked: the question of the call holding the back, or held for the next call. */
  private ask(scope: string, key: string, request: JsonObject): Promise<InputResponse> {
    const lane = this.laneOf(scope);
    if (lane.holder !== undefined) return lane.holder.ask(key, request);
    return new Promise((resolve, reject) => this.hold(lane, key, { request, resolve, reject }));
  }

  /** Keeps what a back's server asked while no call holds the back, for the next call; refused past the bounds. */
  private hold(lane: BackLane<PendingCall>, key: string, waiting: Waiting): void {
    const method = String(waiting.request.method);
    if (lane.held.length >= this.maxHeld) {
      this.warn(`the server asked for ${method} while no call ran, and ${this.maxHeld} such requests already wait for the next call: refused`);
      return waiting.reject(new McpError('limit', `${this.maxHeld} requests already wait for a call`, 'a server asks for input during a call'));
    }
    this.warn(`the server asked for ${method} while no call ran: the next call's host is asked first (within ${this.waitMs / 1000} s)`);
    const held = {
      key,
      request: waiting.request,
      resolve: waiting.resolve as (answer: unknown) => void,
      reject: waiting.reject,
      expiry: this.schedule(() => {
        const at = lane.held.indexOf(held);
        if (at < 0) return;
        lane.held.splice(at, 1);
        this.warn(`the server's ${method}, asked while no call ran, found no call within ${this.waitMs / 1000} s: refused`);
        waiting.reject(new McpError('timeout', `no call came within ${this.waitMs} ms to take ${method}`, 'a server asks for input during a call'));
      }, this.waitMs),
    };
    lane.held.push(held);
  }

  private undeclared(scope: string, request: JsonObject): void {
    const need = needs(request);
    const holder = this.lanes.get(scope)?.holder;
    if (holder !== undefined && need !== undefined) holder.refuse(String(request.method), need);
    else this.warn(`the server asked for ${String(request.method)}, which its callers did not declare, while no call ran: refused`);
  }

  private async answer(call: PendingCall, round: Round): Promise<JsonObject> {
    call.current = round;
    const gaveUp = () => this.end(call, new McpError('aborted', 'the caller gave up the call', 'the caller cancelled its request, or hung up before the answer'));
    round.signal?.addEventListener('abort', gaveUp, { once: true });
    if (round.signal?.aborted) gaveUp();
    try {
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
      return { resultType: 'input_required', inputRequests, requestState: await this.options.codec.mint({ call: call.id, round: ++call.round, instance: this.instance }, call.start.binding) };
    } finally {
      round.signal?.removeEventListener('abort', gaveUp);
      if (call.current === round) call.current = undefined;
    }
  }

  private end(call: PendingCall, error?: Error): void {
    if (call.ended) return;
    call.ended = true;
    call.expiry?.cancel();
    call.expiry = undefined;
    this.calls.delete(call.id);
    const left = (this.perCaller.get(call.start.caller) ?? 1) - 1;
    if (left > 0) this.perCaller.set(call.start.caller, left);
    else this.perCaller.delete(call.start.caller);
    if (call.leased !== undefined) {
      const lane = this.laneOf(call.leased.scope);
      if (lane.holder === call) lane.holder = undefined;
      // A call answered while the server still waits on a question of its: the question outlived the call (a
      // server that asks on its own, during a call), so it waits for the next call like one asked between calls.
      if (error === undefined) {
        for (const [key, waiting] of call.waiting) this.hold(lane, key, waiting);
        call.waiting.clear();
      }
      call.leased.release();
    }
    if (error !== undefined) call.fail(error);
  }
}

/** Resolves on a later turn of the event loop, after what the current one still has to do. */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
