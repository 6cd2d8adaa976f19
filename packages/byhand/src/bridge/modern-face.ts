// A 2026 host (enveloped requests, `server/discover`) in front of any server. Each request carries the host's
// envelope; the back client carries the request in the server's era, and what the server asks during a call comes
// back to the host as `input_required` with a signed handle of the call (pending-calls.ts). The host's envelope must
// declare what the server asks for, or the call is refused with -32021, whichever era the server speaks.

import { META, MODERN_VERSIONS, type Client, type ClientCapabilities, type JsonObject, type JsonRpcRequest } from '@byhand/client';
import { forward } from './forward.js';
import { ListenFace, type Notify } from './listen-face.js';
import { AnswerError } from './json-rpc-peer.js';
import type { PendingCalls } from './pending-calls.js';

/** The requests during which a server may ask for input, and the parameter that names what they are about. */
const INPUT_METHODS: Record<string, string> = { 'tools/call': 'name', 'resources/read': 'uri', 'prompts/get': 'name' };

/** Whether a request is a 2026 one: it carries the envelope, or is the discovery that needs none. */
export function isModernRequest(request: JsonRpcRequest): boolean {
  const meta = request.params?._meta as JsonObject | undefined;
  return request.method === 'server/discover' || (meta !== undefined && meta[META.protocolVersion] !== undefined);
}

export class ModernFace {
  /** The host streams of `subscriptions/listen`: a legacy server's notifications go to them (`relay`). */
  readonly listens = new ListenFace();

  constructor(
    /** The back, opened on first use with the pending calls' host. */
    private readonly back: () => Promise<Client>,
    private readonly pending: PendingCalls,
  ) {}

  /** `notify`: how a notification reaches the host during this request (a subscription's). */
  async handle(request: JsonRpcRequest, signal: AbortSignal, notify: Notify): Promise<JsonObject> {
    const result = await this.answer(request, signal, notify);
    // A 2026 result says whether it is complete; a legacy server's never does.
    return result.resultType === undefined ? { ...result, resultType: 'complete' } : result;
  }

  private async answer(request: JsonRpcRequest, signal: AbortSignal, notify: Notify): Promise<JsonObject> {
    const params = request.params ?? {};
    const meta = (params._meta ?? {}) as JsonObject;
    const version = meta[META.protocolVersion];
    if (request.method !== 'server/discover' || version !== undefined) {
      const supported: readonly unknown[] = MODERN_VERSIONS;
      if (!supported.includes(version)) {
        throw new AnswerError({ code: -32022, message: `Unsupported protocol version: ${JSON.stringify(version)}`, data: { supported: [...MODERN_VERSIONS], requested: version ?? null } });
      }
    }
    const client = await this.back();
    if (request.method === 'server/discover') {
      // An era found in the verdict cache comes without the server's word on who it is.
      if (client.era === 'modern' && client.serverInfo === undefined) await client.discover({ signal });
      return discoverResult(client);
    }
    if (request.method === 'ping') return {};
    if (request.method === 'subscriptions/listen') return this.listens.listen(client, request.id, params, signal, notify);
    const about = INPUT_METHODS[request.method];
    if (about === undefined) return forward(client, request.method, params, { signal });
    const declared = (meta[META.clientCapabilities] ?? {}) as ClientCapabilities;
    const binding = `${request.method}\0${String(params[about])}`;
    const { inputResponses, requestState, ...call } = params;
    // The server's progress goes to the round the host is waiting on, under that request's own token.
    const token = meta.progressToken;
    const progress = token === undefined ? undefined : (p: JsonObject) => notify({ jsonrpc: '2.0', method: 'notifications/progress', params: { ...p, progressToken: token } });
    if (typeof requestState === 'string') {
      return this.pending.resume(requestState, (inputResponses ?? {}) as JsonObject, declared, binding, signal, progress);
    }
    return this.pending.start(declared, binding, (work, onProgress) => forward(client, request.method, call, { signal: AbortSignal.any([signal, work]), progress: onProgress }), progress);
  }
}

/** What server/discover says: the server's own answer when it is modern, its initialize result when it is legacy. */
function discoverResult(client: Client): JsonObject {
  return {
    supportedVersions: [...MODERN_VERSIONS],
    capabilities: client.serverCapabilities,
    ...(client.instructions !== undefined ? { instructions: client.instructions } : {}),
    _meta: { [META.serverInfo]: client.serverInfo ?? { name: 'byhand-bridge', version: '0' } },
  };
}
