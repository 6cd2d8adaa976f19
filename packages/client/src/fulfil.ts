// Turns one input request (an MRTR inputRequests entry, or a legacy server-to-client request) into
// the BARE result the server reads: CreateMessageResult, ElicitResult or ListRootsResult. Never the
// SDK's `{kind, result}` view (@modelcontextprotocol/server inputResponse(), an in-process reader).

import { HostError, ProtocolError } from './errors.js';
import type { ClientCapabilities, CreateMessageParams, ElicitParams, ElicitResult, Host, InputContext, InputResponse, JsonObject } from './types.js';

/**
 * What the client declares, derived from the host: a callback that is absent is a capability not
 * declared, so the server must not ask for it (sampling is opt-in: that is the security control).
 */
export function capabilitiesFor(host: Host): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (host.sample) caps.sampling = host.samplingTools ? { tools: {} } : {};
  if (host.elicit) {
    const modes = host.elicitationModes ?? ['form'];
    caps.elicitation = Object.fromEntries(modes.map((m) => [m, {}]));
  }
  if (host.roots) caps.roots = {};
  return caps;
}

export async function fulfil(host: Host, request: { method?: unknown; params?: unknown }, ctx: InputContext): Promise<InputResponse> {
  const params = (request.params ?? {}) as JsonObject;
  switch (request.method) {
    case 'sampling/createMessage': {
      if (!host.sample) throw undeclared(host, request, 'sampling', ctx);
      const result = await run(() => host.sample!(params as unknown as CreateMessageParams, ctx), 'sampling', ctx);
      if (!result || typeof result.model !== 'string' || !result.role || result.content === undefined) {
        throw new HostError(`the host's sampling answer for '${ctx.key}' has no role, content or model`, 'a sampling answer is {role, content, model, stopReason?}');
      }
      return result;
    }
    case 'elicitation/create': {
      if (!host.elicit) throw undeclared(host, request, 'elicitation', ctx);
      const elicit = params as unknown as ElicitParams;
      const mode = elicit.mode ?? 'form';
      if (!(host.elicitationModes ?? ['form']).includes(mode)) throw undeclared(host, request, `elicitation in ${mode} mode`, ctx);
      const result = await run(() => host.elicit!(elicit, ctx), 'elicitation', ctx);
      if (!['accept', 'decline', 'cancel'].includes(result?.action)) {
        throw new HostError(`the host's elicitation answer for '${ctx.key}' has no valid action`, 'an elicitation answer is {action: accept|decline|cancel, content?}');
      }
      return mode === 'form' ? withDefaults(result, elicit) : { action: result.action };
    }
    case 'roots/list': {
      if (!host.roots) throw undeclared(host, request, 'roots', ctx);
      const result = await run(() => host.roots!(ctx), 'roots', ctx);
      if (!Array.isArray(result?.roots)) throw new HostError('the host\'s roots answer has no roots array', 'a roots answer is {roots: [{uri, name?}]}');
      return result;
    }
    default:
      throw new ProtocolError(
        `the server asked for '${String(request.method)}' under key '${ctx.key}', which is not an input request`,
        'input requests are sampling/createMessage, elicitation/create or roots/list (spec basic/patterns/mrtr.mdx)',
      );
  }
}

/** Form defaults the person did not override are part of an accepted answer (SEP-1034). */
function withDefaults(result: ElicitResult, params: ElicitParams): ElicitResult {
  if (result.action !== 'accept') return { action: result.action };
  const content = { ...result.content };
  for (const [key, schema] of Object.entries(params.requestedSchema?.properties ?? {})) {
    if (content[key] === undefined && schema.default !== undefined) content[key] = schema.default as string;
  }
  return { action: 'accept', content };
}

function undeclared(host: Host, request: { method?: unknown; params?: unknown }, what: string, ctx: InputContext): ProtocolError {
  host.askedUndeclared?.({ method: String(request.method), params: request.params }, ctx);
  return new ProtocolError(
    `the server asked for ${what} ('${ctx.key}' during ${ctx.method} ${ctx.name}) although the client did not declare it`,
    'a server must only ask for what the request declares in clientCapabilities; this is a server bug',
  );
}

async function run<T>(work: () => Promise<T>, what: string, ctx: InputContext): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HostError || error instanceof ProtocolError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new HostError(`the host did not fulfil ${what} for '${ctx.key}' (${ctx.method} ${ctx.name}): ${reason}`, 'the host refused or failed; nothing was sent back to the server', { cause: error });
  }
}
