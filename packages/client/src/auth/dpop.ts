// DPoP (RFC 9449; MCP SEP-1932): one ES256 key pair per provider proves possession of the key a
// token is bound to. Each request carries a fresh proof (typ dpop+jwt, the public jwk in the
// header, htm, htu without query or fragment, iat, a new jti, and ath for a resource request);
// a nonce a server hands out (DPoP-Nonce, with error use_dpop_nonce) is kept per origin and put in
// every later proof to that origin (RFC 9449 §8 for the token endpoint, §9 for the resource server).

import { jwkThumbprint, signJwt } from './jwt.js';
import { randomString, s256 } from './pkce.js';

export interface DpopProofRequest {
  method: string;
  url: string;
  /** The access token the request presents (a resource request): its hash becomes ath. */
  accessToken?: string;
}

export interface Dpop {
  /** The RFC 7638 thumbprint of the public key: what a bound token's cnf.jkt names. */
  thumbprint(): Promise<string>;
  /** A fresh proof for one request, with the nonce last seen from that origin. */
  proof(request: DpopProofRequest): Promise<string>;
  /** Remember the DPoP-Nonce of a response; true when it is new (a use_dpop_nonce answer is then worth one retry). */
  observe(url: string, headers: Pick<Headers, 'get'>): boolean;
  /** The private key as a JWK, to keep with the tokens bound to it; undefined for a key given from outside. */
  privateJwk(): Promise<JsonWebKey | undefined>;
}

/**
 * A DPoP signer. Without `keys` an ES256 pair is made on first use, extractable so that the tokens
 * bound to it can be stored with it (another process can then present them). Signers that share
 * `nonces` share what the servers asked for.
 */
export function createDpop(keys?: CryptoKeyPair, now: () => number = Date.now, nonces = new Map<string, string>()): Dpop {
  let pair: Promise<{ keys: CryptoKeyPair; jwk: JsonWebKey }> | undefined;
  const ready = () => {
    pair ??= (async () => {
      const made = keys ?? (await globalThis.crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']));
      const full = await globalThis.crypto.subtle.exportKey('jwk', made.publicKey);
      // Only the public members: a stray private or usage member must never reach the header.
      return { keys: made, jwk: { kty: full.kty, crv: full.crv, x: full.x, y: full.y } };
    })();
    return pair;
  };
  return {
    thumbprint: async () => jwkThumbprint((await ready()).jwk),
    async proof({ method, url, accessToken }) {
      const { keys: k, jwk } = await ready();
      const target = new URL(url);
      const nonce = nonces.get(target.origin);
      const claims: Record<string, unknown> = {
        jti: randomString(32),
        htm: method.toUpperCase(),
        htu: `${target.origin}${target.pathname}`,
        iat: Math.floor(now() / 1000),
        ...(nonce ? { nonce } : {}),
        ...(accessToken ? { ath: await s256(accessToken) } : {}),
      };
      return signJwt({ typ: 'dpop+jwt', jwk }, claims, k.privateKey, 'ES256');
    },
    observe(url, headers) {
      const nonce = headers.get('dpop-nonce');
      if (!nonce) return false;
      const origin = new URL(url).origin;
      const fresh = nonces.get(origin) !== nonce;
      nonces.set(origin, nonce);
      return fresh;
    },
    privateJwk: async () => (keys ? undefined : globalThis.crypto.subtle.exportKey('jwk', (await ready()).keys.privateKey)),
  };
}

/** A stored private JWK (ES256) back as a key pair for createDpop. */
export async function importDpopKey(jwk: JsonWebKey): Promise<CryptoKeyPair> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
  const privateKey = await globalThis.crypto.subtle.importKey('jwk', jwk, algorithm, false, ['sign']);
  const publicKey = await globalThis.crypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, algorithm, true, ['verify']);
  return { privateKey, publicKey };
}
