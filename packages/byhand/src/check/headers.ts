// Headers (modern era, HTTP): the headers that repeat the body must agree with it, and a server must refuse a request
// whose headers disagree (-32020 HeaderMismatch), or anything routing on the headers can be told one thing while
// the server does another. Each check changes one header of a request byhand's client would send.

import { headerParams, paramHeaders } from '@byhand/client';
import { add, sendRaw, type CheckContext } from './context.js';
import { NO_SUCH_TOOL } from './lists.js';
import { gotText, modernRequest, toolCall } from './request.js';

const FIX = 'leave the SDK\'s header validation on (createMcpHandler does it); a hand-written server compares MCP-Protocol-Version, Mcp-Method, Mcp-Name and every Mcp-Param-* with the body and answers -32020 on any difference';
const WHY = 'gateways and load balancers route on these headers without reading the body; a server that does not hold them to the body can be made to run one thing while everything in front of it saw another';

export async function checkHeaders(ctx: CheckContext): Promise<void> {
  const reason = ctx.client.transportKind === 'stdio' ? 'stdio has no HTTP headers' : !ctx.serves.modern ? 'the server does not serve the modern era, which defines them' : undefined;
  if (reason !== undefined) {
    add(ctx, { area: 'headers', id: 'headers', status: 'skip', title: 'header checks skipped', why: reason });
    return;
  }
  await mismatch(ctx, 'headers.mcp-method', 'a mismatched Mcp-Method', modernRequest('tools/list'), { 'mcp-method': 'prompts/list' }, 'tools/list with Mcp-Method: prompts/list');
  const call = modernRequest('tools/call', { name: NO_SUCH_TOOL, arguments: {} });
  delete call.headers['mcp-name'];
  // The tool does not exist, so a server that skips the header check answers "unknown tool": the request was dispatched.
  await mismatch(ctx, 'headers.mcp-name', 'a tools/call without Mcp-Name', call, {}, `tools/call ${NO_SUCH_TOOL} with no Mcp-Name header`, [-32602]);
  await mismatch(ctx, 'headers.protocol-version', 'an MCP-Protocol-Version that disagrees with the envelope', modernRequest('tools/list'), { 'mcp-protocol-version': '2025-11-25' }, 'tools/list, envelope 2026-07-28, MCP-Protocol-Version: 2025-11-25');
  await paramChecks(ctx);
}

/** `dispatched`: error codes that show the request went past the header check to its handler. */
async function mismatch(ctx: CheckContext, id: string, what: string, request: ReturnType<typeof modernRequest>, change: Record<string, string>, sent: string, dispatched: number[] = []): Promise<void> {
  const reply = await sendRaw(ctx, id, request.message, { ...request.headers, ...change });
  const code = reply.message?.error?.code;
  add(ctx, code === -32020
    ? { area: 'headers', id, status: 'pass', title: `${what} gets -32020`, sent, got: gotText(reply) }
    : reply.message?.error && !dispatched.includes(code!)
      ? { area: 'headers', id, status: 'warn', title: `${what} is refused, but not with -32020`, sent, got: gotText(reply), why: 'the spec names -32020 (HeaderMismatch) so a client can tell a header bug from any other', fix: 'answer -32020 when the headers and the body disagree' }
      : { area: 'headers', id, status: 'error', title: `${what} is accepted (the header check is off)`, sent, got: gotText(reply), why: WHY, fix: FIX });
}

/** Mcp-Param-* for the x-mcp-header parameters of the tools check may call: a wrong value must be refused. */
async function paramChecks(ctx: CheckContext): Promise<void> {
  const invalid: string[] = [];
  let checked = 0;
  for (const tool of ctx.tools) {
    const params = headerParams(tool);
    if ('invalid' in params) {
      invalid.push(`${tool.name}: ${params.invalid}`);
      continue;
    }
    if (params.params.length === 0) continue;
    const callable = ctx.callable.find((c) => c.tool.name === tool.name);
    if (callable === undefined) {
      add(ctx, { area: 'headers', id: `headers.mcp-param:${tool.name}`, status: 'skip', title: `Mcp-Param-* of ${tool.name} not checked`, why: 'the tool is not called (not readOnlyHint); --call it to check' });
      continue;
    }
    checked++;
    const request = toolCall(tool, callable.args);
    const right = paramHeaders(params.params, callable.args);
    const wrong = Object.fromEntries(params.params.map((p) => [`Mcp-Param-${p.header}`, `${right[`Mcp-Param-${p.header}`] ?? ''}-byhand-check`]));
    await mismatch(ctx, `headers.mcp-param:${tool.name}`, `a wrong Mcp-Param-* on ${tool.name}`, request, wrong, `tools/call ${tool.name} with ${Object.keys(wrong).join(', ')} not matching the arguments`);
  }
  if (invalid.length > 0) add(ctx, { area: 'headers', id: 'headers.x-mcp-header', status: 'error', title: 'tools with an invalid x-mcp-header annotation', got: invalid.join('; '), why: 'a client must not call a tool whose x-mcp-header annotations are invalid, so these tools are unusable', fix: 'put x-mcp-header only on string, integer or boolean properties reached through properties, with unique header-token names' });
  else if (checked === 0 && !ctx.findings.some((f) => f.id.startsWith('headers.mcp-param'))) add(ctx, { area: 'headers', id: 'headers.mcp-param', status: 'skip', title: 'no tool mirrors a parameter into a header (x-mcp-header)', why: 'nothing to check' });
}
