// The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): a bounded, in-memory store of the tasks one toolbox
// has started. The modern era builds a fresh server per request, so the store lives beside the toolbox, not in a server.
// Wire shapes follow the conformance suite's tasks-* scenarios (tools/conformance, conformance-2026 dist/index.js):
// a flat CreateTaskResult (`resultType: "task"`, `taskId`, `status`, `createdAt`, `lastUpdatedAt`, `ttlMs`,
// `pollIntervalMs`), and a DetailedTask on tasks/get that inlines `result`, `error` or the pending `inputRequests`.

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export type InputRequestMap = Record<string, { method: string; params?: Record<string, unknown> }>;
export type InputResponseMap = Record<string, unknown>;

export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** A failure the work reports as a protocol error: the task ends `failed` with this `error`, never `result`. */
export class TaskProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** What a task's work gets: its cancellation signal and a way to park for client input. */
export interface TaskRun {
  signal: AbortSignal;
  /** Parks the task in `input_required` until every key has an answer (answers may arrive one tasks/update at a time). */
  ask(requests: InputRequestMap): Promise<InputResponseMap>;
}

export type TaskWork = (run: TaskRun) => Promise<Record<string, unknown>>;

interface Task {
  taskId: string;
  /** The client that started it, when known. */
  client: string | undefined;
  status: TaskStatus;
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  result?: Record<string, unknown>;
  error?: TaskError;
  pending?: { requests: InputRequestMap; answers: InputResponseMap; resolve: (answers: InputResponseMap) => void };
  abort: AbortController;
}

export interface TaskStoreOptions {
  /** How long a task stays readable after it was created, in ms. */
  ttlMs?: number;
  pollIntervalMs?: number;
  /** At most this many tasks are held; the oldest finished ones go first, and when none has finished, creation fails. */
  maxTasks?: number;
  /** At most this many of them started by one client; its own oldest finished one makes room, else creation fails. */
  maxTasksPerClient?: number;
  now?: () => number;
  newId?: () => string;
}

export class TaskStoreFullError extends Error {}

/** What a request-scoped server needs of the store to start a task on behalf of its client. */
export interface TaskStarter {
  start(work: TaskWork): Record<string, unknown>;
}

export const DEFAULT_MAX_TASKS = 1000;
/** A tenth of the store: one client cannot hold the slots every other client needs. */
export const DEFAULT_MAX_TASKS_PER_CLIENT = 100;

export class TaskStore {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  private readonly maxTasks: number;
  private readonly maxTasksPerClient: number;
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly tasks = new Map<string, Task>();

  constructor(options: TaskStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.maxTasks = options.maxTasks ?? DEFAULT_MAX_TASKS;
    this.maxTasksPerClient = options.maxTasksPerClient ?? DEFAULT_MAX_TASKS_PER_CLIENT;
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? (() => crypto.randomUUID());
  }

  /** Starts tasks on behalf of one client (its address; undefined where the platform gave none: then only the total binds). */
  startingFor(client: string | undefined): TaskStarter {
    return { start: (work) => this.start(work, client) };
  }

  /** Registers the task before it returns (a tasks/get right after the CreateTaskResult must find it), then starts the work. */
  start(work: TaskWork, client?: string): Record<string, unknown> {
    this.sweep();
    if (client !== undefined) this.makeRoomFor(client);
    if (this.tasks.size >= this.maxTasks) throw new TaskStoreFullError(`this server already holds ${this.maxTasks} tasks; try again later`);
    const at = this.now();
    const task: Task = { taskId: this.newId(), client, status: 'working', createdAt: at, lastUpdatedAt: at, ttlMs: this.ttlMs, abort: new AbortController() };
    this.tasks.set(task.taskId, task);
    const run: TaskRun = { signal: task.abort.signal, ask: (requests) => this.park(task, requests) };
    // Deferred so that the work never runs inside the request that created the task.
    queueMicrotask(() => {
      work(run).then(
        (result) => this.settle(task, { status: 'completed', result }),
        (error: unknown) => this.settle(task, { status: 'failed', error: asTaskError(error) }),
      );
    });
    return { resultType: 'task', ...this.envelope(task) };
  }

  has(taskId: string): boolean {
    this.sweep();
    return this.tasks.has(taskId);
  }

  /** The DetailedTask, or undefined for an unknown (or expired) id. */
  get(taskId: string): Record<string, unknown> | undefined {
    this.sweep();
    const task = this.tasks.get(taskId);
    if (task === undefined) return undefined;
    return {
      ...this.envelope(task),
      ...(task.result !== undefined ? { result: task.result } : {}),
      ...(task.error !== undefined ? { error: task.error } : {}),
      ...(task.pending !== undefined ? { inputRequests: unanswered(task.pending) } : {}),
    };
  }

  /** Delivers answers; keys the task did not ask for are ignored. False for an unknown id. */
  update(taskId: string, responses: InputResponseMap): boolean {
    const task = this.tasks.get(taskId);
    if (task === undefined) return false;
    const pending = task.pending;
    if (pending === undefined) return true;
    for (const [key, value] of Object.entries(responses)) {
      if (Object.hasOwn(pending.requests, key)) pending.answers[key] = value;
    }
    task.lastUpdatedAt = this.now();
    if (Object.keys(unanswered(pending)).length === 0) {
      task.pending = undefined;
      task.status = 'working';
      pending.resolve(pending.answers);
    }
    return true;
  }

  /** Cancels a running task; a finished one stays as it was (cancel is idempotent). False for an unknown id. */
  cancel(taskId: string): boolean {
    const task = this.tasks.get(taskId);
    if (task === undefined) return false;
    if (!TERMINAL.has(task.status)) {
      this.settle(task, { status: 'cancelled' });
      task.abort.abort(new Error('the task was cancelled'));
    }
    return true;
  }

  /** Cancels every task still running (the toolbox is closing). */
  close(): void {
    for (const task of this.tasks.values()) this.cancel(task.taskId);
    this.tasks.clear();
  }

  private envelope(task: Task): Record<string, unknown> {
    return {
      taskId: task.taskId,
      status: task.status,
      createdAt: new Date(task.createdAt).toISOString(),
      lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
      ttlMs: task.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
  }

  private park(task: Task, requests: InputRequestMap): Promise<InputResponseMap> {
    if (TERMINAL.has(task.status)) return Promise.reject(new Error('the task has already finished'));
    return new Promise((resolve) => {
      task.pending = { requests, answers: {}, resolve };
      task.status = 'input_required';
      task.lastUpdatedAt = this.now();
    });
  }

  private settle(task: Task, outcome: { status: 'completed'; result: Record<string, unknown> } | { status: 'failed'; error: TaskError } | { status: 'cancelled' }): void {
    // The first terminal status wins: work that ends after a cancel does not overwrite it.
    if (TERMINAL.has(task.status)) return;
    task.status = outcome.status;
    task.pending = undefined;
    if (outcome.status === 'completed') task.result = outcome.result;
    if (outcome.status === 'failed') task.error = outcome.error;
    task.lastUpdatedAt = this.now();
  }

  /** Drops the client's oldest finished tasks while it holds its quota; throws when all it holds are unfinished. */
  private makeRoomFor(client: string): void {
    const own = [...this.tasks.values()].filter((task) => task.client === client);
    let held = own.length;
    for (const task of own) {
      if (held < this.maxTasksPerClient) return;
      if (!TERMINAL.has(task.status)) continue;
      this.tasks.delete(task.taskId);
      held--;
    }
    if (held >= this.maxTasksPerClient) {
      throw new TaskStoreFullError(`this client already holds ${this.maxTasksPerClient} unfinished tasks here; wait for one to end, or cancel one`);
    }
  }

  /** Drops tasks past their ttl (cancelling any still running), then the oldest finished ones over the bound. */
  private sweep(): void {
    const at = this.now();
    for (const task of this.tasks.values()) {
      if (at - task.createdAt < task.ttlMs) continue;
      this.cancel(task.taskId);
      this.tasks.delete(task.taskId);
    }
    if (this.tasks.size < this.maxTasks) return;
    for (const task of this.tasks.values()) {
      if (this.tasks.size < this.maxTasks) break;
      if (TERMINAL.has(task.status)) this.tasks.delete(task.taskId);
    }
  }
}

function unanswered(pending: NonNullable<Task['pending']>): InputRequestMap {
  return Object.fromEntries(Object.entries(pending.requests).filter(([key]) => !Object.hasOwn(pending.answers, key)));
}

function asTaskError(error: unknown): TaskError {
  if (error instanceof TaskProtocolError) return { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) };
  return { code: -32603, message: error instanceof Error ? error.message : String(error) };
}
