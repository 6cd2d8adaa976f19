// The signed JWTs byhand makes, checked from the outside: the private_key_jwt client assertion and
// the DPoP proofs are verified with Web Crypto against the public key, and their hashes (ath, the
// RFC 7638 thumbprint) recomputed with node:crypto, independently of the code under test.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from './support/node-test.js';
import { createDpop } from '../packages/client/src/auth/dpop.js';
import { clientAssertion, importPrivateKey, jwkThumbprint } from '../packages/client/src/auth/jwt.js';

const subtle = globalThis.crypto.subtle;
const ES256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

function decode(jwt: string): { header: Record<string, unknown>; claims: Record<string, unknown>; input: Uint8Array<ArrayBuffer>; signature: Uint8Array<ArrayBuffer> } {
  const [h, c, s] = jwt.split('.');
  assert.ok(h && c && s, 'three parts');
  const json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: json(h), claims: json(c), input: new TextEncoder().encode(`${h}.${c}`), signature: new Uint8Array(Buffer.from(s, 'base64url')) };
}

async function verifies(jwt: string, key: CryptoKey): Promise<boolean> {
  const { input, signature } = decode(jwt);
  return subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature, input);
}

async function pemPair(): Promise<{ pem: string; publicKey: CryptoKey }> {
  const pair = await subtle.generateKey(ES256, true, ['sign', 'verify']);
  const der = Buffer.from(await subtle.exportKey('pkcs8', pair.privateKey)).toString('base64');
  return { pem: `-----BEGIN PRIVATE KEY-----\n${der.replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----\n`, publicKey: pair.publicKey };
}

test('private_key_jwt: an ES256 assertion from a PKCS#8 PEM, iss = sub = client_id, aud the issuer, one minute, a fresh jti', { timeout: 10_000 }, async () => {
  const { pem, publicKey } = await pemPair();
  const key = await importPrivateKey(pem, 'ES256');
  const now = 1_800_000_000_500;
  const first = await clientAssertion({ clientId: 'client-1', audience: 'https://as.example', key, alg: 'ES256', kid: 'k1', now });
  const second = await clientAssertion({ clientId: 'client-1', audience: 'https://as.example', key, alg: 'ES256', now });
  assert.equal(await verifies(first, publicKey), true);
  const { header, claims } = decode(first);
  assert.deepEqual(header, { typ: 'JWT', kid: 'k1', alg: 'ES256' });
  assert.equal(claims.iss, 'client-1');
  assert.equal(claims.sub, 'client-1');
  assert.equal(claims.aud, 'https://as.example');
  assert.equal(claims.iat, 1_800_000_000);
  assert.equal(claims.exp, 1_800_000_060);
  assert.match(String(claims.jti), /^[\w.~-]{32}$/);
  assert.notEqual(decode(second).claims.jti, claims.jti);
  // Tampering breaks it: the signature covers the claims.
  const [h, , s] = first.split('.');
  const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${s}`;
  assert.equal(await verifies(forged, publicKey), false);
  await assert.rejects(importPrivateKey('not a pem', 'ES256'), /PKCS#8 PEM/);
});

test('DPoP proof: typ dpop+jwt, the public jwk only, htm, htu without query or fragment, iat, a new jti each time, ath of the token', { timeout: 10_000 }, async () => {
  const dpop = createDpop(undefined, () => 1_800_000_000_999);
  const proof = await dpop.proof({ method: 'post', url: 'https://rs.example:8443/mcp?session=1#frag', accessToken: 'the-access-token' });
  const { header, claims } = decode(proof);
  assert.equal(header.typ, 'dpop+jwt');
  assert.equal(header.alg, 'ES256');
  const jwk = header.jwk as JsonWebKey;
  assert.deepEqual(Object.keys(jwk).sort(), ['crv', 'kty', 'x', 'y'], 'no private member, no key_ops');
  assert.equal(await verifies(proof, await subtle.importKey('jwk', jwk, ES256, false, ['verify'])), true);
  assert.equal(claims.htm, 'POST');
  assert.equal(claims.htu, 'https://rs.example:8443/mcp');
  assert.equal(claims.iat, 1_800_000_000);
  assert.equal(claims.ath, createHash('sha256').update('the-access-token', 'ascii').digest('base64url'));
  assert.equal(claims.nonce, undefined);
  const token = decode(await dpop.proof({ method: 'POST', url: 'https://as.example/token' }));
  assert.equal(token.claims.ath, undefined, 'no ath at the token endpoint');
  assert.notEqual(token.claims.jti, claims.jti);
  assert.deepEqual(token.header.jwk, jwk, 'one key for every proof');
  // RFC 7638: SHA-256 over the required members in lexicographic order, recomputed here.
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  assert.equal(await dpop.thumbprint(), createHash('sha256').update(canonical).digest('base64url'));
});

test('DPoP nonces: kept per origin from DPoP-Nonce, new ones reported once, put in every later proof to that origin only', { timeout: 10_000 }, async () => {
  const dpop = createDpop();
  assert.equal(dpop.observe('https://as.example/token', new Headers()), false);
  assert.equal(dpop.observe('https://as.example/token', new Headers({ 'DPoP-Nonce': 'n-1' })), true);
  assert.equal(dpop.observe('https://as.example/other', new Headers({ 'DPoP-Nonce': 'n-1' })), false, 'the same nonce again is not news');
  assert.equal(decode(await dpop.proof({ method: 'POST', url: 'https://as.example/token' })).claims.nonce, 'n-1');
  assert.equal(decode(await dpop.proof({ method: 'GET', url: 'https://rs.example/mcp', accessToken: 't' })).claims.nonce, undefined);
  assert.equal(dpop.observe('https://as.example/token', new Headers({ 'DPoP-Nonce': 'n-2' })), true);
  assert.equal(decode(await dpop.proof({ method: 'POST', url: 'https://as.example/token' })).claims.nonce, 'n-2');
});

test('DPoP with a given key pair: proofs are signed by it and the thumbprint is its own', { timeout: 10_000 }, async () => {
  const pair = await subtle.generateKey(ES256, false, ['sign', 'verify']);
  const dpop = createDpop(pair);
  const proof = await dpop.proof({ method: 'GET', url: 'https://rs.example/mcp', accessToken: 't' });
  assert.equal(await verifies(proof, pair.publicKey), true);
  assert.equal(await dpop.thumbprint(), await jwkThumbprint(await subtle.exportKey('jwk', pair.publicKey)));
});
