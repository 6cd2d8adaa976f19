// Where a toolbox keeps its tasks between requests: the one interface the tasks extension (tasks.ts) uses, so a task
// started on one instance is read, answered and cancelled on another when the instances share the storage. Memory
// (the default, and a Worker's unless it binds its own), SQLite and PostgreSQL (`@byhand/servers/node`, what
// `byhand serve --db` opens) keep the same contract (test/servers-task-storage.test.ts runs it against each).
// The work of a task runs on the instance that started it; the storage is how the others reach it.

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
export const LIVE: readonly TaskStatus[] = ['working', 'input_required'];

export type InputRequestMap = Record<string, { method: string; params?: Record<string, unknown> }>;
export type InputResponseMap = Record<string, unknown>;

export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** What changes as a task goes: written whole at each step, so no step leaves another's fields behind. */
export interface TaskState {
  status: TaskStatus;
  result?: Record<string, unknown>;
  error?: TaskError;
  /** While `input_required`: what the task asks for. */
  inputRequests?: InputRequestMap;
  /** The answers given so far (tasks/update), by key: the instance running the task reads them. */
  inputResponses?: InputResponseMap;
}

export interface TaskRecord extends TaskState {
  taskId: string;
  /** The client that started it (its address), for the per-client quota; undefined where none is known. */
  client?: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
}

export interface TaskBounds {
  /** Tasks kept at once. */
  maxTasks: number;
  /** Of them, started by one client. */
  maxTasksPerClient: number;
}

export class TaskStoreFullError extends Error {}

export interface TaskStorage {
  /** The tasks live in this process only: another instance behind the same URL cannot see them. */
  readonly inMemory?: boolean;
  /**
   * Keeps a new task. First it forgets tasks past their ttl, then makes room within `bounds` by forgetting the oldest
   * finished tasks (the client's own, for its quota); when that is not enough it throws TaskStoreFullError. Checked
   * and written as one step, so concurrent instances cannot overshoot the bounds.
   */
  create(task: TaskRecord, bounds: TaskBounds): Promise<void>;
  /** The tasks with these ids that exist and have not passed their ttl at `now`. */
  get(taskIds: readonly string[], now: number): Promise<TaskRecord[]>;
  /** Moves a task whose status is one of `from` to `next` (its other TaskState fields cleared); false when it was not. */
  transition(taskId: string, from: readonly TaskStatus[], next: TaskState, now: number): Promise<boolean>;
  /** Adds answers, for keys the task asks for, to an `input_required` task; what it found. */
  answer(taskId: string, responses: InputResponseMap, now: number): Promise<'answered' | 'not waiting' | 'unknown'>;
  /** Resolves once the storage is reachable; rejects with the reason it is not. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The requests not answered yet. */
export function unanswered(task: Pick<TaskState, 'inputRequests' | 'inputResponses'>): InputRequestMap {
  const answers = task.inputResponses ?? {};
  return Object.fromEntries(Object.entries(task.inputRequests ?? {}).filter(([key]) => !Object.hasOwn(answers, key)));
}

/** The answers for keys the task asks for, merged into those it has. */
export function withAnswers(task: Pick<TaskState, 'inputRequests' | 'inputResponses'>, responses: InputResponseMap): InputResponseMap {
  const asked = task.inputRequests ?? {};
  return { ...task.inputResponses, ...Object.fromEntries(Object.entries(responses).filter(([key]) => Object.hasOwn(asked, key))) };
}

/**
 * Which tasks `create` forgets to make room, oldest first, or why it cannot: shared by the stores that hold their tasks
 * in memory (this one) and those that read the counts from a database (they pass what they counted).
 */
export function roomFor(tasks: readonly Pick<TaskRecord, 'taskId' | 'client' | 'status'>[], client: string | undefined, bounds: TaskBounds): { forget: string[] } | { full: string } {
  const forget = new Set<string>();
  if (client !== undefined) {
    const own = tasks.filter((task) => task.client === client);
    let held = own.length;
    for (const task of own) {
      if (held < bounds.maxTasksPerClient) break;
      if (!TERMINAL.has(task.status)) continue;
      forget.add(task.taskId);
      held--;
    }
    if (held >= bounds.maxTasksPerClient) return { full: `this client already holds ${bounds.maxTasksPerClient} unfinished tasks here; wait for one to end, or cancel one` };
  }
  let total = tasks.length - forget.size;
  for (const task of tasks) {
    if (total < bounds.maxTasks) break;
    if (!TERMINAL.has(task.status) || forget.has(task.taskId)) continue;
    forget.add(task.taskId);
    total--;
  }
  if (total >= bounds.maxTasks) return { full: `this server already holds ${bounds.maxTasks} tasks; try again later` };
  return { forget: [...forget] };
}

/** Tasks in this process: the default, and a Worker's isolate's unless it binds a storage of its own. */
export function memoryTaskStorage(): TaskStorage {
  // In the order they were created: roomFor forgets the oldest first.
  const tasks = new Map<string, TaskRecord>();
  const live = (taskId: string, now: number) => {
    const task = tasks.get(taskId);
    return task !== undefined && now - task.createdAt < task.ttlMs ? task : undefined;
  };
  return {
    inMemory: true,
    async create(task, bounds) {
      for (const [id, kept] of tasks) if (task.createdAt - kept.createdAt >= kept.ttlMs) tasks.delete(id);
      const room = roomFor([...tasks.values()], task.client, bounds);
      if ('full' in room) throw new TaskStoreFullError(room.full);
      for (const id of room.forget) tasks.delete(id);
      tasks.set(task.taskId, structuredClone(task));
    },
    async get(taskIds, now) {
      return taskIds.flatMap((id) => {
        const task = live(id, now);
        return task === undefined ? [] : [structuredClone(task)];
      });
    },
    async transition(taskId, from, next, now) {
      const task = live(taskId, now);
      if (task === undefined || !from.includes(task.status)) return false;
      tasks.set(taskId, { ...pick(task), ...structuredClone(next), lastUpdatedAt: now });
      return true;
    },
    async answer(taskId, responses, now) {
      const task = live(taskId, now);
      if (task === undefined) return 'unknown';
      if (task.status !== 'input_required') return 'not waiting';
      task.inputResponses = structuredClone(withAnswers(task, responses));
      task.lastUpdatedAt = now;
      return 'answered';
    },
    async ready() {},
    async close() {
      tasks.clear();
    },
  };
}

/** The fields a transition keeps. */
function pick({ taskId, client, createdAt, lastUpdatedAt, ttlMs }: TaskRecord): TaskRecord {
  return { taskId, ...(client !== undefined ? { client } : {}), createdAt, lastUpdatedAt, ttlMs, status: 'working' };
}
