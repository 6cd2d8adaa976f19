// Tasks the bridge makes itself (the tasks extension, SEP-2663: ext-tasks specification/2026-07-28/tasks.md), for a
// 2026 host that declares the extension in front of a 2025 server that runs no tasks of its own (no 2025-11-25
// `tasks` capability). The bridge is the server that host sees, and decides as the extension lets a server decide:
// a tools/call of a tool the server lists as one that may run as a task (`execution.taskSupport` `optional` or
// `required`, its 2025 word) is answered at once with a task's handle (`resultType: "task"`), and the call runs on
// in the bridge on a back of its own (pending-calls.ts, `detach`); any other call is answered in the call.
//
// tasks/get says where the task is: `working`; `input_required` with what the server has pushed and no answer has
// reached yet (`inputRequests`, keyed by the server's request id, no key used twice in a task's life); or ended, with
// its result (`completed`, a tool error included) or its JSON-RPC error (`failed`) inlined. tasks/update answers the
// questions it names, some or all (an unknown or answered key is ignored); tasks/cancel gives the call up: the server
// is told, and what it was asking is answered with an error. A 2025 server's question says nothing of whether it
// comes before the task or within it; once the task is made, every question is the task's. The extension's progress
// and log messages are not for tasks (tasks.md, Task Status Notifications), so a task's are not relayed.
//
// Bounds: a task's call is a call like the others (the same bounds, in all and per caller, and a back held while it
// runs). Tasks are kept, running or ended, for their ttl from creation, at most `max` in all and `maxPerCaller` of
// one caller; past either the oldest ended one is forgotten, and when none has ended the call is refused. The results
// kept are bounded in bytes too (`maxBytes`, as JSON): past it the oldest ended tasks are forgotten. A task still
// running at its ttl is given up and forgotten, said on stderr. A task's id is random, since it is all a host
// needs to read the task, and names the instance that made it, so a tasks/* that reaches another instance says so.

import { McpError, type JsonObject, type Tool } from '@byhand/client';
import { AnswerError, errorOf } from './json-rpc-peer.js';
import type { CallStart, DetachedCall, PendingCalls } from './pending-calls.js';

export interface MadeTasksOptions {
  /** Tasks kept at once, running or ended: in all (default 256), and of one caller (default 64). */
  max?: number;
  maxPerCaller?: number;
  /** The results and errors of ended tasks kept at once, in bytes as JSON (default 64 MiB). */
  maxBytes?: number;
  /** How long a task is kept from its creation, in ms (default 10 minutes). */
  ttlMs?: number;
  /** How often a host is asked to poll, in ms (default 500). */
  pollIntervalMs?: number;
  /** The clock and the timer (injected in tests). */
  now?: () => number;
  schedule?: (run: () => void, ms: number) => { cancel(): void };
  /** What no host can be told (a task given up at its ttl), for stderr. */
  warn?: (text: string) => void;
}

type Ended = { status: 'completed'; result: JsonObject } | { status: 'failed'; error: JsonObject } | { status: 'cancelled' };

interface Made {
  taskId: string;
  caller: string;
  createdAt: number;
  lastUpdatedAt: number;
  /** The call, until the task ends. */
  call: DetachedCall | undefined;
  ended: Ended | undefined;
  /** What its result or error weighs, as JSON. */
  bytes: number;
  statusMessage?: string;
  expiry: { cancel(): void };
}

/** Whether a tool's 2025 listing says it may run as a task (2025-11-25 tasks.mdx, Tool-Level Negotiation). */
export function mayRunAsTask(tool: Tool | undefined): boolean {
  const support = (tool as { execution?: { taskSupport?: unknown } } | undefined)?.execution?.taskSupport;
  return support === 'optional' || support === 'required';
}

export class MadeTasks {
  /** By id, oldest first. */
  private readonly tasks = new Map<string, Made>();
  private readonly max: number;
  private readonly maxPerCaller: number;
  private readonly maxBytes: number;
  /** The bytes of the ended tasks kept. */
  private bytes = 0;
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly now: () => number;
  private readonly schedule: NonNullable<MadeTasksOptions['schedule']>;
  private readonly warn: (text: string) => void;

  constructor(
    private readonly pending: Pick<PendingCalls, 'detach' | 'instance'>,
    options: MadeTasksOptions = {},
  ) {
    this.max = options.max ?? 256;
    this.maxPerCaller = Math.min(options.maxPerCaller ?? 64, this.max);
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.now = options.now ?? Date.now;
    this.warn = options.warn ?? (() => undefined);
    this.schedule = options.schedule ?? ((run, ms) => {
      const timer = setTimeout(run, ms);
      timer.unref?.();
      return { cancel: () => clearTimeout(timer) };
    });
  }

  /** tools/call as a task: the handle, once the task is kept (a tasks/get right after it finds the task); the call runs on. */
  start(start: CallStart): JsonObject {
    this.makeRoom(start.caller);
    const at = this.now();
    const made: Made = { taskId: `${crypto.randomUUID()}.${this.pending.instance}`, caller: start.caller, createdAt: at, lastUpdatedAt: at, call: undefined, ended: undefined, bytes: 0, expiry: { cancel: () => undefined } };
    const call = this.pending.detach(start, () => this.touch(made));
    made.call = call;
    call.outcome.then(
      (result) => this.end(made, { status: 'completed', result }),
      (error: unknown) => this.end(made, { status: 'failed', error: { ...errorOf(error) } }, error instanceof Error ? error.message : String(error)),
    );
    made.expiry = this.schedule(() => this.expire(made), this.ttlMs);
    this.tasks.set(made.taskId, made);
    const { result: _r, error: _e, inputRequests: _i, ...handle } = this.detailed(made);
    return { ...handle, resultType: 'task' };
  }

  /** tasks/get: where the task is, its outcome inlined once it has ended. */
  get(taskId: string): JsonObject {
    return this.detailed(this.find(taskId));
  }

  /** tasks/update: the answers go to the questions they name; the ack comes at once. */
  update(taskId: string, inputResponses: unknown): JsonObject {
    if (inputResponses === null || typeof inputResponses !== 'object' || Array.isArray(inputResponses)) {
      throw new AnswerError({ code: -32602, message: 'Invalid params: tasks/update needs inputResponses, an object keyed by the ids tasks/get listed' });
    }
    const made = this.find(taskId);
    if (made.call?.answer(inputResponses as JsonObject) === true) this.touch(made);
    return {};
  }

  /** tasks/cancel: the call is given up and the task is `cancelled`; one already ended stays as it ended. */
  cancel(taskId: string): JsonObject {
    const made = this.find(taskId);
    const call = made.call;
    if (call !== undefined) {
      this.end(made, { status: 'cancelled' }, 'cancelled by tasks/cancel');
      call.giveUp(new McpError('aborted', 'the task was cancelled', 'the host sent tasks/cancel'));
    }
    return {};
  }

  private find(taskId: string): Made {
    const made = this.tasks.get(taskId);
    if (made !== undefined) return made;
    const instance = taskId.slice(taskId.indexOf('.') + 1);
    if (taskId.includes('.') && instance !== this.pending.instance) {
      throw new AnswerError({
        code: -32602,
        message: `Invalid params: task ${taskId} was made by another bridge instance, or by this one before it restarted; a task lives only where it was made. Send tasks/* to the instance that made it (route by Mcp-Name), or call the tool again`,
      });
    }
    throw new AnswerError({ code: -32602, message: `Invalid params: no task ${taskId} here (it never existed, or its ttl of ${this.ttlMs / 1000} s ran out)` });
  }

  private detailed(made: Made): JsonObject {
    const questions = made.call?.questions() ?? {};
    const asking = Object.keys(questions).length > 0;
    const status = made.ended?.status ?? (asking ? 'input_required' : 'working');
    const task: JsonObject = {
      taskId: made.taskId,
      status,
      ...(made.statusMessage !== undefined ? { statusMessage: made.statusMessage } : {}),
      createdAt: new Date(made.createdAt).toISOString(),
      lastUpdatedAt: new Date(made.lastUpdatedAt).toISOString(),
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
    if (made.ended?.status === 'completed') return { ...task, result: made.ended.result };
    if (made.ended?.status === 'failed') return { ...task, error: made.ended.error };
    return status === 'input_required' ? { ...task, inputRequests: questions } : task;
  }

  private touch(made: Made): void {
    made.lastUpdatedAt = this.now();
  }

  private end(made: Made, ended: Ended, statusMessage?: string): void {
    if (made.ended !== undefined) return;
    made.call = undefined;
    if (statusMessage !== undefined) made.statusMessage = statusMessage;
    this.touch(made);
    const outcome = ended.status === 'completed' ? ended.result : ended.status === 'failed' ? ended.error : undefined;
    try {
      made.bytes = outcome === undefined ? 0 : new TextEncoder().encode(JSON.stringify(outcome)).length;
    } catch (error) {
      // What tasks/get could never send (a result nested thousands of levels deep) is the task's failure instead.
      const why = error instanceof RangeError ? 'it is nested too deeply to serialise' : 'it cannot be serialised';
      made.ended = { status: 'failed', error: { code: -32603, message: `byhand bridge: the server's result cannot be relayed: ${why}` } };
      made.statusMessage = `the server's result cannot be relayed: ${why}`;
      return;
    }
    made.ended = ended;
    if (!this.tasks.has(made.taskId)) return;
    this.bytes += made.bytes;
    // The oldest ended ones make room; the one that just ended stays, so its host can read it.
    for (const old of [...this.tasks.values()]) {
      if (this.bytes <= this.maxBytes) break;
      if (old !== made && old.ended !== undefined) this.forget(old);
    }
  }

  private forget(made: Made): void {
    made.expiry.cancel();
    if (this.tasks.delete(made.taskId)) this.bytes -= made.bytes;
  }

  /** At its ttl a task is forgotten; one still running is given up first, and the server told. */
  private expire(made: Made): void {
    this.forget(made);
    if (made.call === undefined) return;
    this.warn(`a task ran for its whole ttl (${this.ttlMs / 1000} s) without ending: given up, and forgotten`);
    made.call.giveUp(new McpError('timeout', `the task ran past its ttl of ${this.ttlMs} ms`, 'a task the bridge makes lives for its ttl'));
  }

  /** Room for one more of the caller's tasks: past a bound, the oldest ended one (its own, or any) is forgotten. */
  private makeRoom(caller: string): void {
    const mine = [...this.tasks.values()].filter((made) => made.caller === caller);
    if (mine.length >= this.maxPerCaller) this.forgetOldestEnded(mine, `this caller has ${mine.length} tasks running, the most one caller may have`);
    if (this.tasks.size >= this.max) this.forgetOldestEnded([...this.tasks.values()], `${this.tasks.size} tasks are running`);
  }

  private forgetOldestEnded(tasks: Made[], full: string): void {
    const oldest = tasks.find((made) => made.ended !== undefined);
    if (oldest === undefined) throw new AnswerError({ code: -32603, message: `byhand bridge: ${full}; try again when one ends` });
    this.forget(oldest);
  }
}
