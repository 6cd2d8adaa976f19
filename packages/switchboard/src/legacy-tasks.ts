// A 2025 host's tasks (2025-11-25 basic/utilities/tasks.mdx) in front of a 2026 server that offers the tasks extension
// (SEP-2663). The host asks for a task with `task` on tools/call, polls tasks/get, waits on tasks/result (which carries
// the server's input requests to it, as any request does while a call runs, and the task's changes of status as
// notifications/tasks/status), may send tasks/cancel, and lists the tasks it started with tasks/list (the extension has
// no list: the bridge keeps the host's task ids). The back speaks the extension: the server decides which call runs as
// a task, its tasks/get carries the outcome, tasks/update the answers. A call the server answered at once is still a
// task to a host that asked for one: the bridge keeps it, finished, for the host to read.

import { RpcError, TASKS_EXTENSION, type Client, type JsonObject, type Task, type ToolCallOptions } from '@byhand/client';
import { AnswerError } from './json-rpc-peer.js';

/** What a 2025 host is told the bridge does (tasks.mdx, Capabilities): task-augmented tools/call, tasks/list, tasks/cancel. */
export const LEGACY_TASKS_CAPABILITY: JsonObject = { requests: { tools: { call: {} } }, list: {}, cancel: {} };


/** The key a 2025 tasks/result names its task under (tasks.mdx, Related Task Metadata). */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** Tasks the bridge keeps for a host (finished calls, and the tool names of the server's tasks), the oldest forgotten first. */
const KEPT = 256;

export function offersTasks(client: Client): boolean {
  const extensions = client.serverCapabilities.extensions as JsonObject | undefined;
  return client.traits.inputRounds && extensions?.[TASKS_EXTENSION] !== undefined;
}

/** A tools/list for the host: every tool may run as a task, as the back asks the server for one on every call. */
export function withTaskSupport(result: JsonObject): JsonObject {
  const tools = (result.tools ?? []) as JsonObject[];
  return { ...result, tools: tools.map((tool) => (tool.execution === undefined ? { ...tool, execution: { taskSupport: 'optional' } } : tool)) };
}

export class LegacyTasks {
  /** Calls the server answered at once, as finished tasks. */
  private readonly finished = new Map<string, { task: JsonObject; result: JsonObject }>();
  /** The tool each of the server's tasks runs, for the host's context when its input is asked. */
  private readonly tools = new Map<string, string>();
  /** Every task this host started, in order, for tasks/list. */
  private readonly started = new Set<string>();
  private readonly now: () => number;
  private readonly page: number;
  private readonly onStatus: (task: JsonObject) => void;
  constructor(
    private readonly client: Client,
    options: {
      now?: () => number;
      /** Tasks a page of tasks/list reads (each is a tasks/get to the server). */
      page?: number;
      /** A task's new status while the host waits on its tasks/result, in the 2025 form (the params of notifications/tasks/status). */
      onStatus?: (task: JsonObject) => void;
    } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.page = options.page ?? 50;
    this.onStatus = options.onStatus ?? (() => undefined);
  }

  /** tools/call with `task`: a CreateTaskResult. */
  async call(params: JsonObject, options: ToolCallOptions): Promise<JsonObject> {
    const name = String(params.name);
    const started = await this.client.startTool(name, (params.arguments ?? {}) as JsonObject, options);
    if ('task' in started) {
      remember(this.tools, started.task.taskId, name);
      this.listed(started.task.taskId);
      return { task: legacyTask(started.task, this.now) };
    }
    const at = new Date(this.now()).toISOString();
    const task: JsonObject = { taskId: `bridge-${crypto.randomUUID()}`, status: started.result.isError === true ? 'failed' : 'completed', ttl: null, createdAt: at, lastUpdatedAt: at };
    remember(this.finished, String(task.taskId), { task, result: started.result });
    this.listed(String(task.taskId));
    return { task };
  }

  /** tasks/get: the task as 2025-11-25 has it (its outcome is tasks/result's). */
  async get(taskId: string, options: ToolCallOptions): Promise<JsonObject> {
    return this.finished.get(taskId)?.task ?? legacyTask(await this.client.getTask(taskId, options), this.now);
  }

  /** tasks/result: waits for the end (the host answering what the server asks meanwhile) and answers what tools/call would have. */
  async result(taskId: string, options: ToolCallOptions): Promise<JsonObject> {
    const result: JsonObject = this.finished.get(taskId)?.result ?? (await this.follow(taskId, options));
    return { ...result, _meta: { ...(result._meta as JsonObject | undefined), [RELATED_TASK]: { taskId } } };
  }

  /** The server's task to its end; each status it moves to on the way is told (tasks.mdx, Task Status Notification). */
  private async follow(taskId: string, options: ToolCallOptions): Promise<JsonObject> {
    const first = await this.client.getTask(taskId, options);
    // followTask tells the status it starts from too, which is no change: the host knows it from tasks/get or the handle.
    const onTask = (task: Task) => {
      if (task !== first) this.onStatus(legacyTask(task, this.now));
    };
    return this.client.followTask(first, this.tools.get(taskId) ?? `task ${taskId}`, { ...options, onTask });
  }

  /**
   * tasks/list: the tasks this host started through the bridge, newest first, as tasks/get reads them (the extension
   * has no list of its own; a task the server has forgotten is left out, and forgotten here too). The cursor is the
   * place in that list.
   */
  async list(cursor: unknown, options: ToolCallOptions): Promise<JsonObject> {
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(start) || start < 0 || (typeof cursor !== 'string' && cursor !== undefined)) throw new AnswerError({ code: -32602, message: 'Invalid params: tasks/list takes a cursor a tasks/list gave' });
    const ids = [...this.started].reverse();
    const shown = ids.slice(start, start + this.page);
    const tasks = await Promise.all(
      shown.map(async (taskId) => {
        try {
          return await this.get(taskId, options);
        } catch (error) {
          if (!(error instanceof RpcError) || error.code !== -32602) throw error;
          this.started.delete(taskId);
          return undefined;
        }
      }),
    );
    return { tasks: tasks.filter((task) => task !== undefined), ...(start + this.page < ids.length ? { nextCursor: String(start + this.page) } : {}) };
  }

  private listed(taskId: string): void {
    this.started.add(taskId);
    if (this.started.size > KEPT) this.started.delete(this.started.values().next().value!);
  }

  /** tasks/cancel: the task, cancelled; one that has ended cannot be (tasks.mdx, Cancelling Tasks: -32602). */
  async cancel(taskId: string, options: ToolCallOptions): Promise<JsonObject> {
    if (this.finished.has(taskId)) throw new AnswerError({ code: -32602, message: `Invalid params: task ${taskId} has already ended` });
    await this.client.cancelTask(taskId, options);
    return legacyTask(await this.client.getTask(taskId, options), this.now);
  }
}

/** A 2026 Task as 2025-11-25 writes it: `ttl` (null, unlimited) and `pollInterval` in ms, the times as ISO strings. */
function legacyTask(task: Task, now: () => number): JsonObject {
  const time = (value: number | string | undefined) => (typeof value === 'string' ? value : new Date(value ?? now()).toISOString());
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: time(task.createdAt),
    lastUpdatedAt: time(task.lastUpdatedAt ?? task.createdAt),
    ttl: task.ttlMs ?? null,
    ...(task.pollIntervalMs !== undefined ? { pollInterval: task.pollIntervalMs } : {}),
  };
}

function remember<T>(map: Map<string, T>, key: string, value: T): void {
  map.set(key, value);
  if (map.size > KEPT) map.delete(map.keys().next().value!);
}
