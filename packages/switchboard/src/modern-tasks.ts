// A 2025 server's tasks (2025-11-25 basic/utilities/tasks.mdx) for a 2026 host that declares the tasks extension
// (SEP-2663). A call the server runs as a task answers the host with the task's handle; tasks/get reads the task,
// with its outcome inlined once it has ended, as the extension's tasks/get carries it. A 2025 task that needs input
// asks for it on tasks/result's stream: the bridge opens tasks/result, and what the server asks there waits in the
// pending calls (pending-calls.ts) and reaches the host as the task's `inputRequests`; the host's tasks/update answers
// them, and the task goes on. tasks/cancel cancels it. A host that does not declare the extension never sees a task:
// the back follows the task to its result within the call, as for any 2025 host.

import { RpcError, TASKS_EXTENSION, TimeoutError, type Client, type ClientCapabilities, type JsonObject, type Task } from '@byhand/client';
import { toolFailure } from './forward.js';
import { AnswerError } from './json-rpc-peer.js';
import type { ModernBack, ModernBacks } from './modern-backs.js';
import type { Leased, PendingCalls, Progress } from './pending-calls.js';

/** Tasks followed for hosts while they take input (the round shown, the tasks/result held), the oldest forgotten first. */
const KEPT = 256;

/** Whether the caller's envelope declares the tasks extension. */
export function declaresTasks(declared: ClientCapabilities): boolean {
  const extensions = (declared as JsonObject).extensions as JsonObject | undefined;
  return extensions !== undefined && extensions !== null && typeof extensions === 'object' && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/** A 2025 server that runs tool calls as tasks (tasks.mdx, Capabilities: `tasks.requests.tools.call`). */
export function offersLegacyTasks(client: Client): boolean {
  const tasks = client.serverCapabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  const call = tasks?.requests?.tools?.call;
  return !client.traits.inputRounds && typeof call === 'object' && call !== null;
}

/**
 * A legacy server's capabilities as a 2026 host reads them: the tasks extension in place of the 2025 `tasks`
 * capability, since the bridge carries the 2025 tasks a server runs, and makes its own of the calls of a server that
 * runs none (made-tasks.ts). The extension a legacy server names is not its own word: it has no 2026 tasks to carry.
 */
export function legacyCapabilities(client: Client): JsonObject {
  const { tasks: _, extensions: named, ...others } = client.serverCapabilities;
  return { ...others, extensions: { ...(named as JsonObject | undefined), [TASKS_EXTENSION]: {} } };
}

interface Followed {
  /** The back the task lives on: the session (or process) whose call started it. */
  back?: ModernBack;
  /** The round the host has been shown and not yet answered. */
  round?: { requestState: string; inputRequests: JsonObject };
  /** tasks/result, being opened for the server's first question. */
  opening?: Promise<JsonObject>;
  /** tasks/result, open in the bridge while the server takes the host's answers. */
  taking?: Promise<void>;
}

export class ModernTasks {
  private readonly followed = new Map<string, Followed>();

  constructor(
    private readonly backs: Pick<ModernBacks, 'client' | 'lease'>,
    private readonly pending: PendingCalls,
  ) {}

  /** tools/call on the back the call holds: the task's handle (CreateTaskResult) when the server made one, else the call's result. */
  async call(back: ModernBack, params: JsonObject, signal: AbortSignal, progress: Progress): Promise<JsonObject> {
    let started: Awaited<ReturnType<Client['startTool']>>;
    try {
      started = await back.client.startTool(String(params.name), (params.arguments ?? {}) as JsonObject, { signal, onProgress: progress });
    } catch (error) {
      return toolFailure(error, signal);
    }
    if ('result' in started) return started.result;
    const { result: _r, error: _e, inputRequests: _i, ...handle } = started.task;
    this.follow(handle.taskId).back = back;
    return { ...handle, resultType: 'task' };
  }

  /** The back a task lives on, or (for a task this bridge did not start) the group's first. */
  private async backOf(declared: ClientCapabilities, taskId: string): Promise<ModernBack> {
    return this.followed.get(taskId)?.back ?? (await this.backs.client(declared));
  }

  /**
   * tasks/get. A task the server says needs input has it asked on tasks/result: the bridge opens that, and the host
   * is shown what the server asked there. While the server takes the host's answers the task is `working`, whatever
   * it said meanwhile, until its next question reaches the bridge.
   */
  async get(declared: ClientCapabilities, caller: string, taskId: string, signal: AbortSignal): Promise<JsonObject> {
    const back = await this.backOf(declared, taskId);
    const { client } = back;
    const task = await client.getTask(taskId, { signal });
    if (task.status !== 'input_required') return detailed(task);
    // Only a task waiting for input is followed: what the bridge holds for it is its round and its tasks/result.
    const followed = this.follow(taskId);
    if (followed.round !== undefined) return detailed({ ...task, inputRequests: followed.round.inputRequests });
    if (followed.taking !== undefined) return detailed({ ...task, status: 'working' });
    let asked: JsonObject;
    try {
      // One tasks/result at a time, however many polls come meanwhile.
      // tasks/result holds the task's back while it is open: what its server asks meanwhile is the task's.
      const lease = async (s: AbortSignal): Promise<Leased> => {
        const { release } = await this.backs.lease(declared, { only: back.scope, signal: s });
        return { scope: back.scope, release, run: (signal) => client.request('tasks/result', { taskId }, { signal }) };
      };
      followed.opening ??= this.pending.start({ declared, caller, binding: binding(taskId), lease }).finally(() => (followed.opening = undefined));
      asked = await followed.opening;
    } catch (error) {
      // The task ended in an error (tasks/result answers what tools/call would have), or tasks/result outlasted the
      // request timeout: either way tasks/get now says where the task is.
      if (error instanceof RpcError || error instanceof TimeoutError) return detailed(await client.getTask(taskId, { signal }));
      throw error;
    }
    if (asked.resultType !== 'input_required') return detailed(await client.getTask(taskId, { signal }));
    followed.round ??= { requestState: String(asked.requestState), inputRequests: asked.inputRequests as JsonObject };
    return detailed({ ...task, inputRequests: followed.round.inputRequests });
  }

  /** tasks/update: the answers go to what the server asked on tasks/result, which stays open for its next question. */
  update(declared: ClientCapabilities, taskId: string, inputResponses: unknown): JsonObject {
    if (inputResponses === null || typeof inputResponses !== 'object' || Array.isArray(inputResponses)) {
      throw new AnswerError({ code: -32602, message: 'Invalid params: tasks/update needs inputResponses, an object keyed by the ids tasks/get listed' });
    }
    const followed = this.followed.get(taskId);
    const round = followed?.round;
    if (followed === undefined || round === undefined) throw new AnswerError({ code: -32602, message: `Invalid params: task ${taskId} is not waiting for input from this bridge` });
    followed.round = undefined;
    const taking: Promise<void> = this.pending
      .resume(round.requestState, inputResponses as JsonObject, declared, binding(taskId))
      .then(
        (next) => {
          if (next.resultType === 'input_required') followed.round = { requestState: String(next.requestState), inputRequests: next.inputRequests as JsonObject };
        },
        // How the task ended (or that it could not take the answers) is tasks/get's to say.
        () => undefined,
      )
      .finally(() => {
        if (followed.taking === taking) followed.taking = undefined;
      });
    followed.taking = taking;
    return {};
  }

  /** tasks/cancel: the server stops the task; what it was asking is given up with it. */
  async cancel(declared: ClientCapabilities, taskId: string, signal: AbortSignal): Promise<JsonObject> {
    await (await this.backOf(declared, taskId)).client.cancelTask(taskId, { signal });
    const followed = this.followed.get(taskId);
    if (followed !== undefined) followed.round = undefined;
    return {};
  }

  private follow(taskId: string): Followed {
    let followed = this.followed.get(taskId);
    if (followed === undefined) {
      followed = {};
      this.followed.set(taskId, followed);
      if (this.followed.size > KEPT) this.followed.delete(this.followed.keys().next().value!);
    }
    return followed;
  }
}

/** Which task a round's requestState may be used for. */
const binding = (taskId: string) => `tasks/result\0${taskId}`;

/** The extension's DetailedTask: the client's Task is already in that shape. */
const detailed = (task: Task) => task as unknown as JsonObject;
