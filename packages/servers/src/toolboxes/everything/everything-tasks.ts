// The Everything toolbox's tasks-extension fixtures, named and shaped as the conformance suite's tasks-* scenarios
// require (conformance-2026 dist/index.js, each scenario's "Required server fixtures"): greet (sync only),
// slow_compute (optional task), failing_job and protocol_error_job (required task), confirm_delete and multi_input
// (tasks that park for input), test_tool_with_task (MRTR rounds, then a task). On a 2025 session, which has no
// extension to declare, each lists its task support in the 2025 form (`execution.taskSupport`), and a task-only tool
// runs in the call and asks over the session (task-methods.ts).

import { acceptedContent, inputRequired, type InputRequest, type McpServer, type RegisteredTool, type ServerContext } from '@modelcontextprotocol/server';
import { clientAddressOf } from '../../edge/client-address.js';
import { z } from 'zod';
import { elicitOutcome, text } from '../../edge/mrtr.js';
import { sharedSchema } from '../../edge/schemas.js';
import { answerProtocolErrors, gateTaskOnlyTools, registerTaskMethods, runAsTask } from '../../edge/task-methods.js';
import { TaskProtocolError, type TaskStore } from '../../edge/tasks.js';
import type { BuildContext } from '../../edge/toolbox.js';

/** Longest slow_compute sleep, so no caller can hold a task (or a request) for long. */
const MAX_SECONDS = 300;

// Made on first use, once per process (schemas.ts says why).
let schemas: ReturnType<typeof makeSchemas> | undefined;
function makeSchemas() {
  return {
    greet: sharedSchema(z.object({ name: z.string() })),
    slowCompute: sharedSchema(z.object({ seconds: z.number().min(0).max(MAX_SECONDS), label: z.string().optional() })),
    confirmDelete: sharedSchema(z.object({ filename: z.string() })),
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

const ask = (message: string, properties: Record<string, unknown>): InputRequest =>
  inputRequired.elicit({ message, requestedSchema: { type: 'object', properties: properties as never } });

function accepted(answer: unknown): Record<string, unknown> | undefined {
  return acceptedContent({ answer }, 'answer');
}

/**
 * On a 2025 session a tool that may run as a task says so in its listing: `optional` rather than `required`, since a
 * server that offers no 2025 tasks can require none (2025-11-25 tasks.mdx, Tool-Level Negotiation). registerTool takes
 * no `execution` in 2.4.0 (mcp-oHn3ureC.mjs:1994); the registered tool keeps it for tools/list. The 2026 era has no
 * such field (the SDK would leave it out), and a server narrowed to one tool (narrow.ts) shares one stand-in for the
 * others, so it is set on the 2025 era only.
 */
function listedAsTask(era: BuildContext['era']): (tool: RegisteredTool) => void {
  return era === 'legacy' ? (tool) => void (tool.execution = { taskSupport: 'optional' }) : () => undefined;
}

/** The tools that run only as tasks: a request that does not declare the extension gets -32021. */
const TASK_ONLY = new Set(['failing_job', 'protocol_error_job', 'confirm_delete', 'multi_input', 'test_tool_with_task']);

export function registerTaskFixtures(server: McpServer, ctx: BuildContext, store: TaskStore): void {
  const schema = (schemas ??= makeSchemas());
  // Tasks count against the quota of the client the call came from, read from its request: the registration serves
  // every call of its tool (narrow.ts), whoever makes it.
  const tasksOf = (call: ServerContext) => store.startingFor(clientAddressOf(call.http?.req));
  const mayRunAsTask = listedAsTask(ctx.era);

  server.registerTool('greet', { description: 'Sync only: says hello', inputSchema: schema.greet }, async ({ name }) =>
    text(`Hello, ${name}!`),
  );

  mayRunAsTask(server.registerTool(
    'slow_compute',
    {
      description: 'Sleeps `seconds` then answers; a task when the client declares the tasks extension',
      inputSchema: schema.slowCompute,
    },
    async ({ seconds, label }, call) => {
      const answer = () => text(`Computed ${label ?? 'result'} after ${seconds}s`);
      return runAsTask(
        call,
        tasksOf(call),
        async (run) => {
          await sleep(seconds * 1000, run.signal);
          return answer();
        },
        async () => {
          await sleep(seconds * 1000, call.mcpReq.signal);
          return answer();
        },
      ) as never;
    },
  ));

  mayRunAsTask(server.registerTool('failing_job', { description: 'Task only: reports a tool error after a moment' }, async (call) =>
    runAsTask(call, tasksOf(call), async (run) => {
      await sleep(300, run.signal);
      return text('The job failed, as it always does', true);
    }) as never,
  ));

  mayRunAsTask(server.registerTool('protocol_error_job', { description: 'Task only: fails with a protocol error' }, async (call) =>
    runAsTask(call, tasksOf(call), async (run) => {
      await sleep(100, run.signal);
      throw new TaskProtocolError(-32603, 'protocol_error_job fails on purpose');
    }) as never,
  ));

  mayRunAsTask(server.registerTool(
    'confirm_delete',
    { description: 'Task only: asks for confirmation, then "deletes" the file', inputSchema: schema.confirmDelete },
    async ({ filename }, call) =>
      runAsTask(call, tasksOf(call), async (run) => {
        const answers = await run.ask({ confirm: ask(`Delete ${filename}?`, { confirm: { type: 'boolean' } }) });
        return text(accepted(answers.confirm)?.confirm === true ? `Deleted ${filename}` : `Kept ${filename}`);
      }) as never,
  ));

  mayRunAsTask(server.registerTool('multi_input', { description: 'Task only: asks two questions at once' }, async (call) =>
    runAsTask(call, tasksOf(call), async (run) => {
      const answers = await run.ask({
        name: ask('Your name?', { name: { type: 'string' } }),
        confirm: ask('Go ahead?', { confirm: { type: 'boolean' } }),
      });
      return text(`Thanks, ${((name: unknown) => (typeof name === 'string' ? name : 'stranger'))(accepted(answers.name)?.name)}`);
    }) as never,
  ));

  mayRunAsTask(server.registerTool('test_tool_with_task', { description: 'MRTR for the name, then a task that greets' }, async (call) => {
    const answer = elicitOutcome(call, 'user_name');
    if (answer.kind === 'missing') {
      return inputRequired({ inputRequests: { user_name: ask('What is your name?', { name: { type: 'string' } }) } });
    }
    const name = answer.kind === 'accept' && typeof answer.content.name === 'string' ? answer.content.name : 'stranger';
    return runAsTask(call, tasksOf(call), async () => text(`Hello, ${name}!`)) as never;
  }));

  if (ctx.era === 'modern') {
    registerTaskMethods(server, store);
    gateTaskOnlyTools(server, TASK_ONLY);
  } else answerProtocolErrors(server);
}

/** A modern server narrowed to `tool` (narrow.ts): the gate, when the tool runs only as a task. */
export function narrowedTaskFixture(server: McpServer, tool: string): void {
  if (TASK_ONLY.has(tool)) gateTaskOnlyTools(server, TASK_ONLY);
}
