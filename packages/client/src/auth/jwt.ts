// Signed JWTs (RFC 7515 compact JWS, RFC 7519) with Web Crypto only: the private_key_jwt client
// assertion (RFC 7523 §2.2) and the DPoP proofs (dpop.ts) are built here. ECDSA signatures from Web
// Crypto are already the raw r||s that JWS wants (RFC 7518 §3.4), so nothing is re-encoded.

import { base64url, randomString } from './pkce.js';

export type JwsAlgorithm = 'ES256' | 'ES384' | 'RS256' | 'PS256';

const ALGORITHMS: Record<JwsAlgorithm, { import: EcKeyImportParams | RsaHashedImportParams; sign: AlgorithmIdentifier | EcdsaParams | RsaPssParams }> = {
  ES256: { import: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
  ES384: { import: { name: 'ECDSA', namedCurve: 'P-384' }, sign: { name: 'ECDSA', hash: 'SHA-384' } },
  RS256: { import: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5' } },
  PS256: { import: { name: 'RSA-PSS', hash: 'SHA-256' }, sign: { name: 'RSA-PSS', saltLength: 32 } },
};

/** A PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----") as a non-extractable signing key. */
export async function importPrivateKey(pem: string, alg: JwsAlgorithm): Promise<CryptoKey> {
  const match = /-----BEGIN PRIVATE KEY-----([\s\S]+?)-----END PRIVATE KEY-----/.exec(pem);
  if (!match) throw new TypeError('the private key must be a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)');
  const der = Uint8Array.from(atob(match[1].replace(/\s+/g, '')), (c) => c.charCodeAt(0));
  return globalThis.crypto.subtle.importKey('pkcs8', der, ALGORITHMS[alg].import, false, ['sign']);
}

function encodeJson(value: unknown): string {
  return base64url(new TextEncoder().encode(JSON.stringify(value)));
}

export async function signJwt(header: Record<string, unknown>, payload: Record<string, unknown>, key: CryptoKey, alg: JwsAlgorithm): Promise<string> {
  const input = `${encodeJson({ ...header, alg })}.${encodeJson(payload)}`;
  const signature = await globalThis.crypto.subtle.sign(ALGORITHMS[alg].sign, key, new TextEncoder().encode(input));
  return `${input}.${base64url(new Uint8Array(signature))}`;
}

/** The JWK SHA-256 thumbprint (RFC 7638): the required members, in lexicographic order. */
export async function jwkThumbprint(jwk: JsonWebKey): Promise<string> {
  const members = jwk.kty === 'EC' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : jwk.kty === 'RSA' ? { e: jwk.e, kty: jwk.kty, n: jwk.n } : undefined;
  if (!members) throw new TypeError(`no thumbprint for a ${String(jwk.kty)} key`);
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(members)));
  return base64url(new Uint8Array(digest));
}

export interface ClientAssertionOptions {
  clientId: string;
  /** The authorization server's issuer identifier (RFC 7523 §3, as the conformance mock and RFC 7523bis expect). */
  audience: string;
  key: CryptoKey;
  alg: JwsAlgorithm;
  kid?: string;
  /** Epoch milliseconds. */
  now: number;
}

/** The private_key_jwt client assertion (RFC 7523 §2.2, §3): iss = sub = client_id, short-lived, single-use jti. */
export function clientAssertion(o: ClientAssertionOptions): Promise<string> {
  const iat = Math.floor(o.now / 1000);
  return signJwt({ typ: 'JWT', ...(o.kid ? { kid: o.kid } : {}) }, { iss: o.clientId, sub: o.clientId, aud: o.audience, iat, exp: iat + 60, jti: randomString(32) }, o.key, o.alg);
}
