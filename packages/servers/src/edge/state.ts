// requestState integrity: an HMAC codec (signature + expiry, state-codec.ts), bound to the toolbox, the method, the
// target (tool/prompt name or resource uri) and the arguments, so a state minted for one call is refused on any other.

import type { ServerContext } from '@modelcontextprotocol/server';
import { createStateCodec, type StateCodec } from './state-codec.js';

/** The JSON-RPC body each inbound Request carried, recorded by the edge before the SDK consumes the stream. */
const bodies = new WeakMap<Request, unknown>();

export function rememberBody(request: Request, body: unknown): void {
  bodies.set(request, body);
}

export function rememberedBody(request: Request | undefined): unknown {
  return request === undefined ? undefined : bodies.get(request);
}

export interface StateKit {
  /** Seals a payload for the round the handler is answering. */
  mint<T>(payload: T, ctx: ServerContext): Promise<string>;
  /** The verified payload of this round's requestState, or undefined when the round carried none. */
  read<T>(ctx: ServerContext): T | undefined;
  /** The `verify` hook for `ServerOptions.requestState`. */
  verify(state: string, ctx: ServerContext): Promise<unknown>;
}

/** A key, or a function that makes one on first use (Workers refuse random values at module scope). */
export type StateKeySource = Uint8Array | (() => Uint8Array);

/** The key's bytes; a per-process key is made on first use. */
export function stateKeyBytes(source: StateKeySource): Uint8Array {
  return typeof source === 'function' ? source() : source;
}

export const DEFAULT_STATE_TTL_SECONDS = 600;

export const MIN_STATE_SECRET_BYTES = 32;

/**
 * The secret's own bytes are the HMAC key, so it must carry the codec's 32 bytes of strength itself: a short typed
 * secret could be recovered offline from one signed state, so it is refused rather than stretched.
 */
export function stateKeyFromSecret(secret: string): Uint8Array {
  const bytes = new TextEncoder().encode(secret);
  if (bytes.byteLength < MIN_STATE_SECRET_BYTES) {
    throw new RangeError(
      `BYHAND_STATE_SECRET is ${bytes.byteLength} bytes; it must be at least ${MIN_STATE_SECRET_BYTES} ` +
        '(a shorter secret can be guessed offline from one signed requestState). Generate one with `openssl rand -base64 32`.',
    );
  }
  return bytes;
}

/**
 * $BYHAND_STATE_SECRET when set, else a random key made on first use. Without the variable each process has its own
 * key, so a multi-instance deployment (where round 2 may hit another instance) must set it.
 */
export function defaultStateKey(secret = globalThis.process?.env?.BYHAND_STATE_SECRET): StateKeySource {
  if (secret !== undefined && secret !== '') return stateKeyFromSecret(secret);
  let key: Uint8Array | undefined;
  return () => (key ??= crypto.getRandomValues(new Uint8Array(32)));
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
 * method name and a digest of its salient parameters" (basic/patterns/mrtr.mdx, server requirements), but the SDK's
 * verify hook only gets the handler context, which carries no params (@modelcontextprotocol/server dist/index.d.mts
 * ServerOptions.requestState), hence the body recorded at the edge.
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
  // No digest needed: the codec's one MAC covers the whole binding (state-codec.ts).
  return `${toolbox}\0${ctx.mcpReq.method}\0${target}\0${stableStringify(params.arguments ?? {})}`;
}

/** What the operator is told of a refused requestState: the client gets only the SDK's -32602, by design. */
export interface StateRefusal {
  toolbox: string;
  method: string;
  /** Why, in words, with what to do when it is the deployment's to fix. */
  why: string;
}

const WHY_REFUSED: Record<string, (ttlSeconds: number) => string> = {
  mac: () => 'it was not signed with this instance\'s key (or was altered): every instance behind one URL needs the same BYHAND_STATE_SECRET, 32 bytes or more',
  expired: (ttl) => `it expired (a state lives ${ttl} s): the client waited too long between rounds, or the instances' clocks disagree`,
  malformed: () => 'it is not a requestState this toolbox makes',
};

export function createStateKit(toolbox: string, key: StateKeySource, ttlSeconds = DEFAULT_STATE_TTL_SECONDS, now?: () => number, onRefused?: (refusal: StateRefusal) => void): StateKit {
  let codec: StateCodec | undefined;
  const codecNow = () => (codec ??= createStateCodec(stateKeyBytes(key), ttlSeconds, now));
  return {
    mint: (payload, ctx) => codecNow().mint(payload, callBinding(toolbox, ctx)),
    read: <T>(ctx: ServerContext) => ctx.mcpReq.requestState<T>(),
    verify: async (state, ctx) => {
      try {
        return await codecNow().verify(state, callBinding(toolbox, ctx));
      } catch (error) {
        const reason = error instanceof Error ? error.message : '';
        onRefused?.({ toolbox, method: ctx.mcpReq.method, why: (WHY_REFUSED[reason] ?? WHY_REFUSED.malformed)(ttlSeconds) });
        throw error;
      }
    },
  };
}
