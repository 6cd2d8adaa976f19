// The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663), client side, modern era. A client that declares
// the extension may get a task handle (`resultType: "task"`) instead of a tools/call result. It then polls tasks/get
// at the server's pollIntervalMs until the task ends; a task in `input_required` carries its inputRequests, which the
// host fulfils and tasks/update delivers; aborting the call sends tasks/cancel. Wire shapes: the conformance suite's
// tasks-* scenarios (tools/conformance, conformance-2026 dist/index.js) and packages/servers/src/edge/tasks.ts.

import { AbortedError, McpError, ProtocolError, RoundLimitError, TimeoutError } from './errors.js';
import { fulfil } from './fulfil.js';
import { sleep } from './sleep.js';
import type { Host, InputResponse, JsonObject } from './types.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: number | string;
  lastUpdatedAt?: number | string;
  ttlMs?: number;
  pollIntervalMs?: number;
  /** tasks/get only: the outcome once `completed`, the error once `failed`, the pending requests in `input_required`. */
  result?: JsonObject;
  error?: { code: number; message: string; data?: unknown };
  inputRequests?: JsonObject;
}

export interface TaskOps {
  get(taskId: string, signal: AbortSignal): Promise<JsonObject>;
  update(taskId: string, inputResponses: Record<string, InputResponse>, signal: AbortSignal): Promise<unknown>;
  cancel(taskId: string): Promise<unknown>;
}

export interface FollowOptions {
  host: Host;
  /** The tool's name, for the host's context and for errors. */
  name: string;
  signal: AbortSignal;
  /** Every status seen, the first handle included: what a CLI shows while the task runs. */
  onTask?: (task: Task) => void;
  /** Rounds of input a task may ask for. */
  maxRounds: number;
  /** The caller's deadline for the whole wait, polls included, whatever ttl or poll interval the server names; time the host spends on input is not counted. */
  timeoutMs?: number;
  /** Injected in tests; waits `ms` or rejects when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
}

/** Poll no faster than this, whatever the server asks: a tight loop of tasks/get is load for nothing. */
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 10_000;
const DEFAULT_POLL_MS = 1_000;

/** The server's poll interval (a number, or else the default) within MIN_POLL_MS..MAX_POLL_MS. */
function pollInterval(asked: unknown): number {
  const ms = typeof asked === 'number' && !Number.isNaN(asked) ? asked : DEFAULT_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, ms));
}
/** A task that never ends within its ttl (or an hour, without one) is abandoned: the server forgets it then anyway. */
const DEFAULT_TTL_MS = 60 * 60_000;

export function isTaskHandle(result: JsonObject): boolean {
  return result.resultType === 'task' && typeof result.taskId === 'string';
}

export function asTask(value: JsonObject, what: string): Task {
  const statuses: TaskStatus[] = ['working', 'input_required', 'completed', 'failed', 'cancelled'];
  if (typeof value.taskId !== 'string' || !statuses.includes(value.status as TaskStatus)) {
    throw new ProtocolError(`${what} is not a task: it needs a taskId and one of the statuses ${statuses.join(', ')}`, 'this is a server bug (SEP-2663 Task)');
  }
  return value as unknown as Task;
}


/** Follows a task from its handle to its result; a failed task throws its error, a cancelled one AbortedError. */
export async function followTask(ops: TaskOps, handle: Task, options: FollowOptions): Promise<JsonObject> {
  const { host, name, signal, onTask, maxRounds } = options;
  const wait = options.sleep ?? sleep;
  const now = options.now ?? Date.now;
  const started = now();
  const lifetime = handle.ttlMs ?? DEFAULT_TTL_MS;
  const timeoutMs = options.timeoutMs ?? Infinity;
  /** Time spent waiting on the host (a person, a model): not the server's time, so not on the caller's deadline. */
  let hostMs = 0;
  const left = () => timeoutMs - (now() - started - hostMs);
  let task = handle;
  let rounds = 0;
  /** The pending requests last answered, so a poll that lands before the server took the answers does not re-ask. */
  let answered = '';
  onTask?.(task);
  try {
    for (;;) {
      if (task.status === 'completed') {
        if (task.result === undefined) throw new ProtocolError(`task ${task.taskId} completed without a result`, 'this is a server bug: a completed task carries its result on tasks/get');
        return task.result;
      }
      if (task.status === 'failed') {
        // The 2025-11-25 form ends a call whose result has isError `failed`, with that result (legacy-tasks.ts).
        if (task.result !== undefined && task.error === undefined) return task.result;
        const error = task.error ?? { code: -32603, message: 'the task failed and the server gave no error' };
        throw new McpError(error.code, `task ${task.taskId} (${name}) failed: ${error.message}`, 'the tool ran as a task and the server reports it failed', error.data);
      }
      if (task.status === 'cancelled') throw new AbortedError(`tools/call ${name}`, `the server cancelled task ${task.taskId}`);
      if (task.status === 'input_required' && task.inputRequests !== undefined && JSON.stringify(task.inputRequests) !== answered) {
        if (++rounds > maxRounds) throw new RoundLimitError('tools/call', name, maxRounds);
        const entries = Object.entries(task.inputRequests);
        const asking = now();
        const responses = Object.fromEntries(
          await Promise.all(entries.map(async ([key, request]) => [key, await fulfil(host, request as JsonObject, { key, method: 'tools/call', name, round: rounds, era: 'modern', signal })] as const)),
        );
        hostMs += now() - asking;
        answered = JSON.stringify(task.inputRequests);
        await ops.update(task.taskId, responses, signal);
      } else {
        if (now() - started > lifetime) {
          throw new ProtocolError(`task ${task.taskId} (${name}) did not finish within its ttl of ${lifetime} ms`, 'the server forgets a task after its ttl; ask its owner why it runs so long');
        }
        if (left() <= 0) throw new TimeoutError(`tools/call ${name} (task ${task.taskId})`, timeoutMs);
        // The last wait is cut to the deadline, so the poll after it is the one that may still see the end.
        await wait(Math.min(pollInterval(task.pollIntervalMs ?? handle.pollIntervalMs), Math.max(0, left())), signal);
      }
      const next = asTask(await ops.get(task.taskId, signal), `tasks/get ${task.taskId}`);
      if (next.status !== task.status || next.statusMessage !== task.statusMessage) onTask?.(next);
      task = next;
    }
  } catch (error) {
    // Closing the call no longer cancels on the modern era: the task lives on the server, so say so with tasks/cancel.
    if (signal.aborted) {
      await ops.cancel(task.taskId).catch(() => undefined);
      throw error instanceof AbortedError ? error : new AbortedError(`tools/call ${name}`, signal.reason);
    }
    // The caller stopped waiting: the task would run on for nothing.
    if (error instanceof TimeoutError) await ops.cancel(task.taskId).catch(() => undefined);
    throw error;
  }
}
