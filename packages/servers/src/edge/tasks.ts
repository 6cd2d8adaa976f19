// The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): the tasks one toolbox has started, bounded, kept in
// a TaskStorage (task-storage.ts): this process's memory by default, or a database the instances behind one URL share,
// so that a task started on one instance is read, answered and cancelled on any. The modern era builds a fresh server
// per request, so the store lives beside the toolbox, not in a server. The work of a task runs where it started; that
// instance watches the storage for a cancel or answers given elsewhere.
// Wire shapes follow the conformance suite's tasks-* scenarios (tools/conformance, conformance-2026 dist/index.js):
// a flat CreateTaskResult (`resultType: "task"`, `taskId`, `status`, `createdAt`, `lastUpdatedAt`, `ttlMs`,
// `pollIntervalMs`), and a DetailedTask on tasks/get that inlines `result`, `error` or the pending `inputRequests`.

import {
  LIVE,
  memoryTaskStorage,
  TaskStoreFullError,
  TERMINAL,
  unanswered,
  type InputRequestMap,
  type InputResponseMap,
  type TaskError,
  type TaskRecord,
  type TaskState,
  type TaskStorage,
} from './task-storage.js';

export { TaskStoreFullError, type InputRequestMap, type InputResponseMap, type TaskError, type TaskStatus, type TaskStorage } from './task-storage.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

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

/** The storage failed (a database down): the client gets an id, the operator the detail under it. */
export class TaskStorageUnavailableError extends Error {
  constructor(readonly id: string) {
    super(`Storage unavailable (id ${id}): the tasks cannot be read or written right now. Try again later.`);
    this.name = 'TaskStorageUnavailableError';
  }
}

/** What a task's work gets: its cancellation signal and a way to park for client input. */
export interface TaskRun {
  signal: AbortSignal;
  /** Parks the task in `input_required` until every key has an answer (answers may arrive one tasks/update at a time). */
  ask(requests: InputRequestMap): Promise<InputResponseMap>;
}

export type TaskWork = (run: TaskRun) => Promise<Record<string, unknown>>;

export interface TaskStoreOptions {
  /** Where the tasks are kept; this process's memory by default. The store closes it. */
  storage?: TaskStorage;
  /** How long a task stays readable after it was created, in ms. */
  ttlMs?: number;
  pollIntervalMs?: number;
  /** How often this process reads the storage for a cancel or answers given to its tasks on another instance; pollIntervalMs by default. */
  watchMs?: number;
  /** At most this many tasks are held; the oldest finished ones go first, and when none has finished, creation fails. */
  maxTasks?: number;
  /** At most this many of them started by one client; its own oldest finished one makes room, else creation fails. */
  maxTasksPerClient?: number;
  now?: () => number;
  newId?: () => string;
  /** Gets the detail of a storage failure a client was told of only by its id; the console by default. */
  onStorageFailure?: (id: string, error: Error) => void;
}

/** What a request-scoped server needs of the store to start a task on behalf of its client. */
export interface TaskStarter {
  start(work: TaskWork): Promise<Record<string, unknown>>;
}

export const DEFAULT_MAX_TASKS = 1000;
/** A tenth of the store: one client cannot hold the slots every other client needs. */
export const DEFAULT_MAX_TASKS_PER_CLIENT = 100;

/** A task whose work runs in this process. */
interface Running {
  abort: AbortController;
  /** Set while the work waits in `ask` for its answers. */
  waiting?: (answers: InputResponseMap) => void;
}

const logFailure = (id: string, error: Error) => console.error(`tasks: storage failure ${id}: ${error.message}`);

export class TaskStore {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  private readonly storage: TaskStorage;
  private readonly bounds: { maxTasks: number; maxTasksPerClient: number };
  private readonly watchMs: number;
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly report: (id: string, error: Error) => void;
  private readonly running = new Map<string, Running>();
  private watching: ReturnType<typeof setTimeout> | undefined;
  /** One look at the storage at a time: a look that read a task before it moved on must not act on it after. */
  private looking: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(options: TaskStoreOptions = {}) {
    this.storage = options.storage ?? memoryTaskStorage();
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.watchMs = options.watchMs ?? this.pollIntervalMs;
    this.bounds = { maxTasks: options.maxTasks ?? DEFAULT_MAX_TASKS, maxTasksPerClient: options.maxTasksPerClient ?? DEFAULT_MAX_TASKS_PER_CLIENT };
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? (() => crypto.randomUUID());
    this.report = options.onStorageFailure ?? logFailure;
  }

  /** True when the tasks live in this process only, so another instance behind the same URL cannot see them. */
  get inMemory(): boolean {
    return this.storage.inMemory === true;
  }

  /** Starts tasks on behalf of one client (its address; undefined where the platform gave none: then only the total binds). */
  startingFor(client: string | undefined): TaskStarter {
    return { start: (work) => this.start(work, client) };
  }

  /** Keeps the task before it returns (a tasks/get right after the CreateTaskResult must find it, on any instance), then starts the work. */
  async start(work: TaskWork, client?: string): Promise<Record<string, unknown>> {
    const at = this.now();
    const task: TaskRecord = { taskId: this.newId(), ...(client !== undefined ? { client } : {}), status: 'working', createdAt: at, lastUpdatedAt: at, ttlMs: this.ttlMs };
    await this.guard(() => this.storage.create(task, this.bounds));
    const running: Running = { abort: new AbortController() };
    this.running.set(task.taskId, running);
    const run: TaskRun = { signal: running.abort.signal, ask: (requests) => this.park(task.taskId, running, requests) };
    // Deferred so that the work never runs inside the request that created the task.
    queueMicrotask(() => {
      work(run).then(
        (result) => this.settle(task.taskId, { status: 'completed', result }),
        (error: unknown) => this.settle(task.taskId, { status: 'failed', error: asTaskError(error) }),
      );
    });
    this.watch();
    return { resultType: 'task', ...this.envelope(task) };
  }

  /** The DetailedTask, or undefined for an unknown (or expired) id. */
  async get(taskId: string): Promise<Record<string, unknown> | undefined> {
    const [task] = await this.guard(() => this.storage.get([taskId], this.now()));
    if (task === undefined) return undefined;
    return {
      ...this.envelope(task),
      ...(task.result !== undefined ? { result: task.result } : {}),
      ...(task.error !== undefined ? { error: task.error } : {}),
      ...(task.status === 'input_required' ? { inputRequests: unanswered(task) } : {}),
    };
  }

  /** Delivers answers; keys the task did not ask for are ignored. False for an unknown id. */
  async update(taskId: string, responses: InputResponseMap): Promise<boolean> {
    if ((await this.guard(() => this.storage.answer(taskId, responses, this.now()))) === 'unknown') return false;
    // When the work runs here, it goes on now rather than at the next look at the storage.
    await this.check();
    return true;
  }

  /** Cancels a running task; a finished one stays as it was (cancel is idempotent). False for an unknown id. */
  async cancel(taskId: string): Promise<boolean> {
    const now = this.now();
    const [task] = await this.guard(() => this.storage.get([taskId], now));
    if (task === undefined) return false;
    await this.guard(() => this.storage.transition(taskId, LIVE, { status: 'cancelled' }, now));
    await this.check();
    return true;
  }

  /** Resolves once the storage is reachable. */
  ready(): Promise<void> {
    return this.storage.ready();
  }

  /** Cancels every task whose work runs here (it ends with this process), then closes the storage. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.watching);
    const running = [...this.running];
    this.running.clear();
    for (const [taskId, { abort }] of running) {
      abort.abort(new Error('the task was cancelled: the server is closing'));
      await this.storage.transition(taskId, LIVE, { status: 'cancelled' }, this.now()).catch(() => {});
    }
    await this.storage.close();
  }

  private envelope(task: TaskRecord): Record<string, unknown> {
    return {
      taskId: task.taskId,
      status: task.status,
      createdAt: new Date(task.createdAt).toISOString(),
      lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
      ttlMs: task.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
  }

  private async park(taskId: string, running: Running, requests: InputRequestMap): Promise<InputResponseMap> {
    const parked = await this.guard(() => this.storage.transition(taskId, ['working'], { status: 'input_required', inputRequests: requests, inputResponses: {} }, this.now()));
    if (!parked) throw new Error('the task has already finished');
    return new Promise((resolve) => {
      running.waiting = resolve;
    });
  }

  /** The first end wins: work that ends after a cancel does not overwrite it. */
  private async settle(taskId: string, outcome: TaskState): Promise<void> {
    if (!this.running.delete(taskId)) return;
    await this.guard(() => this.storage.transition(taskId, LIVE, outcome, this.now())).catch(() => {});
  }

  /**
   * Reads the tasks whose work runs here: one cancelled (on any instance) or gone past its ttl stops its work; one whose
   * every question has an answer (given on any instance) goes on with them.
   */
  private check(): Promise<void> {
    const look = this.looking.then(() => this.look());
    this.looking = look.catch(() => {});
    return look;
  }

  private async look(): Promise<void> {
    if (this.running.size === 0) return;
    const ids = [...this.running.keys()];
    const found = new Map((await this.guard(() => this.storage.get(ids, this.now()))).map((task) => [task.taskId, task]));
    for (const id of ids) {
      const running = this.running.get(id);
      if (running === undefined) continue;
      const task = found.get(id);
      if (task === undefined || TERMINAL.has(task.status)) {
        this.running.delete(id);
        running.abort.abort(new Error(task === undefined ? 'the task expired' : 'the task was cancelled'));
        continue;
      }
      const resume = running.waiting;
      if (task.status !== 'input_required' || resume === undefined || Object.keys(unanswered(task)).length > 0) continue;
      // Whoever moves it back to working first hands the answers over: a second look finds it working already.
      if (await this.guard(() => this.storage.transition(id, ['input_required'], { status: 'working' }, this.now()))) {
        running.waiting = undefined;
        resume(task.inputResponses ?? {});
      }
    }
  }

  /** Looks at the storage every watchMs while work runs here: answers and cancels given on another instance arrive no other way. */
  private watch(): void {
    if (this.watching !== undefined || this.closed || this.running.size === 0) return;
    this.watching = setTimeout(() => {
      this.watching = undefined;
      this.check()
        .catch(() => {})
        .finally(() => this.watch());
    }, this.watchMs);
    // A server that listens keeps the process alive; the watch alone should not.
    (this.watching as { unref?: () => void }).unref?.();
  }

  /** A storage failure is the operator's to read; the client is told only that the storage is unavailable, with an id. */
  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof TaskStoreFullError) throw error;
      const id = crypto.randomUUID().slice(0, 8);
      this.report(id, error instanceof Error ? error : new Error(String(error)));
      throw new TaskStorageUnavailableError(id);
    }
  }
}

function asTaskError(error: unknown): TaskError {
  if (error instanceof TaskProtocolError) return { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) };
  return { code: -32603, message: error instanceof Error ? error.message : String(error) };
}
