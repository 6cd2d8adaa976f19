// tasks/get, tasks/update and tasks/cancel on a modern-era server, and the tools/call side of the tasks extension
// (SEP-2663): whether this request may get a CreateTaskResult, and the -32021 answer when a tool needs one and the
// client did not declare the extension. tasks/result and tasks/list are gone in SEP-2663; the SDK already answers
// them -32601 on the 2026-07-28 era (node_modules/@modelcontextprotocol/server/dist/src-DdvbAHrR.mjs, `_onrequest`).
// On a 2025 session there is no extension to declare and no task to make: a task's work runs in the call, as a 2025
// server that runs no tasks runs every tool.

import { ProtocolError, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TASKS_EXTENSION, TaskProtocolError, TaskStorageUnavailableError, TaskStoreFullError, type InputRequestMap, type InputResponseMap, type TaskStarter, type TaskStore, type TaskWork } from './tasks.js';

const MISSING_CAPABILITY = -32021;
const INVALID_PARAMS = -32602;

const requiredCapabilities = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };

/** True when this request's envelope declares the tasks extension (SEP-2575: capabilities travel with each request). */
export function declaresTasks(ctx: ServerContext): boolean {
  // RequestMetaEnvelope is typed `{}` in 2.4.0 (dist/mcp-BCJHyo7l.d.mts:378), hence the cast.
  const envelope = ctx.mcpReq.envelope as Record<string, { extensions?: Record<string, unknown> } | undefined> | undefined;
  const extensions = envelope?.['io.modelcontextprotocol/clientCapabilities']?.extensions;
  return extensions !== undefined && extensions !== null && typeof extensions === 'object' && Object.hasOwn(extensions, TASKS_EXTENSION);
}

function missingExtension(what: string): ProtocolError {
  return new ProtocolError(MISSING_CAPABILITY, `${what} needs the ${TASKS_EXTENSION} extension, which this request's clientCapabilities do not declare`, requiredCapabilities);
}

export function assertTasksDeclared(ctx: ServerContext, what: string): void {
  if (!declaresTasks(ctx)) throw missingExtension(what);
}

/**
 * For a tool that runs as a task: a CreateTaskResult when the request declares the extension, otherwise the
 * synchronous answer, or for a task-only tool (no `sync`) its work run in the call. On the modern era
 * gateTaskOnlyTools has already answered -32021 before such a request gets here, so that is a 2025 session's call.
 */
export async function runAsTask(ctx: ServerContext, store: TaskStarter, work: TaskWork, sync?: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
  if (!declaresTasks(ctx)) return sync !== undefined ? sync() : inTheCall(ctx, work);
  try {
    return await store.start(work);
  } catch (error) {
    if (error instanceof TaskStoreFullError || error instanceof TaskStorageUnavailableError) throw new ProtocolError(-32603, error.message);
    throw error;
  }
}

/** Where a protocol error of work run in the call waits in the tool's result, for answerProtocolErrors to throw. */
const PROTOCOL_ERROR = 'byhand/taskProtocolError';

/**
 * A task's work in a 2025 session's call: what it asks goes over the session as pushed requests, all at once, and a
 * protocol error it reports is carried out of the tool in its result, since McpServer makes an isError result of
 * whatever a tool throws (mcp-oHn3ureC.mjs:1615).
 */
async function inTheCall(ctx: ServerContext, work: TaskWork): Promise<Record<string, unknown>> {
  const ask = async (requests: InputRequestMap): Promise<InputResponseMap> =>
    Object.fromEntries(await Promise.all(Object.entries(requests).map(async ([key, request]) => [key, await pushed(ctx, request)] as const)));
  try {
    return await work({ signal: ctx.mcpReq.signal, ask });
  } catch (error) {
    if (!(error instanceof TaskProtocolError)) throw error;
    const carried = { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) };
    return { content: [{ type: 'text', text: error.message }], isError: true, _meta: { [PROTOCOL_ERROR]: carried } };
  }
}

/** One question, on the call's own stream (its related request): a session's GET stream is for what belongs to no call. */
function pushed(ctx: ServerContext, request: InputRequestMap[string]): Promise<unknown> {
  const options = { relatedRequestId: ctx.mcpReq.id };
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- a 2025 session's own way to ask, which this is for
  if (request.method === 'elicitation/create') return ctx.mcpReq.elicitInput(request.params as Parameters<ServerContext['mcpReq']['elicitInput']>[0], options);
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the same, for sampling
  if (request.method === 'sampling/createMessage') return ctx.mcpReq.requestSampling(request.params as Parameters<ServerContext['mcpReq']['requestSampling']>[0], options);
  return Promise.reject(new Error(`a task's ${request.method} cannot be asked over a 2025 session`));
}

const taskParams = z.object({ taskId: z.string() });

type StoredHandler = (request: { params?: { name?: unknown } }, ctx: ServerContext) => Promise<unknown>;

/**
 * Makes tools/call answer -32021 for a task-only tool when the request does not declare the extension. A tool cannot
 * throw that itself: McpServer turns whatever a tool throws into an `isError` result
 * (node_modules/@modelcontextprotocol/server/dist/mcp-oHn3ureC.mjs:1615). Nor can the gate be registered with
 * setRequestHandler: that wraps it in the MRTR seam a second time, and the inner seam then rejects the already
 * verified requestState (mcp-oHn3ureC.mjs:1031). So the gate replaces the stored, already wrapped handler in the
 * SDK's handler map (dist/src-DdvbAHrR.mjs:6212), and says so loudly if that map ever changes shape.
 */
export function gateTaskOnlyTools(server: McpServer, names: ReadonlySet<string>): void {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  const inner = handlers instanceof Map ? (handlers.get('tools/call') as StoredHandler | undefined) : undefined;
  if (!(handlers instanceof Map) || inner === undefined) throw new Error('gateTaskOnlyTools: the SDK no longer keeps a tools/call handler where 2.4.0 did');
  handlers.set('tools/call', async (request: Parameters<StoredHandler>[0], ctx: ServerContext) => {
    const name = request.params?.name;
    if (typeof name === 'string' && names.has(name)) assertTasksDeclared(ctx, `The tool ${name}`);
    return inner(request, ctx);
  });
}

/**
 * On a 2025 session: a protocol error the work of a task-only tool reported in the call (inTheCall) is the call's
 * JSON-RPC error, as the task would have ended `failed`. The stored handler is replaced as gateTaskOnlyTools does.
 */
export function answerProtocolErrors(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  const inner = handlers instanceof Map ? (handlers.get('tools/call') as StoredHandler | undefined) : undefined;
  if (!(handlers instanceof Map) || inner === undefined) throw new Error('answerProtocolErrors: the SDK no longer keeps a tools/call handler where 2.4.0 did');
  handlers.set('tools/call', async (request: Parameters<StoredHandler>[0], ctx: ServerContext) => {
    const result = await inner(request, ctx);
    const carried = (result as { _meta?: Record<string, unknown> } | undefined)?._meta?.[PROTOCOL_ERROR] as { code: number; message: string; data?: unknown } | undefined;
    if (carried !== undefined) throw new ProtocolError(carried.code, carried.message, carried.data);
    return result;
  });
}

/** An id this server does not know: where the tasks are per instance, the likeliest reason is another instance. */
function unknownTask(taskId: string, store: TaskStore): ProtocolError {
  const elsewhere = store.inMemory ? ', or another instance of this server started it: this one keeps its tasks in its own memory (byhand serve --db shares them)' : '';
  return new ProtocolError(INVALID_PARAMS, `No task ${JSON.stringify(taskId)} here (it never existed, or its ttl ran out${elsewhere})`);
}

/** Storage failures are answered with their id only; the operator has the detail. */
async function stored<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof TaskStorageUnavailableError) throw new ProtocolError(-32603, error.message);
    throw error;
  }
}

/** Registers the three task methods on a server built for one modern-era request. */
export function registerTaskMethods(server: McpServer, store: TaskStore): void {
  server.server.setRequestHandler('tasks/get', { params: taskParams }, async ({ taskId }, ctx) => {
    assertTasksDeclared(ctx, 'tasks/get');
    const task = await stored(() => store.get(taskId));
    if (task === undefined) throw unknownTask(taskId, store);
    return { resultType: 'complete', ...task };
  });
  // The SDK lifts `inputResponses` out of params into ctx.mcpReq.inputResponses, as it does for every MRTR retry.
  server.server.setRequestHandler('tasks/update', { params: taskParams }, async ({ taskId }, ctx) => {
    assertTasksDeclared(ctx, 'tasks/update');
    const responses: unknown = ctx.mcpReq.inputResponses;
    if (responses === null || typeof responses !== 'object' || Array.isArray(responses)) {
      throw new ProtocolError(INVALID_PARAMS, 'tasks/update needs inputResponses, an object keyed by the ids tasks/get listed');
    }
    if (!(await stored(() => store.update(taskId, responses as Record<string, unknown>)))) throw unknownTask(taskId, store);
    return { resultType: 'complete' };
  });
  server.server.setRequestHandler('tasks/cancel', { params: taskParams }, async ({ taskId }, ctx) => {
    assertTasksDeclared(ctx, 'tasks/cancel');
    if (!(await stored(() => store.cancel(taskId)))) throw unknownTask(taskId, store);
    return { resultType: 'complete' };
  });
}
