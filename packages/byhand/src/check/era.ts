// Which era the server serves, and how it says so: server/discover and its shape, -32022 with `data.supported` for a
// version it does not speak, the legacy `initialize`, and what per-request legacy serving costs a 2025 client.

import { LEGACY_VERSIONS, MODERN_VERSIONS } from '@byhand/client';
import { add, sendRaw, type CheckContext } from './context.js';
import { openRaw, isObject, rawId, type RawWire } from './raw.js';
import { CLIENT_INFO, gotText, modernRequest } from './request.js';

const UNSUPPORTED = '2099-01-01';

export async function checkEra(ctx: CheckContext): Promise<void> {
  await discover(ctx);
  if (ctx.serves.modern) await unsupportedVersion(ctx);
  await legacyInitialize(ctx);
  if (!ctx.serves.modern && !ctx.serves.legacy) {
    add(ctx, {
      area: 'era', id: 'era.none', status: 'error', title: 'the server answered neither era',
      why: 'no MCP client can use it: a 2026 client sends server/discover or a request with the envelope, a 2025 client sends initialize',
      fix: 'serve the modern era (the SDK: createMcpHandler or serveStdio), the legacy one, or both',
    });
  }
}

async function discover(ctx: CheckContext): Promise<void> {
  const { message, headers } = modernRequest('server/discover');
  const sent = `server/discover, protocolVersion ${MODERN_VERSIONS[0]}`;
  let reply;
  try {
    reply = await sendRaw(ctx, 'server/discover', message, headers);
  } catch (error) {
    add(ctx, { area: 'era', id: 'era.discover', status: 'error', title: 'server/discover got no answer', sent, got: (error as Error).message, why: 'a modern client starts here (or with its real request); no answer means it waits until its timeout', fix: 'answer every request, if only with an error' });
    return;
  }
  const result = reply.message?.result;
  if (result === undefined) {
    // -32601 and friends: a legacy server, which is allowed; the initialize check says whether it serves that era.
    add(ctx, { area: 'era', id: 'era.discover', status: 'warn', title: 'the modern era (2026-07-28) is not served', sent, got: gotText(reply), why: 'a 2026 client falls back to initialize, one round trip more, and gets none of the modern era (no input_required rounds without a session)', fix: 'serve the modern era too: the SDK 2.4.0 createMcpHandler serves both eras on one endpoint' });
    return;
  }
  ctx.serves.modern = true;
  const problems: string[] = [];
  const supported = result.supportedVersions;
  if (!Array.isArray(supported) || supported.length === 0 || !supported.every((v) => typeof v === 'string')) problems.push('supportedVersions is not a non-empty array of strings');
  else if (!supported.some((v) => (MODERN_VERSIONS as readonly string[]).includes(v))) problems.push(`supportedVersions (${supported.join(', ')}) names no modern version byhand speaks`);
  if (!isObject(result.capabilities)) problems.push('capabilities is not an object');
  const info = isObject(result._meta) ? result._meta['io.modelcontextprotocol/serverInfo'] : undefined;
  if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') problems.push('_meta["io.modelcontextprotocol/serverInfo"] has no name and version');
  add(ctx, problems.length === 0
    ? { area: 'era', id: 'era.discover', status: 'pass', title: `server/discover answered: ${(supported as string[]).join(', ')}`, sent, got: gotText(reply) }
    : { area: 'era', id: 'era.discover', status: 'error', title: 'server/discover answered with a malformed result', sent, got: problems.join('; '), why: 'a client reads supportedVersions to pick a version and capabilities to know what to ask for', fix: 'answer {supportedVersions: [...], capabilities: {...}, _meta: {"io.modelcontextprotocol/serverInfo": {name, version}}} (the SDK builds this for you)' });
}

async function unsupportedVersion(ctx: CheckContext): Promise<void> {
  const { message, headers } = modernRequest('server/discover', {}, { version: UNSUPPORTED });
  const sent = `server/discover with protocolVersion ${UNSUPPORTED} (in the envelope and MCP-Protocol-Version)`;
  const reply = await sendRaw(ctx, 'server/discover (unsupported version)', message, headers);
  const error = reply.message?.error;
  const supported = isObject(error?.data) ? error.data.supported : undefined;
  const fine = error?.code === -32022 && Array.isArray(supported) && supported.length > 0;
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

async function legacyInitialize(ctx: CheckContext): Promise<void> {
  // Over stdio a fresh process: an initialize must not change the session the other checks use.
  const wire: RawWire = ctx.raw.kind === 'stdio' ? openRaw(ctx.target, { timeoutMs: ctx.timeoutMs, ...(ctx.signal ? { signal: ctx.signal } : {}) }) : ctx.raw;
  const sent = `initialize, protocolVersion ${LEGACY_VERSIONS[0]}`;
  try {
    const message = { jsonrpc: '2.0', id: rawId(), method: 'initialize', params: { protocolVersion: LEGACY_VERSIONS[0], capabilities: { sampling: {}, elicitation: {}, roots: {} }, clientInfo: CLIENT_INFO } };
    let reply;
    try {
      reply = await wire.send(message);
    } catch (error) {
      add(ctx, { area: 'era', id: 'era.initialize', status: ctx.serves.modern ? 'warn' : 'error', title: 'initialize got no answer', sent, got: (error as Error).message, why: 'a 2025 client sends initialize and waits for its timeout', fix: 'answer initialize, if only with an error naming the versions you speak' });
      return;
    }
    ctx.timings.push({ what: 'initialize', ms: reply.ms });
    const result = reply.message?.result;
    if (result === undefined) {
      add(ctx, ctx.serves.modern
        ? { area: 'era', id: 'era.initialize', status: 'pass', title: 'modern only: initialize is refused', sent, got: gotText(reply) }
        : { area: 'era', id: 'era.initialize', status: 'error', title: 'initialize is refused', sent, got: gotText(reply), why: 'the server serves no era byhand could find', fix: 'answer initialize (2025 era) or server/discover (2026 era)' });
      return;
    }
    ctx.serves.legacy = true;
    const session = reply.headers?.get('mcp-session-id') ?? undefined;
    ctx.serves.legacySession = wire.kind === 'stdio' || session !== undefined;
    if (session !== undefined) await wire.forget(session).catch(() => undefined);
    add(ctx, { area: 'era', id: 'era.initialize', status: 'pass', title: `legacy era served: initialize answered ${String(result.protocolVersion)}${wire.kind === 'http' ? (session !== undefined ? ', with a session' : ', per request (no session)') : ''}`, sent, got: gotText(reply) });
    if (!ctx.serves.legacySession) {
      add(ctx, {
        area: 'era', id: 'era.per-request-legacy', status: 'warn',
        title: 'a 2025 client of this server can never be asked to think: it serves the legacy era per request',
        sent, got: 'no Mcp-Session-Id on the initialize answer',
        why: 'in the 2025 era a server asks the host (sampling, elicitation, roots) down a held connection; without a session there is none, so any tool that needs input fails for every 2025 client',
        fix: 'serve the legacy era with sessions (the SDK: a sessionful StreamableHTTPServerTransport with a sessionIdGenerator), or accept that only 2026 clients get the tools that ask',
      });
    }
  } finally {
    if (wire !== ctx.raw) {
      await wire.close();
      ctx.raw.strays.push(...wire.strays);
    }
  }
}
