// Headers (modern era, HTTP): MCP-Protocol-Version, Mcp-Method and Mcp-Name repeat the body, and a server must refuse
// a request whose headers disagree with it or leave one out (400, -32020 HeaderMismatch; spec
// basic/transports/streamable-http.mdx, "Server validation"), or anything routing on the headers can be told one
// thing while the server does another. Each header is sent wrong and then left out, on every kind of request it
// rules: a list, tools/call, resources/read and prompts/get (Mcp-Name on the last three only); and each Mcp-Param-*
// of the tools check calls, wrong and left out. Each request is one byhand's client would send, with one header
// changed.

import { headerParams, paramHeaders, type Tool } from '@byhand/client';
import { add, argumentsOf, isLoopback, sendRaw, type CheckContext, type InputTarget } from './context.js';
import { NO_SUCH_TOOL } from './lists.js';
import type { Finding } from './finding.js';
import type { RawReply } from './raw.js';
import { gotText, targetRequest, modernRequest, type BuiltRequest } from './request.js';

const FIX = 'leave the SDK\'s header validation on (createMcpHandler does it); a hand-written server compares MCP-Protocol-Version, Mcp-Method, Mcp-Name and every Mcp-Param-* with the body on every request, and answers 400 with -32020 when one differs or is missing';
const WHY = 'gateways and load balancers route on these headers without reading the body; a server that does not hold them to the body can be made to run one thing while everything in front of it saw another';

/** One request a header rules, and the error codes that show it went past the header check to its handler. */
interface Subject {
  method: string;
  build(): BuiltRequest;
  /** The request names something that does not exist: its handler's "not found" shows the header was let through. */
  dispatched: number[];
  /** The value Mcp-Name must carry, for the methods that have one. */
  name?: string;
}

type Outcome = { subject: Subject; reply: RawReply; verdict: 'refused' | 'other' | 'accepted' };

const NO_SUCH = { resource: 'byhand-check://no-such-resource', prompt: 'byhand-check-no-such-prompt' };

export async function checkHeaders(ctx: CheckContext): Promise<void> {
  const reason = ctx.client.transportKind === 'stdio' ? 'stdio has no HTTP headers' : !ctx.serves.modern ? 'the server does not serve the modern era, which defines them' : undefined;
  if (reason !== undefined) {
    add(ctx, { area: 'headers', id: 'headers', status: 'skip', title: 'header checks skipped', why: reason });
    return;
  }
  const subjects = subjectsOf(ctx);
  const named = subjects.filter((s) => s.name !== undefined);
  const otherMethod = (method: string) => (method === 'tools/list' ? 'prompts/list' : 'tools/list');
  await rule(ctx, 'headers.protocol-version.mismatch', 'an MCP-Protocol-Version that disagrees with the envelope', subjects, () => ({ 'mcp-protocol-version': '2025-11-25' }), 'MCP-Protocol-Version: 2025-11-25 (the envelope says 2026-07-28)');
  await rule(ctx, 'headers.protocol-version.missing', 'a missing MCP-Protocol-Version', subjects, () => ({ 'mcp-protocol-version': undefined }), 'no MCP-Protocol-Version header');
  await rule(ctx, 'headers.mcp-method.mismatch', 'a mismatched Mcp-Method', subjects, (s) => ({ 'mcp-method': otherMethod(s.method) }), 'Mcp-Method naming another method');
  await rule(ctx, 'headers.mcp-method.missing', 'a missing Mcp-Method', subjects, () => ({ 'mcp-method': undefined }), 'no Mcp-Method header');
  await rule(ctx, 'headers.mcp-name.mismatch', 'a mismatched Mcp-Name', named, (s) => ({ 'mcp-name': `${s.name}-byhand-check` }), 'Mcp-Name naming another tool, resource or prompt');
  await rule(ctx, 'headers.mcp-name.missing', 'a missing Mcp-Name', named, () => ({ 'mcp-name': undefined }), 'no Mcp-Name header');
  await paramChecks(ctx);
  await foreignOrigin(ctx, subjects[0]);
}

const FOREIGN_ORIGIN = 'http://rebinding.byhand-check.invalid';

/**
 * A server on a loopback address must refuse a request from a web page of another origin, or any site the user visits
 * can reach it by DNS rebinding (spec basic/transports/streamable-http.mdx, "Security Warning": validate Origin, 403 when
 * it is present and invalid). A remote server may leave that to what stands in front of it, so only a loopback URL is
 * judged.
 */
async function foreignOrigin(ctx: CheckContext, subject: Subject): Promise<void> {
  if (ctx.url === undefined || !isLoopback(ctx.url)) return;
  const request = subject.build();
  const reply = await sendRaw(ctx, `${subject.method} (a foreign Origin)`, request.message, { ...request.headers, origin: FOREIGN_ORIGIN });
  const sent = `${subject.method} with Origin: ${FOREIGN_ORIGIN}, to a server on a loopback address`;
  const refused = reply.status !== undefined && reply.status >= 400 && reply.status < 500 && reply.message?.result === undefined;
  add(ctx, refused
    ? { area: 'headers', id: 'headers.origin', status: 'pass', title: `a request from a foreign Origin is refused (HTTP ${reply.status})`, sent, got: gotText(reply) }
    : {
      area: 'headers', id: 'headers.origin', status: 'warn',
      title: 'a request from a foreign Origin is served: any web page the user opens can reach this local server (DNS rebinding)',
      sent, got: gotText(reply),
      why: 'the spec has a server validate the Origin header and answer 403 when it is present and not its own; a server on the user\'s machine that does not can be driven by any site through DNS rebinding',
      fix: 'answer 403 to an Origin that is not a loopback one (or yours): with the SDK 2.x, originValidationResponse(request, localhostAllowedOrigins) (and hostHeaderValidationResponse) before createMcpHandler\'s fetch; byhand serve does this',
    });
}

/**
 * A list, then tools/call, resources/read and prompts/get: on something check may call, read or get when there is
 * one, else on a name that does not exist (so a server without the check answers "not found", and nothing runs).
 */
function subjectsOf(ctx: CheckContext): Subject[] {
  const capabilities = ctx.client.serverCapabilities;
  const list = 'tools' in capabilities ? 'tools/list' : 'prompts' in capabilities ? 'prompts/list' : 'resources' in capabilities ? 'resources/list' : 'server/discover';
  const subjects: Subject[] = [{ method: list, build: () => modernRequest(list), dispatched: [] }];
  const target = (t: InputTarget, dispatched: number[]): Subject => ({ method: t.method, name: t.name, build: () => targetRequest(t), dispatched });
  if ('tools' in capabilities) {
    const callable = ctx.callable.find((c) => c.tool.annotations?.readOnlyHint === true) ?? ctx.callable[0];
    subjects.push(callable
      ? target({ method: 'tools/call', name: callable.tool.name, params: { name: callable.tool.name, arguments: callable.args }, tool: callable.tool }, [])
      : target({ method: 'tools/call', name: NO_SUCH_TOOL, params: { name: NO_SUCH_TOOL, arguments: {} } }, [-32602]));
  }
  if ('resources' in capabilities) {
    const uri = ctx.resources[0]?.uri;
    subjects.push(target({ method: 'resources/read', name: uri ?? NO_SUCH.resource, params: { uri: uri ?? NO_SUCH.resource } }, uri ? [] : [-32602, -32002]));
  }
  if ('prompts' in capabilities) {
    const prompt = ctx.prompts[0];
    const args = Object.fromEntries((prompt?.arguments ?? []).filter((a) => a.required).map((a) => [a.name, 'byhand check']));
    subjects.push(target({ method: 'prompts/get', name: prompt?.name ?? NO_SUCH.prompt, params: { name: prompt?.name ?? NO_SUCH.prompt, arguments: args } }, prompt ? [] : [-32602]));
  }
  return subjects;
}

/** `change` sets a header (or, with undefined, leaves it out) on each subject; one finding for the header and kind. */
async function rule(ctx: CheckContext, id: string, what: string, subjects: Subject[], change: (s: Subject) => Record<string, string | undefined>, how: string): Promise<void> {
  if (subjects.length === 0) return;
  const outcomes: Outcome[] = [];
  for (const subject of subjects) {
    const request = subject.build();
    const reply = await sendRaw(ctx, `${subject.method} (${what})`, request.message, changed(request.headers, change(subject)));
    outcomes.push({ subject, reply, verdict: verdictOf(reply, subject.dispatched) });
  }
  add(ctx, findingOf(id, what, how, outcomes));
}

function changed(headers: Record<string, string>, change: Record<string, string | undefined>): Record<string, string> {
  const out = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  for (const [name, value] of Object.entries(change)) {
    if (value === undefined) delete out[name.toLowerCase()];
    else out[name.toLowerCase()] = value;
  }
  return out;
}

function verdictOf(reply: RawReply, dispatched: number[]): Outcome['verdict'] {
  const code = reply.message?.error?.code;
  if (code === -32020 && (reply.status === undefined || reply.status === 400)) return 'refused';
  if (reply.message?.result !== undefined || (code !== undefined && dispatched.includes(code))) return 'accepted';
  return 'other';
}

function findingOf(id: string, what: string, how: string, outcomes: Outcome[]): Finding {
  const methods = (verdict: Outcome['verdict']) => outcomes.filter((o) => o.verdict === verdict).map((o) => o.subject.method);
  const first = (verdict: Outcome['verdict']) => outcomes.find((o) => o.verdict === verdict)!;
  const sentOf = (o: Outcome) => `${o.subject.method}${o.subject.name ? ` ${o.subject.name}` : ''} with ${how}`;
  const accepted = methods('accepted');
  if (accepted.length > 0) {
    const o = first('accepted');
    const refused = methods('refused');
    return {
      area: 'headers', id, status: 'error',
      title: `${what} is accepted on ${accepted.join(', ')}${refused.length > 0 ? ` (refused on ${refused.join(', ')})` : ' (the header check is off)'}`,
      sent: sentOf(o), got: gotText(o.reply), why: WHY, fix: FIX,
    };
  }
  const other = methods('other');
  if (other.length > 0) {
    const o = first('other');
    const wrongStatus = o.reply.message?.error?.code === -32020;
    return {
      area: 'headers', id, status: 'warn',
      title: wrongStatus ? `${what} gets -32020, but not with HTTP 400, on ${other.join(', ')}` : `${what} is refused, but not with -32020, on ${other.join(', ')}`,
      sent: sentOf(o), got: gotText(o.reply),
      why: 'the spec answers a header that disagrees with the body, or is missing, with HTTP 400 and -32020 (HeaderMismatch), so a client can tell a header bug from any other',
      fix: 'answer HTTP 400 with error -32020 when a header and the body disagree or a required header is missing',
    };
  }
  return { area: 'headers', id, status: 'pass', title: `${what} gets -32020 on ${outcomes.map((o) => o.subject.method).join(', ')}`, sent: sentOf(outcomes[0]), got: gotText(outcomes[0].reply) };
}

/** Mcp-Param-* for the x-mcp-header parameters of the tools check may call: wrong, and left out, must be refused. */
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
    const subject = paramSubject(tool, callable.args);
    const right = paramHeaders(params.params, callable.args);
    const names = params.params.map((p) => `Mcp-Param-${p.header}`);
    const wrong = Object.fromEntries(names.map((name) => [name, `${right[name] ?? ''}-byhand-check`]));
    await rule(ctx, `headers.mcp-param:${tool.name}`, `a wrong ${names.join(', ')} on ${tool.name}`, [subject], () => wrong, `${names.join(', ')} not matching the arguments`);
    const sent = names.filter((name) => right[name] !== undefined);
    if (sent.length === 0) {
      add(ctx, { area: 'headers', id: `headers.mcp-param.missing:${tool.name}`, status: 'skip', title: `a missing ${names.join(', ')} on ${tool.name} not checked`, why: `${argumentsOf(callable)} leave those parameters out, so no header is due; --call ${tool.name}=JSON with them to check` });
      continue;
    }
    await rule(ctx, `headers.mcp-param.missing:${tool.name}`, `a missing ${sent.join(', ')} on ${tool.name}`, [subject], () => Object.fromEntries(sent.map((name) => [name, undefined])), `no ${sent.join(', ')} header while the arguments carry the value`);
  }
  if (invalid.length > 0) add(ctx, { area: 'headers', id: 'headers.x-mcp-header', status: 'error', title: 'tools with an invalid x-mcp-header annotation', got: invalid.join('; '), why: 'a client must not call a tool whose x-mcp-header annotations are invalid, so these tools are unusable', fix: 'put x-mcp-header only on string, integer or boolean properties reached through properties, with unique header-token names' });
  else if (checked === 0 && !ctx.findings.some((f) => f.id.startsWith('headers.mcp-param'))) add(ctx, { area: 'headers', id: 'headers.mcp-param', status: 'skip', title: 'no tool mirrors a parameter into a header (x-mcp-header)', why: 'nothing to check' });
}

function paramSubject(tool: Tool, args: Record<string, unknown>): Subject {
  const target: InputTarget = { method: 'tools/call', name: tool.name, params: { name: tool.name, arguments: args }, tool };
  return { method: 'tools/call', name: tool.name, build: () => targetRequest(target), dispatched: [] };
}
