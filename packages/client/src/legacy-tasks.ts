// Tasks as the 2025-11-25 revision has them (spec 2025-11-25 basic/utilities/tasks.mdx): a capability agreed at
// initialize, not an extension. The server declares `tasks.requests.tools.call`, each tool says in tools/list whether
// it may run as one (`execution.taskSupport`), and the client asks for a task by adding `task: {}` to tools/call's
// params. The answer is a CreateTaskResult, `{task: Task}`, whose Task names its lifetime `ttl` (null: unlimited) and
// its polling hint `pollInterval`. tasks/get polls; tasks/result blocks until the task has ended and answers exactly
// what tools/call would have (a result, or a JSON-RPC error); while a task is `input_required` the server's requests
// travel on tasks/result's response stream, which the client SHOULD open then (tasks.mdx, Input Required Status; the
// SDK 1.x queues them there: @modelcontextprotocol/sdk/dist/esm/shared/protocol.js, the tasks/result handler).
// Everything here is turned into the modern Task (tasks.ts), so followTask, the CLI and callers see one shape.

import { kit } from './legacy-kit.js';
import type { Send } from './connection.js';
import type { Task, TaskOps } from './tasks.js';
import type { JsonObject, Tool } from './types.js';


/** The client's capability: it makes task-augmented requests and receives none (`requests` is exhaustive, tasks.mdx). */
export const LEGACY_CLIENT_TASKS: JsonObject = {};

/** The server accepts task-augmented tools/call (tasks.mdx, Tool-Level Negotiation rule 1). */
export function offersToolTasks(serverCapabilities: JsonObject): boolean {
  const tasks = serverCapabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  const call = tasks?.requests?.tools?.call;
  return typeof call === 'object' && call !== null;
}

/** A tool that must (`required`) or may (`optional`) run as a task; absent or `forbidden` must not. */
export function runsAsTask(tool: Tool): boolean {
  const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
  return support === 'required' || support === 'optional';
}

/** The task of a CreateTaskResult, or undefined for any other tools/call result. */
export function createdTask(result: JsonObject, what: string): Task | undefined {
  const task = result.task;
  if (typeof task !== 'object' || task === null || Array.isArray(task) || Array.isArray(result.content)) return undefined;
  return fromLegacy(task as JsonObject, what);
}

/** The 2025-11-25 Task in the modern shape: `ttl` becomes ttlMs (null, unlimited, leaves it out), `pollInterval` pollIntervalMs. */
export function fromLegacy(value: JsonObject, what: string): Task {
  const { ttl, pollInterval, ...rest } = value;
  const task: JsonObject = { ...rest };
  if (typeof ttl === 'number') task.ttlMs = ttl;
  if (typeof pollInterval === 'number') task.pollIntervalMs = pollInterval;
  return kit.asTask(task, what);
}

/** tasks/get, with the outcome inlined once the task has ended, as the modern tasks/get carries it. */
export async function getLegacyTask(send: Send, taskId: string, signal?: AbortSignal): Promise<Task> {
  const task = fromLegacy(await send('tasks/get', { taskId }, signal), `tasks/get ${taskId}`);
  if (task.status !== 'completed' && task.status !== 'failed') return task;
  return { ...task, ...(await outcome(send, taskId, signal)) };
}

/**
 * What followTask polls with. A task in `input_required` is answered by opening tasks/result: the server's requests
 * arrive on its stream and are fulfilled by the host like any other push, and it returns once the task has ended. When
 * it outlasts the request timeout the task is polled again, which opens it again. `report` is told the
 * `input_required` status that followTask itself never sees.
 */
export function legacyTaskOps(send: Send, report?: (task: Task) => void): Omit<TaskOps, 'cancel'> {
  return {
    async get(taskId, signal) {
      const task = await getLegacyTask(send, taskId, signal);
      if (task.status !== 'input_required') return task as unknown as JsonObject;
      report?.(task);
      let ended: Awaited<ReturnType<typeof outcome>>;
      try {
        ended = await outcome(send, taskId, signal);
      } catch (error) {
        if (error instanceof kit.TimeoutError) return task as unknown as JsonObject;
        throw error;
      }
      // tasks/result says how the task ended but not its status: one more tasks/get does.
      const final = fromLegacy(await send('tasks/get', { taskId }, signal), `tasks/get ${taskId}`);
      return (final.status === 'cancelled' ? final : { ...final, ...ended }) as unknown as JsonObject;
    },
    update: async () => {
      throw new Error('the 2025-11-25 form has no tasks/update: input travels on tasks/result');
    },
  };
}

/** tasks/result: the tool's result (one with isError ends the task `failed`, tasks.mdx Task Status), or its JSON-RPC error. */
async function outcome(send: Send, taskId: string, signal?: AbortSignal): Promise<Pick<Task, 'result'> | Pick<Task, 'error'>> {
  try {
    return { result: await send('tasks/result', { taskId }, signal) };
  } catch (error) {
    if (!(error instanceof kit.RpcError) || typeof error.code !== 'number') throw error;
    return { error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } };
  }
}
