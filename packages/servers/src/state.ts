// requestState integrity: the SDK's HMAC codec (signature + expiry), bound to the toolbox, the method, the target
// (tool/prompt name or resource uri) and a digest of the arguments, so a state minted for one call is refused on any other.

import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';

/** The JSON-RPC body each inbound Request carried, recorded by the edge before the SDK consumes the stream. */
const bodies = new WeakMap<Request, unknown>();

export function rememberBody(request: Request, body: unknown): void {
  bodies.set(request, body);
}

export interface StateOptions {
  /** Any non-empty string; a 32-byte key is derived from it. Defaults to $BYHAND_STATE_SECRET, else a per-process random key. */
  secret?: string;
  /** Seconds a minted requestState stays valid. */
  ttlSeconds?: number;
}

export interface StateKit {
  /** Seals a payload for the round the handler is answering. */
  mint<T>(payload: T, ctx: ServerContext): Promise<string>;
  /** The verified payload of this round's requestState, or undefined when the round carried none. */
  read<T>(ctx: ServerContext): T | undefined;
  /** The `verify` hook for `ServerOptions.requestState`. */
  verify(state: string, ctx: ServerContext): Promise<unknown>;
}

export const DEFAULT_STATE_TTL_SECONDS = 600;

/**
 * The key is derived rather than used raw because the codec wants >= 32 bytes and people type short secrets.
 * Without BYHAND_STATE_SECRET each process has its own key, so a multi-instance deployment (where round 2 may hit
 * another instance) must set the variable.
 */
export function deriveStateKey(secret: string | undefined = process.env.BYHAND_STATE_SECRET): Uint8Array {
  const material = secret !== undefined && secret.length > 0 ? secret : randomBytes(32).toString('hex');
  return new Uint8Array(createHmac('sha256', 'byhand requestState v1').update(material).digest());
}

function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

/**
 * What a requestState is bound to: the call it was minted for, minus the per-round fields. The spec asks for "the
 * method name and a digest of its salient parameters" (basic/patterns/mrtr.mdx, server requirements), but the codec's
 * bind callback only gets the handler context, which carries no params (@modelcontextprotocol/server dist/index.d.mts
 * RequestStateCodecOptions.bind), hence the body recorded at the edge.
 */
export function callBinding(toolbox: string, ctx: ServerContext): string {
  const request = ctx.http?.req;
  const body = request === undefined ? undefined : bodies.get(request);
  const params =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? ((body as { params?: Record<string, unknown> }).params ?? {})
      : undefined;
  if (params === undefined) return `${toolbox}\0${ctx.mcpReq.method}`;
  const target = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : '';
  const digest = createHash('sha256').update(stableStringify(params.arguments ?? {})).digest('base64url');
  return `${toolbox}\0${ctx.mcpReq.method}\0${target}\0${digest}`;
}

export function createStateKit(toolbox: string, key: Uint8Array, ttlSeconds = DEFAULT_STATE_TTL_SECONDS): StateKit {
  const codec = createRequestStateCodec<unknown>({ key, ttlSeconds, bind: (ctx) => callBinding(toolbox, ctx) });
  return {
    mint: (payload, ctx) => codec.mint(payload, ctx),
    read: <T>(ctx: ServerContext) => ctx.mcpReq.requestState<T>(),
    verify: (state, ctx) => codec.verify(state, ctx),
  };
}
