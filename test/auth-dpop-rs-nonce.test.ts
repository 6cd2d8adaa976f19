// A resource server that rotates its DPoP nonce on every answer (RFC 9449 §8.2, §9: a new nonce may come on any
// response, and the client uses it in its next proof). byhand's client takes the nonce from each 2xx, so only the
// first request, sent before any nonce was known, is refused with use_dpop_nonce; counted over loopback HTTP.

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from './support/node-test.js';
import { connect } from '../packages/client/src/index.js';
import { createOAuth, memoryStore, serverKey } from '../packages/client/src/auth/index.js';
import { jwkThumbprint } from '../packages/client/src/auth/jwt.js';
import { createKitchen } from '../packages/servers/src/index.js';
import { writeWebResponse } from '../packages/servers/src/edge/node-adapter.js';

const AS = 'https://as.example';

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const nonceOf = (proof: string) => (JSON.parse(Buffer.from(proof.split('.')[1], 'base64url').toString('utf8')) as { nonce?: string }).nonce;

test('a DPoP-Nonce on a 2xx is used in the next proof: one use_dpop_nonce refusal in all, not one per request', { timeout: 20_000 }, async () => {
  const kitchen = createKitchen();
  let nonce = 0;
  const counts = { answered: 0, refused: 0 };
  const server = createServer(async (req, res) => {
    const text = await body(req);
    const proof = req.headers.dpop;
    if (req.headers.authorization !== 'DPoP bound' || typeof proof !== 'string') return void res.writeHead(400).end('not a DPoP request');
    if (nonceOf(proof) !== `n-${nonce}`) {
      counts.refused++;
      return void res.writeHead(401, { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': `n-${nonce}` }).end();
    }
    counts.answered++;
    res.setHeader('DPoP-Nonce', `n-${++nonce}`);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
    await writeWebResponse(await kitchen.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method!, headers, ...(text ? { body: text } : {}) })), res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;

  // A token already bound to a key byhand holds, as a provider that obtained it earlier would have stored it.
  const pair = await globalThis.crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const jwk = await globalThis.crypto.subtle.exportKey('jwk', pair.privateKey);
  const tokens = { access_token: 'bound', token_type: 'DPoP', resource: url, dpop_jkt: await jwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }), dpop_key: jwk };
  const store = memoryStore({ version: 1, clients: {}, servers: { [serverKey(url)]: { issuer: AS, resource: url, tokens: { [AS]: tokens } } } });
  const client = await connect(url, { auth: createOAuth({ store }), era: 'modern' });
  try {
    await client.listTools();
    await client.listPrompts();
    await client.listResources();
    assert.ok(counts.answered >= 3, `requests answered: ${counts.answered}`);
    assert.equal(counts.refused, 1, 'only the first request, before any nonce was known, is refused');
  } finally {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
