// Lists and errors, through byhand's client in whichever era it reached: every list's pages end (a cursor never
// comes back), what each list offers, and an unknown tool and an unknown method answered with the spec's errors.

import { McpError, RpcError, type Prompt, type Resource, type ResourceTemplate, type Tool } from '@byhand/client';
import { add, sendRaw, type CheckContext } from './context.js';
import { modernRequest } from './request.js';

const MAX_PAGES = 100;
export const NO_SUCH_TOOL = 'byhand-check-no-such-tool';

const LISTS = [
  { method: 'tools/list', key: 'tools', capability: 'tools' },
  { method: 'resources/list', key: 'resources', capability: 'resources' },
  { method: 'resources/templates/list', key: 'resourceTemplates', capability: 'resources' },
  { method: 'prompts/list', key: 'prompts', capability: 'prompts' },
] as const;

async function timed<T>(ctx: CheckContext, what: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    ctx.timings.push({ what, ms: Math.round(performance.now() - started) });
  }
}

export async function checkLists(ctx: CheckContext): Promise<void> {
  const client = ctx.client;
  const capabilities = client.serverCapabilities;
  for (const { method, key, capability } of LISTS) {
    if (!(capability in capabilities)) {
      add(ctx, { area: 'lists', id: `lists.${key}`, status: 'skip', title: `${method}: the server does not declare ${capability}`, why: `no "${capability}" capability` });
      continue;
    }
    const seen = new Set<string>();
    const items: unknown[] = [];
    let cursor: string | undefined;
    let problem: { got: string; why: string; fix: string } | undefined;
    try {
      for (let page = 1; ; page++) {
        const result = await timed(ctx, method, () => client.request(method, cursor !== undefined ? { cursor } : {}));
        const list = result[key];
        if (!Array.isArray(list)) {
          problem = { got: `a result without a ${key} array`, why: 'a client cannot read what the server offers', fix: `answer {${key}: [...]}` };
          break;
        }
        items.push(...(list as unknown[]));
        const next = result.nextCursor;
        if (next === undefined || next === null) break;
        if (typeof next !== 'string' || seen.has(next) || page >= MAX_PAGES) {
          problem = {
            got: typeof next !== 'string' ? `nextCursor ${JSON.stringify(next)}` : seen.has(next) ? `the cursor ${JSON.stringify(next)} came back on page ${page}` : `still a nextCursor after ${MAX_PAGES} pages`,
            why: 'pagination that never ends makes every client loop until it gives up',
            fix: 'omit nextCursor on the last page, and never hand out a cursor twice',
          };
          break;
        }
        seen.add(next);
        cursor = next;
      }
    } catch (error) {
      problem = { got: errorText(error), why: `a client cannot list the server's ${key}`, fix: `answer ${method} with a result` };
    }
    add(ctx, problem
      ? { area: 'lists', id: `lists.${key}`, status: 'error', title: `${method} is broken`, sent: method, ...problem }
      : { area: 'lists', id: `lists.${key}`, status: 'pass', title: `${method}: ${items.length} ${key}${seen.size > 0 ? ` in ${seen.size + 1} pages, the cursors end` : ''}` });
    if (problem) continue;
    if (key === 'tools') ctx.tools = items as Tool[];
    if (key === 'resources') ctx.resources = items as Resource[];
    if (key === 'prompts') ctx.prompts = items as Prompt[];
    if (key === 'resourceTemplates') ctx.templates = items as ResourceTemplate[];
  }
  if ('tools' in capabilities) {
    await offered(ctx);
    await unknownTool(ctx);
  }
  await unknownMethod(ctx);
}

/** What the tool list offers in each era, and to a modern client that declares no capabilities. */
async function offered(ctx: CheckContext): Promise<void> {
  const all = ctx.tools.map((t) => t.name);
  const parts: string[] = [];
  if (ctx.legacyTools !== undefined) {
    const onlyModern = all.filter((name) => !ctx.legacyTools!.includes(name));
    const onlyLegacy = ctx.legacyTools.filter((name) => !all.includes(name));
    parts.push(onlyModern.length + onlyLegacy.length === 0 ? 'the same tools in both eras' : `2025 clients see ${ctx.legacyTools.length}${onlyModern.length > 0 ? `, without ${onlyModern.join(', ')}` : ''}${onlyLegacy.length > 0 ? `, with ${onlyLegacy.join(', ')} besides` : ''}`);
  }
  if (ctx.serves.modern) {
    const bare: string[] = [];
    let cursor: string | undefined;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { message, headers } = modernRequest('tools/list', cursor !== undefined ? { cursor } : {}, { capabilities: {} });
      const reply = await sendRaw(ctx, 'tools/list (no capabilities)', message, headers);
      const result = reply.message?.result;
      if (!result || !Array.isArray(result.tools)) return;
      bare.push(...(result.tools as Tool[]).map((t) => t.name));
      if (typeof result.nextCursor !== 'string' || result.nextCursor === cursor) break;
      cursor = result.nextCursor;
    }
    const gated = all.filter((name) => !bare.includes(name));
    parts.push(gated.length === 0 ? 'every tool to any modern client' : `${gated.join(', ')} only to a client that declares sampling, elicitation or roots`);
  }
  if (parts.length > 0) add(ctx, { area: 'lists', id: 'lists.offered', status: 'pass', title: `offered: ${parts.join('; ')}` });
}

async function unknownTool(ctx: CheckContext): Promise<void> {
  const sent = `tools/call ${NO_SUCH_TOOL}`;
  try {
    const result = await timed(ctx, 'tools/call (unknown tool)', () => ctx.client.request('tools/call', { name: NO_SUCH_TOOL, arguments: {} }));
    add(ctx, result.isError === true
      ? { area: 'lists', id: 'lists.unknown-tool', status: 'warn', title: 'an unknown tool is answered as a tool error (isError), not -32602', sent, got: 'a result with isError: true', why: 'the spec answers an unknown tool with the protocol error -32602 (server/tools, "Error Handling"), so a client can tell "no such tool" from "the tool failed"; the SDK 1.x McpServer answers this way on its own (its tools/call handler turns every error into isError), so a server on it shows this until it moves to SDK 2.x', fix: 'on SDK 2.x (McpServer from @modelcontextprotocol/server) an unknown tool is -32602 already; on SDK 1.x, nothing short of moving to 2.x or a tools/call handler of your own; a hand-written server answers error -32602 for a tool name it does not have' }
      : { area: 'lists', id: 'lists.unknown-tool', status: 'error', title: 'an unknown tool is answered with a result', sent, got: JSON.stringify(result).slice(0, 160), why: 'a client believes a tool ran that does not exist', fix: 'answer error -32602 for a tool name you do not have' });
  } catch (error) {
    const code = error instanceof McpError ? error.code : undefined;
    add(ctx, code === -32602
      ? { area: 'lists', id: 'lists.unknown-tool', status: 'pass', title: 'an unknown tool gets -32602', sent, got: errorText(error) }
      : { area: 'lists', id: 'lists.unknown-tool', status: 'warn', title: 'an unknown tool gets an error other than -32602', sent, got: errorText(error), why: 'the spec names -32602 (Invalid params) for an unknown tool', fix: 'answer error -32602 for a tool name you do not have' });
  }
}

async function unknownMethod(ctx: CheckContext): Promise<void> {
  const sent = 'byhand-check/no-such-method';
  try {
    const result = await timed(ctx, 'unknown method', () => ctx.client.request(sent));
    add(ctx, { area: 'lists', id: 'lists.unknown-method', status: 'error', title: 'an unknown method is answered with a result', sent, got: JSON.stringify(result).slice(0, 160), why: 'a client cannot tell a method the server lacks from one that worked', fix: 'answer error -32601 (Method not found) for a method you do not have' });
  } catch (error) {
    const code = error instanceof McpError ? error.code : undefined;
    const status = error instanceof RpcError ? error.status : undefined;
    add(ctx, code === -32601 && status !== undefined && status !== 404 && ctx.client.era === 'modern'
      ? { area: 'lists', id: 'lists.unknown-method', status: 'warn', title: `an unknown method gets -32601, but with HTTP ${status}, not 404`, sent, got: errorText(error), why: 'on HTTP the spec answers an unknown method with 404 and -32601 (basic/transports/streamable-http.mdx), which a client and anything in between read as "not here"', fix: 'answer HTTP 404 with error -32601 for a method you do not have' }
      : code === -32601
      ? { area: 'lists', id: 'lists.unknown-method', status: 'pass', title: 'an unknown method gets -32601', sent, got: errorText(error) }
      : { area: 'lists', id: 'lists.unknown-method', status: 'warn', title: 'an unknown method gets an error other than -32601', sent, got: errorText(error), why: 'JSON-RPC names -32601 (Method not found), which a client reads as "this server lacks the feature"', fix: 'answer error -32601 for a method you do not have' });
  }
}

export function errorText(error: unknown): string {
  if (error instanceof McpError) return `${typeof error.code === 'number' ? `error ${error.code} ` : `${error.code}: `}${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
