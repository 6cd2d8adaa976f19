// Results (modern era), read off every raw exchange check made, after every method the server offers was sent once
// (the first page of each list it declares and completion/complete join the calls, reads and gets):
// - every result carries resultType (schema.ts Result: "Servers implementing this protocol version MUST include this
//   field"); the official SDK 2.4.0 client and the Inspector refuse a result without it, though the spec has clients
//   read it as complete, as byhand does;
// - server/discover, the lists and resources/read are CacheableResults: ttlMs (an integer >= 0) and cacheScope
//   ("public" or "private") are required (SEP-2549);
// - input_required only on tools/call, resources/read and prompts/get (spec basic/patterns/mrtr.mdx: "Servers MUST
//   NOT send InputRequiredResult responses on any other client requests").

import { INPUT_METHODS } from '@byhand/client';
import { add, sendRaw, type CheckContext } from './context.js';
import { isObject } from './raw.js';
import { gotText, modernRequest } from './request.js';

const CACHEABLE = ['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'];
const LISTS = [
  { method: 'tools/list', key: 'tools', capability: 'tools' },
  { method: 'prompts/list', key: 'prompts', capability: 'prompts' },
  { method: 'resources/list', key: 'resources', capability: 'resources' },
  { method: 'resources/templates/list', key: 'resourceTemplates', capability: 'resources' },
] as const;

/** The spec's order, then any other method by name: a finding lists methods the same way every run. */
const byOrder = (a: string, b: string) => (CACHEABLE.indexOf(a) + 1 || 99) - (CACHEABLE.indexOf(b) + 1 || 99) || a.localeCompare(b);

export async function checkResults(ctx: CheckContext): Promise<void> {
  if (!ctx.serves.modern) {
    add(ctx, { area: 'schemas', id: 'schemas.result-type', status: 'skip', title: 'result shapes not checked', why: 'the server does not serve the modern era, whose results carry resultType and caching hints' });
    return;
  }
  await firstPages(ctx);
  await completion(ctx);
  resultTypes(ctx);
  cacheHints(ctx);
  onlyWhereAllowed(ctx);
}

/** One page of each list that byhand's client read without a problem: the raw result, as the server sent it. */
async function firstPages(ctx: CheckContext): Promise<void> {
  for (const { method, key, capability } of LISTS) {
    if (!(capability in ctx.client.serverCapabilities)) continue;
    if (ctx.findings.some((f) => f.id === `lists.${key}` && f.status === 'error')) continue;
    const { message, headers } = modernRequest(method);
    await sendRaw(ctx, `${method} (its result as sent)`, message, headers);
  }
}

/** completion/complete on the first prompt argument, else the first template variable, when completions are declared. */
async function completion(ctx: CheckContext): Promise<void> {
  if (!('completions' in ctx.client.serverCapabilities)) return;
  const prompt = ctx.prompts.find((p) => (p.arguments ?? []).length > 0);
  const template = ctx.templates.find((t) => /\{[^}]+\}/.test(t.uriTemplate));
  const variable = template ? /\{[+#./;?&]?([^},*]+)/.exec(template.uriTemplate)?.[1] : undefined;
  const params = prompt
    ? { ref: { type: 'ref/prompt', name: prompt.name }, argument: { name: prompt.arguments![0].name, value: '' } }
    : template && variable
      ? { ref: { type: 'ref/resource', uri: template.uriTemplate }, argument: { name: variable, value: '' } }
      : undefined;
  if (params === undefined) return;
  const { message, headers } = modernRequest('completion/complete', params);
  const reply = await sendRaw(ctx, 'completion/complete', message, headers);
  if (reply.message?.result === undefined) {
    add(ctx, { area: 'lists', id: 'lists.completion', status: 'warn', title: 'completion/complete is declared but refused', sent: `completion/complete ${JSON.stringify(params.ref)}`, got: gotText(reply), why: 'the server declares completions, so a client offers them and gets an error', fix: 'answer completion/complete with {completion: {values: [...]}} (empty when there is nothing to suggest), or do not declare completions' });
  }
}

function resultTypes(ctx: CheckContext): void {
  const without = [...new Set(ctx.results.filter((r) => typeof r.result.resultType !== 'string').map((r) => r.method))].sort(byOrder);
  const all = [...new Set(ctx.results.map((r) => r.method))].sort(byOrder);
  add(ctx, without.length === 0
    ? { area: 'schemas', id: 'schemas.result-type', status: 'pass', title: `every result carries resultType (${all.join(', ')})` }
    : {
      area: 'schemas', id: 'schemas.result-type', status: 'error',
      title: `results without resultType: ${without.join(', ')}`,
      sent: without.join(', '), got: `a result with no resultType member (for example ${JSON.stringify(ctx.results.find((r) => r.method === without[0])!.result).slice(0, 120)})`,
      why: 'the 2026-07-28 schema requires resultType ("complete" or "input_required") on every result; the official SDK 2.4.0 client and the MCP Inspector refuse such a result, so they cannot list or call this server',
      fix: 'add resultType: "complete" to every result (the SDK 2.4.0 createMcpHandler and serveStdio add it; a hand-written server sets it where it builds each result)',
    });
}

function cacheHints(ctx: CheckContext): void {
  const problems = new Map<string, string>();
  for (const { method, result } of ctx.results) {
    if (!CACHEABLE.includes(method) || result.resultType === 'input_required' || problems.has(method)) continue;
    const wrong: string[] = [];
    if (typeof result.ttlMs !== 'number' || !Number.isInteger(result.ttlMs) || result.ttlMs < 0) wrong.push(result.ttlMs === undefined ? 'no ttlMs' : `ttlMs ${JSON.stringify(result.ttlMs)}`);
    if (result.cacheScope !== 'public' && result.cacheScope !== 'private') wrong.push(result.cacheScope === undefined ? 'no cacheScope' : `cacheScope ${JSON.stringify(result.cacheScope)}`);
    if (wrong.length > 0) problems.set(method, wrong.join(', '));
  }
  const seen = [...new Set(ctx.results.map((r) => r.method).filter((m) => CACHEABLE.includes(m)))].sort(byOrder);
  if (seen.length === 0) return;
  const methods = [...problems.keys()].sort(byOrder);
  add(ctx, methods.length === 0
    ? { area: 'schemas', id: 'schemas.cache-hints', status: 'pass', title: `cacheable results carry ttlMs and cacheScope (${seen.join(', ')})` }
    : {
      area: 'schemas', id: 'schemas.cache-hints', status: 'error',
      title: `cacheable results without a valid ttlMs and cacheScope: ${methods.join(', ')}`,
      sent: methods.join(', '), got: methods.map((m) => `${m}: ${problems.get(m)}`).join('; '),
      why: 'the 2026-07-28 schema makes server/discover, the lists and resources/read CacheableResults: ttlMs (an integer >= 0) and cacheScope ("public" or "private") are required, and a client that validates results refuses them without',
      fix: 'add ttlMs (0 for "do not cache") and cacheScope ("private" unless every user may share the answer) to those results; the SDK 2.4.0 adds them',
    });
}

function onlyWhereAllowed(ctx: CheckContext): void {
  const misplaced = ctx.results.filter((r) => !INPUT_METHODS.has(r.method) && r.result.resultType === 'input_required');
  const others = [...new Set(ctx.results.map((r) => r.method).filter((m) => !INPUT_METHODS.has(m)))].sort(byOrder);
  if (misplaced.length === 0) {
    if (others.length > 0) add(ctx, { area: 'mrtr', id: 'mrtr.only-where-allowed', status: 'pass', title: `input_required only where allowed: ${others.join(', ')} answer without it` });
    return;
  }
  const methods = [...new Set(misplaced.map((r) => r.method))].sort(byOrder);
  const asked = misplaced[0].result.inputRequests;
  add(ctx, {
    area: 'mrtr', id: 'mrtr.only-where-allowed', status: 'error',
    title: `${methods.join(', ')} answered input_required, which only tools/call, resources/read and prompts/get may`,
    sent: methods.join(', '), got: `resultType input_required${isObject(asked) ? `, asking for ${Object.keys(asked).join(', ')}` : ''}`,
    why: 'the spec (basic/patterns/mrtr) lets only tools/call, resources/read and prompts/get ask for input; a client answers any other request\'s input_required with an error, so the request never completes',
    fix: 'answer these methods without input: gather what they need in the tool, resource or prompt that uses it',
  });
}
