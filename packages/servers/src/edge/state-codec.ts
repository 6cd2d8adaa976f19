// The requestState codec: HMAC-SHA256 over the sealed payload (with its expiry) and the call it is bound to, in one MAC.
// It replaces the SDK's createRequestStateCodec, which makes two HMACs to mint and two to verify (a bind tag, then
// the body: @modelcontextprotocol/server dist/index.mjs), each a Web Crypto job: on Node those four were a fifth of
// the server's CPU for a two-round call (bench/server-bench.js, the Cookie Jar's forget_note, node --cpu-prof).
// Same guarantees: a state verifies only under the key, before its expiry, for the binding it was minted for; the
// comparison does not stop at the first differing character. Where the runtime offers node:crypto (Node, and
// Workers with nodejs_compat) its synchronous HMAC is used, else Web Crypto's.

const PREFIX = 'bh1.';
const MIN_KEY_BYTES = 32;

export interface StateCodec {
  mint(payload: unknown, binding: string): Promise<string>;
  /** The payload, or a throw (malformed, mac, expired) that the SDK answers as an invalid requestState. */
  verify(state: string, binding: string): Promise<unknown>;
}

type Hmac = (data: string) => Promise<Uint8Array>;

interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: Uint8Array): { update(data: string): { digest(): Uint8Array } };
}

/** node:crypto without importing it, so this module still loads where there is none (a browser, plain Workers). */
function nodeCrypto(): NodeCrypto | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const module = process?.getBuiltinModule?.('node:crypto') as Partial<NodeCrypto> | undefined;
  return typeof module?.createHmac === 'function' ? (module as NodeCrypto) : undefined;
}

/** HMAC-SHA256 under `key`: node:crypto's when there is one (null: none), else Web Crypto's (the two agree; test/servers-state-codec.test.ts). */
export function hmacWith(key: Uint8Array<ArrayBuffer>, node: NodeCrypto | null = nodeCrypto() ?? null): Hmac {
  if (node !== null) return async (data) => node.createHmac('sha256', key).update(data).digest();
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) throw new TypeError('requestState needs node:crypto or Web Crypto (globalThis.crypto.subtle)');
  let cryptoKey: Promise<CryptoKey> | undefined;
  const utf8 = new TextEncoder();
  return async (data) => {
    cryptoKey ??= subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new Uint8Array(await subtle.sign('HMAC', await cryptoKey, utf8.encode(data)));
  };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('malformed');
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** What the MAC covers: the sealed body and the binding, split by a byte base64url never contains. */
const signed = (body: string, binding: string) => `${PREFIX}${body}\0${binding}`;

export function createStateCodec(key: Uint8Array, ttlSeconds: number, now: () => number = Date.now): StateCodec {
  if (key.byteLength < MIN_KEY_BYTES) throw new RangeError(`requestState key must be at least ${MIN_KEY_BYTES} bytes (got ${key.byteLength})`);
  if (!Number.isFinite(ttlSeconds)) throw new RangeError('requestState ttlSeconds must be a finite number');
  const hmac = hmacWith(Uint8Array.from(key));
  const utf8 = new TextEncoder();
  const seconds = () => Math.floor(now() / 1000);
  return {
    async mint(payload, binding) {
      const body = toBase64Url(utf8.encode(JSON.stringify({ p: payload, exp: seconds() + ttlSeconds })));
      return `${PREFIX}${body}.${toBase64Url(await hmac(signed(body, binding)))}`;
    },
    async verify(state, binding) {
      const dot = state.lastIndexOf('.');
      if (!state.startsWith(PREFIX) || dot <= PREFIX.length) throw new Error('malformed');
      const body = state.slice(PREFIX.length, dot);
      if (!sameText(state.slice(dot + 1), toBase64Url(await hmac(signed(body, binding))))) throw new Error('mac');
      let envelope: { p?: unknown; exp?: unknown };
      try {
        envelope = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(body))) as { p?: unknown; exp?: unknown };
      } catch {
        throw new Error('malformed');
      }
      if (typeof envelope.exp !== 'number' || envelope.exp < seconds()) throw new Error('expired');
      return envelope.p;
    },
  };
}
