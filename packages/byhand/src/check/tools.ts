// Which tools check may call, and the first call of each. Safe by default: only tools annotated readOnlyHint: true,
// plus those named with --call (its JSON arguments, else canned ones) or every tool with --all-tools. A modern server
// is called on the raw wire with every capability declared, so a tool that asks for input is found for the
// capability and MRTR checks; a legacy one through byhand's client, with the canned host answering. The report names
// every tool called, and which of them may have changed something.

import { TASKS_EXTENSION, type JsonObject, type Tool } from '@byhand/client';
import { argumentsFor } from './canned.js';
import { add, argumentsOf, labelOf, sendRaw, type CheckContext, type InputTarget } from './context.js';
import { errorText } from './lists.js';
import { didYouMean } from '../shared/did-you-mean.js';
import { UsageError } from '../shared/usage-error.js';
import { isObject } from './raw.js';
import { gotText, targetRequest } from './request.js';
import { checkResult } from './schemas.js';

export interface ToolChoice {
  /** --call TOOL[=JSON]: the tool and, when given, its arguments. */
  calls: Map<string, JsonObject | undefined>;
  allTools: boolean;
}

export function chooseTools(ctx: CheckContext, choice: ToolChoice): void {
  for (const name of choice.calls.keys()) {
    const names = ctx.tools.map((t) => t.name);
    if (!names.includes(name)) throw new UsageError(`--call ${name}: the server lists no such tool${didYouMean(name, names)} (byhand list SERVER tools)`);
  }
  const skipped: string[] = [];
  for (const tool of ctx.tools) {
    const asked = choice.calls.get(tool.name);
    if (choice.allTools || choice.calls.has(tool.name) || tool.annotations?.readOnlyHint === true) {
      ctx.callable.push({ tool, args: asked ?? argumentsFor(tool.inputSchema, ctx.canned.now), yours: asked !== undefined });
    } else skipped.push(tool.name);
  }
  if (skipped.length > 0) {
    add(ctx, { area: 'mrtr', id: 'tools.not-called', status: 'skip', title: `not called (not readOnlyHint): ${skipped.join(', ')}`, why: 'calling a tool may change something; add --call TOOL[=JSON] or --all-tools to include it' });
  }
}

/** Resources read and prompts got at most, on a server with many: reading is safe, but not free. */
const MAX_READS = 10;

/**
 * Calls each callable tool once, and (modern era) reads the resources and gets the prompts: reading is safe. A complete
 * tool result is checked against its schema; whatever answers input_required is kept for the MRTR checks.
 */
export async function firstCalls(ctx: CheckContext): Promise<void> {
  for (const { tool, args, yours } of ctx.callable) {
    if (ctx.serves.modern) await firstRawCall(ctx, { method: 'tools/call', name: tool.name, params: { name: tool.name, arguments: args }, tool, yours });
    else await firstClientCall(ctx, tool, args, yours);
  }
  if (!ctx.serves.modern) return;
  for (const resource of ctx.resources.slice(0, MAX_READS)) await firstRawCall(ctx, { method: 'resources/read', name: resource.uri, params: { uri: resource.uri } });
  for (const prompt of ctx.prompts.slice(0, MAX_READS)) {
    const args = Object.fromEntries((prompt.arguments ?? []).filter((a) => a.required).map((a) => [a.name, 'byhand check']));
    await firstRawCall(ctx, { method: 'prompts/get', name: prompt.name, params: { name: prompt.name, arguments: args } });
  }
}

async function firstRawCall(ctx: CheckContext, target: InputTarget): Promise<void> {
  if (target.tool) ctx.called.add(target.name);
  const { message, headers } = targetRequest(target);
  const reply = await sendRaw(ctx, `${target.method} ${target.name}`, message, headers);
  const result = reply.message?.result;
  if (result === undefined && target.tool && needsTasks(reply.message?.error?.data)) {
    // A tool that runs only as a task (the tasks extension): byhand's client declares it and follows the task.
    await firstClientCall(ctx, target.tool, target.params.arguments as JsonObject, target.yours === true);
    return;
  }
  if (result === undefined) {
    const yours = target.yours === true;
    add(ctx, { area: 'mrtr', id: `${target.method}:${target.name}`, status: yours ? 'warn' : 'skip', title: `${labelOf(target)} refused ${argumentsOf(target)}`, sent: `${target.method} ${target.name} ${JSON.stringify(target.params).slice(0, 120)}`, got: gotText(reply), why: 'what it answers could not be checked', fix: target.tool ? `give ${yours ? 'other ' : ''}arguments with --call ${target.name}=JSON` : 'nothing, if the refusal is right' });
    return;
  }
  if (result.resultType === 'input_required') {
    ctx.asking.push({ target, first: result });
    return;
  }
  if (target.tool) checkResult(ctx, target.tool, result, target.yours === true);
}

/** A -32021 that names the tasks extension among the capabilities it requires. */
function needsTasks(data: unknown): boolean {
  const required = isObject(data) ? data.requiredCapabilities : undefined;
  return isObject(required) && isObject(required.extensions) && TASKS_EXTENSION in required.extensions;
}

async function firstClientCall(ctx: CheckContext, tool: Tool, args: JsonObject, yours: boolean): Promise<void> {
  const started = performance.now();
  ctx.called.add(tool.name);
  try {
    const result = await ctx.client.callTool(tool.name, args);
    ctx.timings.push({ what: `tools/call ${tool.name}`, ms: Math.round(performance.now() - started) });
    checkResult(ctx, tool, result, yours);
  } catch (error) {
    add(ctx, { area: 'mrtr', id: `tools.call:${tool.name}`, status: yours ? 'warn' : 'skip', title: `${tool.name} failed with ${argumentsOf({ yours })}`, sent: `tools/call ${tool.name}`, got: errorText(error), why: 'its result could not be checked', fix: `give ${yours ? 'other ' : ''}arguments with --call ${tool.name}=JSON` });
  }
}

/** The tools called, and what may have changed: every tool that is not read-only, with whose arguments. */
export function reportCalled(ctx: CheckContext): void {
  if (ctx.called.size === 0) return;
  const groups = new Map<string, string[]>();
  for (const name of ctx.called) {
    const entry = ctx.callable.find((c) => c.tool.name === name);
    const group = entry?.tool.annotations?.readOnlyHint === true ? `read-only${entry.yours ? ', with your arguments' : ''}` : `not read-only, with ${entry?.yours === true ? 'your' : 'canned'} arguments`;
    groups.set(group, [...(groups.get(group) ?? []), name]);
  }
  const parts = [...groups].map(([group, names]) => `${names.join(', ')} (${group}${group.startsWith('not') ? `: ${names.length === 1 ? 'it' : 'they'} may have changed something` : ''})`);
  add(ctx, { area: 'mrtr', id: 'tools.called', status: 'pass', title: `called ${ctx.called.size} tool(s): ${parts.join('; ')}` });
}

/** --call values: TOOL or TOOL=JSON (an object). */
export function parseCalls(words: string[]): Map<string, JsonObject | undefined> {
  const calls = new Map<string, JsonObject | undefined>();
  for (const word of words) {
    const at = word.indexOf('=');
    if (at < 0) {
      calls.set(word, undefined);
      continue;
    }
    let args: unknown;
    try {
      args = JSON.parse(word.slice(at + 1));
    } catch {
      args = undefined;
    }
    if (!isObject(args)) throw new UsageError(`--call ${word.slice(0, at)}: the arguments must be a JSON object, such as --call ${word.slice(0, at)}='{"q": "x"}'`);
    calls.set(word.slice(0, at), args);
  }
  return calls;
}
