// Which era the server serves, and how it says so: server/discover and its shape, -32022 with `data.supported` for a
// version it does not speak, the legacy `initialize` (byhand's client with the legacy era pinned), and what
// per-request legacy serving costs a 2025 client.

import { META, MODERN_VERSIONS, type Client } from '@byhand/client';
import { add, sendRaw, type CheckContext } from './context.js';
import { errorText } from './lists.js';
import { isObject } from './raw.js';
import { gotText, modernRequest } from './request.js';

const UNSUPPORTED = '2099-01-01';

export async function checkEra(ctx: CheckContext): Promise<void> {
  if (ctx.client.era === 'modern') {
    ctx.serves.modern = true;
    await discover(ctx);
    await unsupportedVersion(ctx);
    await envelopeRequired(ctx);
    await legacyInitialize(ctx);
    return;
  }
  add(ctx, {
    area: 'era', id: 'era.discover', status: 'warn', title: 'the modern era (2026-07-28) is not served',
    sent: `a modern request, protocolVersion ${MODERN_VERSIONS[0]}`, got: ctx.client.verdict.evidence,
    why: 'a 2026 client falls back to initialize, one round trip more, and gets none of the modern era (no input_required rounds)',
    fix: 'serve the modern era too: the SDK 2.4.0 createMcpHandler (HTTP) and serveStdio (stdio) serve both eras',
  });
  // The connection fell back on its own, so the modern answer was one a 2026 client falls back from (command.ts
  // reports the other case).
  if (!ctx.findings.some((f) => f.id === 'era.fallback')) add(ctx, { area: 'era', id: 'era.fallback', status: 'pass', title: 'a 2026 client falls back to initialize', sent: `a modern request, protocolVersion ${MODERN_VERSIONS[0]}`, got: ctx.client.verdict.evidence });
  ctx.serves.legacy = true;
  legacyServed(ctx, ctx.client);
}

async function discover(ctx: CheckContext): Promise<void> {
  const { message, headers } = modernRequest('server/discover');
  const sent = `server/discover, protocolVersion ${MODERN_VERSIONS[0]}`;
  const reply = await sendRaw(ctx, 'server/discover', message, headers);
  const result = reply.message?.result;
  const problems: string[] = [];
  if (result === undefined) problems.push(`no result: ${gotText(reply)}`);
  else {
    const supported = result.supportedVersions;
    if (!Array.isArray(supported) || supported.length === 0 || !supported.every((v) => typeof v === 'string')) problems.push('supportedVersions is not a non-empty array of strings');
    else if (!supported.some((v) => (MODERN_VERSIONS as readonly string[]).includes(v))) problems.push(`supportedVersions (${supported.join(', ')}) names no modern version byhand speaks`);
    if (!isObject(result.capabilities)) problems.push('capabilities is not an object');
    const info = isObject(result._meta) ? result._meta['io.modelcontextprotocol/serverInfo'] : undefined;
    if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') problems.push('_meta["io.modelcontextprotocol/serverInfo"] has no name and version');
  }
  add(ctx, problems.length === 0
    ? { area: 'era', id: 'era.discover', status: 'pass', title: `server/discover answered: ${(result!.supportedVersions as string[]).join(', ')}`, sent, got: gotText(reply) }
    : { area: 'era', id: 'era.discover', status: 'error', title: 'server/discover is missing or malformed', sent, got: problems.join('; '), why: 'a client reads supportedVersions to pick a version and capabilities to know what to ask for', fix: 'answer {supportedVersions: [...], capabilities: {...}, _meta: {"io.modelcontextprotocol/serverInfo": {name, version}}} (the SDK builds this for you)' });
}

async function unsupportedVersion(ctx: CheckContext): Promise<void> {
  const { message, headers } = modernRequest('server/discover', {}, { version: UNSUPPORTED });
  const sent = `server/discover with protocolVersion ${UNSUPPORTED} (in the envelope and MCP-Protocol-Version)`;
  const reply = await sendRaw(ctx, 'server/discover (unsupported version)', message, headers);
  const error = reply.message?.error;
  const supported = isObject(error?.data) ? error.data.supported : undefined;
  const fine = error?.code === -32022 && Array.isArray(supported) && supported.length > 0;
  if (!fine && error === undefined && ctx.client.transportKind === 'stdio') {
    // Seen on the SDK 2.4.0 serveStdio: once a connection has spoken a version, a later request naming another is
    // answered in the first one. A client meets -32022 on its first request, which check cannot send on a
    // connection already open, so this is a warning, not a verdict.
    add(ctx, { area: 'era', id: 'era.unsupported-version', status: 'warn', title: 'on an open stdio connection, an unsupported version is answered as if supported', sent, got: gotText(reply), why: 'a request that names a version the server does not speak should get -32022 with data.supported, on every request', fix: 'check the version of every request, not only the first on the connection' });
    return;
  }
  add(ctx, fine
    ? { area: 'era', id: 'era.unsupported-version', status: 'pass', title: `an unsupported version gets -32022 naming ${(supported as string[]).join(', ')}`, sent, got: gotText(reply) }
    : {
      area: 'era', id: 'era.unsupported-version', status: 'error',
      title: error?.code === -32022 ? '-32022 without data.supported' : 'an unsupported version is not answered with -32022',
      sent, got: `${gotText(reply)}${error?.code === -32022 ? `, data ${JSON.stringify(error.data ?? null)}` : ''}`,
      why: 'a client retries with a version from data.supported; without it (or without -32022) it cannot tell "try another version" from "not a modern server" and may fall back to initialize or give up',
      fix: 'answer error -32022 (UnsupportedProtocolVersion) with data: {supported: [the versions you speak], requested}; the SDK does this when the version check is left on',
    });
}

/**
 * The envelope's protocolVersion and clientCapabilities are required: a request without them is malformed, refused
 * with -32602 and, on HTTP, 400 (spec basic/index.mdx). Over stdio a request without the envelope is how a dual-era
 * server tells a 2025 client, so only HTTP is judged.
 */
async function envelopeRequired(ctx: CheckContext): Promise<void> {
  if (ctx.client.transportKind === 'stdio') return;
  const probes: { what: string; meta: (meta: Record<string, unknown>) => Record<string, unknown> | undefined }[] = [
    { what: 'no params._meta', meta: () => undefined },
    { what: `_meta without ${META.protocolVersion}`, meta: ({ [META.protocolVersion]: _, ...rest }) => rest },
    { what: `_meta without ${META.clientCapabilities}`, meta: ({ [META.clientCapabilities]: _, ...rest }) => rest },
  ];
  const outcomes = [];
  for (const probe of probes) {
    const { message, headers } = modernRequest('tools/list');
    const meta = probe.meta(message.params._meta as Record<string, unknown>);
    const params = { ...message.params };
    if (meta === undefined) delete params._meta;
    else params._meta = meta;
    const reply = await sendRaw(ctx, `tools/list (${probe.what})`, { ...message, params }, headers);
    const error = reply.message?.error;
    outcomes.push({ probe, reply, verdict: reply.message?.result !== undefined ? 'served' : error?.code === -32602 && (reply.status === undefined || reply.status === 400) ? 'refused' : 'other' });
  }
  const served = outcomes.find((o) => o.verdict === 'served');
  const other = outcomes.find((o) => o.verdict === 'other');
  const shown = served ?? other ?? outcomes[0];
  const sent = `tools/list with ${shown.probe.what} (the headers as usual)`;
  add(ctx, served
    ? { area: 'era', id: 'era.envelope', status: 'error', title: `a request with ${served.probe.what} is served`, sent, got: gotText(served.reply), why: 'protocolVersion and clientCapabilities are required in every request\'s _meta; a server that fills them in decides for the client what it may be asked (capabilities are declared per request, never assumed)', fix: 'refuse a request whose _meta lacks io.modelcontextprotocol/protocolVersion or io.modelcontextprotocol/clientCapabilities with HTTP 400 and -32602 (the SDK does)' }
    : other
      ? { area: 'era', id: 'era.envelope', status: 'warn', title: `a request with ${other.probe.what} is refused, but not with -32602 and HTTP 400`, sent, got: gotText(other.reply), why: 'the spec refuses a request missing a required _meta key with -32602 (Invalid params) and HTTP 400', fix: 'answer HTTP 400 with error -32602 naming the missing key' }
      : { area: 'era', id: 'era.envelope', status: 'pass', title: 'a request without the envelope, or without its protocolVersion or clientCapabilities, gets -32602', sent, got: gotText(shown.reply) });
}

async function legacyInitialize(ctx: CheckContext): Promise<void> {
  const sent = 'initialize (byhand\'s client with the legacy era pinned)';
  let legacy: Client;
  const started = performance.now();
  try {
    legacy = await ctx.connectLegacy();
  } catch (error) {
    add(ctx, { area: 'era', id: 'era.initialize', status: 'pass', title: 'modern only: the legacy initialize is refused', sent, got: errorText(error) });
    return;
  }
  try {
    ctx.timings.push({ what: 'initialize', ms: Math.round(performance.now() - started) });
    ctx.serves.legacy = true;
    legacyServed(ctx, legacy);
    if ('tools' in legacy.serverCapabilities) ctx.legacyTools = (await legacy.listTools()).map((t) => t.name);
  } finally {
    ctx.strays.push(...legacy.strayOutput);
    await legacy.close().catch(() => undefined);
  }
}

/** The legacy era answered on `client`: by session or per request, and what that means for asking the host. */
function legacyServed(ctx: CheckContext, client: Client): void {
  const http = client.transportName !== 'stdio';
  // A stdio process is a held connection, as an HTTP session is: a legacy server can push down it (as checkpoint reads it).
  ctx.serves.legacySession = !http || client.sessionId !== undefined;
  const sent = `initialize, protocolVersion ${client.protocolVersion}`;
  add(ctx, { area: 'era', id: 'era.initialize', status: 'pass', title: `legacy era served: initialize answered ${client.protocolVersion}${http ? (ctx.serves.legacySession ? ', with a session' : ', per request (no session)') : ''}`, sent });
  if (ctx.serves.legacySession) return;
  add(ctx, {
    area: 'era', id: 'era.per-request-legacy', status: 'warn',
    title: 'a 2025 client of this server can never be asked to think: it serves the legacy era per request',
    sent, got: 'no Mcp-Session-Id on the initialize answer',
    why: 'in the 2025 era a server asks the host (sampling, elicitation, roots) down a held connection; without a session there is none, so any tool that needs input fails for every 2025 client',
    fix: 'serve the legacy era with sessions (the SDK: a sessionful StreamableHTTPServerTransport with a sessionIdGenerator), or accept that only 2026 clients get the tools that ask',
  });
}
