// createOAuth's browserless grants, DPoP and the 2025-03-26 fallback, driven through its HttpAuth
// face (challenged, then headers) with an injected fetch that plays the metadata documents, the
// token endpoint and an IdP: what is sent, what is refused, and what is never retried.

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { AuthError, createOAuth, memoryStore, serverKey, type OAuthOptions, type StoredTokens } from '../packages/client/src/auth/index.js';

const MCP = 'https://mcp.example/mcp';
const AS = 'https://as.example';
const signal = AbortSignal.timeout(10_000);
const subtle = globalThis.crypto.subtle;

interface Seen {
  url: string;
  headers: Headers;
  body: URLSearchParams;
}

type Route = (seen: Seen) => Response | undefined;

/** A fetch that answers from `routes` (first match wins), 404 otherwise, and records every request. */
function fakeFetch(routes: Record<string, Route | Record<string, unknown>>) {
  const seen: Seen[] = [];
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const entry: Seen = { url, headers: new Headers(init?.headers), body: new URLSearchParams(typeof init?.body === 'string' ? init.body : '') };
    seen.push(entry);
    const route = routes[url];
    const answer = typeof route === 'function' ? route(entry) : route ? Response.json(route) : undefined;
    return answer ?? new Response('not found', { status: 404 });
  };
  return { fetch: fetchFn, seen, at: (url: string) => seen.filter((s) => s.url === url) };
}

const prm = { resource: MCP, authorization_servers: [AS] };
const asMetadata = (extra: Record<string, unknown> = {}) => ({ issuer: AS, authorization_endpoint: `${AS}/authorize`, token_endpoint: `${AS}/token`, ...extra });
const challenge = (value: string, status = 401, extra: Record<string, string> = {}) => ({ status, headers: new Headers({ 'WWW-Authenticate': value, ...extra }), url: MCP });
const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;

function discovery(extra: Record<string, unknown> = {}) {
  return {
    'https://mcp.example/.well-known/oauth-protected-resource/mcp': prm,
    'https://as.example/.well-known/oauth-authorization-server': asMetadata(extra),
  };
}

async function refused(promise: Promise<unknown>, pattern: RegExp): Promise<AuthError> {
  const error = await promise.then(() => assert.fail('expected an AuthError'), (e: unknown) => e);
  assert.ok(error instanceof AuthError, String(error));
  assert.match(error.message, pattern);
  return error;
}

test('client credentials with a key: private_key_jwt by default, the challenged scope without offline_access, then Bearer', { timeout: 10_000 }, async () => {
  const pair = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const mock = fakeFetch({
    ...discovery({ token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_basic'], scopes_supported: ['mcp:tools', 'offline_access'] }),
    [`${AS}/token`]: { access_token: 'cc-access', token_type: 'Bearer', expires_in: 60 },
  });
  const auth = createOAuth({ fetch: mock.fetch, grant: { type: 'client_credentials' }, clientId: 'svc', clientKey: { privateKey: pair.privateKey } });
  assert.equal(await auth.challenged(challenge('Bearer scope="mcp:tools"'), signal), true);
  const [request] = mock.at(`${AS}/token`);
  assert.ok(request);
  const body = Object.fromEntries(request.body);
  assert.equal(body.grant_type, 'client_credentials');
  assert.equal(body.scope, 'mcp:tools');
  assert.equal(body.resource, MCP);
  assert.equal(body.client_id, 'svc');
  assert.equal(body.client_assertion_type, 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
  assert.equal(request.headers.get('authorization'), null);
  assert.equal(request.headers.get('dpop'), null, 'no DPoP where nobody asked for it');
  const assertion = body.client_assertion;
  const [h, c, s] = assertion.split('.');
  assert.equal(await subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, pair.publicKey, Buffer.from(s, 'base64url'), new TextEncoder().encode(`${h}.${c}`)), true);
  assert.deepEqual([claims(assertion).iss, claims(assertion).sub, claims(assertion).aud], ['svc', 'svc', AS]);
  assert.deepEqual(await auth.headers({ url: MCP, method: 'POST', signal }), { Authorization: 'Bearer cc-access' });
});

test('client credentials needs a client id; a secret goes as Basic where offered', { timeout: 10_000 }, async () => {
  assert.throws(() => createOAuth({ grant: { type: 'client_credentials' } }), /needs clientId/);
  const mock = fakeFetch({ ...discovery({ token_endpoint_auth_methods_supported: ['client_secret_basic'] }), [`${AS}/token`]: { access_token: 'cc', token_type: 'bearer' } });
  const auth = createOAuth({ fetch: mock.fetch, grant: { type: 'client_credentials' }, clientId: 'svc', clientSecret: 's3cret' });
  await auth.challenged(challenge('Bearer'), signal);
  assert.equal(mock.at(`${AS}/token`)[0].headers.get('authorization'), `Basic ${btoa('svc:s3cret')}`);
  assert.equal(mock.at(`${AS}/token`)[0].body.get('client_secret'), null);
});

test('workload identity: the assertion is asked for the issuer; invalid_grant ends it with one token request', { timeout: 10_000 }, async () => {
  const audiences: string[] = [];
  const mock = fakeFetch({ ...discovery(), [`${AS}/token`]: () => Response.json({ error: 'invalid_grant', error_description: 'expired' }, { status: 400 }) });
  const auth = createOAuth({ fetch: mock.fetch, grant: { type: 'jwt_bearer', assertion: (aud) => (audiences.push(aud), 'workload.jwt.value') } });
  const error = await refused(auth.challenged(challenge('Bearer'), signal), /refused the JWT bearer grant \(HTTP 400: invalid_grant expired\)/);
  assert.match(error.hint ?? '', /assertion/);
  assert.deepEqual(audiences, [AS]);
  const requests = mock.at(`${AS}/token`);
  assert.equal(requests.length, 1);
  assert.equal(requests[0].body.get('grant_type'), 'urn:ietf:params:oauth:grant-type:jwt-bearer');
  assert.equal(requests[0].body.get('assertion'), 'workload.jwt.value');
  assert.equal(requests[0].body.get('client_id'), null, 'no client id was configured');
  assert.doesNotMatch(`${error.message} ${error.hint}`, /workload\.jwt\.value/);
});

test('enterprise: the ID token is exchanged for an ID-JAG aimed at the issuer, which becomes the JWT bearer assertion; anything but an ID-JAG is refused', { timeout: 10_000 }, async () => {
  const idp = 'https://idp.example/token';
  let issued = 'urn:ietf:params:oauth:token-type:id-jag';
  const mock = fakeFetch({
    ...discovery(),
    [idp]: () => Response.json({ access_token: 'the.id.jag', issued_token_type: issued, token_type: 'N_A' }),
    [`${AS}/token`]: { access_token: 'at', token_type: 'Bearer' },
  });
  const options: OAuthOptions = { fetch: mock.fetch, clientId: 'mcp-client', clientSecret: 'mcp-secret', grant: { type: 'enterprise', idToken: () => 'the.id.token', idp: { tokenEndpoint: idp, clientId: 'idp-client' } } };
  await createOAuth(options).challenged(challenge('Bearer scope="read"'), signal);
  const exchange = Object.fromEntries(mock.at(idp)[0].body);
  assert.deepEqual(exchange, {
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
    subject_token: 'the.id.token',
    subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    audience: AS,
    resource: MCP,
    scope: 'read',
    client_id: 'idp-client',
  });
  const grant = mock.at(`${AS}/token`)[0];
  assert.equal(grant.body.get('assertion'), 'the.id.jag');
  assert.equal(grant.body.get('grant_type'), 'urn:ietf:params:oauth:grant-type:jwt-bearer');
  assert.equal(grant.headers.get('authorization'), `Basic ${btoa('mcp-client:mcp-secret')}`);

  issued = 'urn:ietf:params:oauth:token-type:access_token';
  const before = mock.at(`${AS}/token`).length;
  await refused(createOAuth(options).challenged(challenge('Bearer'), signal), /not an ID-JAG/);
  assert.equal(mock.at(`${AS}/token`).length, before, 'nothing reached the authorization server');
});

test('DPoP: asked for when both sides take it, nonces retried once per new nonce, the token bound to the key and presented with the DPoP scheme', { timeout: 10_000 }, async () => {
  let nonceAnswers = 0;
  const mock = fakeFetch({
    ...discovery({ dpop_signing_alg_values_supported: ['ES256'] }),
    [`${AS}/token`]: ({ headers }) => {
      const proof = headers.get('dpop');
      if (!proof) return Response.json({ access_token: 'plain', token_type: 'Bearer' });
      if (claims(proof).nonce !== 'as-nonce') return nonceAnswers++, Response.json({ error: 'use_dpop_nonce' }, { status: 400, headers: { 'DPoP-Nonce': 'as-nonce' } });
      return Response.json({ access_token: 'bound', token_type: 'DPoP' });
    },
  });
  const auth = createOAuth({ fetch: mock.fetch, grant: { type: 'client_credentials' }, clientId: 'svc' });
  assert.equal(await auth.challenged(challenge('DPoP algs="ES256"'), signal), true);
  assert.equal(nonceAnswers, 1);
  const [first, second] = mock.at(`${AS}/token`);
  assert.equal(claims(first.headers.get('dpop')!).htu, `${AS}/token`);
  assert.equal(claims(second.headers.get('dpop')!).nonce, 'as-nonce');

  const sent = await auth.headers({ url: MCP, method: 'GET', signal });
  assert.equal(sent.Authorization, 'DPoP bound');
  const proof = claims(sent.DPoP);
  assert.deepEqual([proof.htm, proof.htu, proof.nonce], ['GET', MCP, undefined]);
  assert.equal(typeof proof.ath, 'string');
  // The resource server's nonce: one retry for a new one, none for the same one again.
  const rsNonce = challenge('DPoP error="use_dpop_nonce"', 401, { 'DPoP-Nonce': 'rs-nonce' });
  assert.equal(await auth.challenged(rsNonce, signal), true);
  assert.equal(claims((await auth.headers({ url: MCP, method: 'POST', signal })).DPoP).nonce, 'rs-nonce');
  assert.equal(await auth.challenged(rsNonce, signal), false);
});

test('DPoP: not asked for when only the authorization server offers it; a second use_dpop_nonce is not retried; a token bound to another key is never sent', { timeout: 10_000 }, async () => {
  const plain = fakeFetch({ ...discovery({ dpop_signing_alg_values_supported: ['ES256'] }), [`${AS}/token`]: { access_token: 'plain', token_type: 'Bearer' } });
  await createOAuth({ fetch: plain.fetch, grant: { type: 'client_credentials' }, clientId: 'svc' }).challenged(challenge('Bearer'), signal);
  assert.equal(plain.at(`${AS}/token`)[0].headers.get('dpop'), null);

  let n = 0;
  const nagging = fakeFetch({ ...discovery(), [`${AS}/token`]: () => Response.json({ error: 'use_dpop_nonce' }, { status: 400, headers: { 'DPoP-Nonce': `n-${++n}` } }) });
  const forced = createOAuth({ fetch: nagging.fetch, grant: { type: 'client_credentials' }, clientId: 'svc', dpop: true });
  await refused(forced.challenged(challenge('Bearer'), signal), /use_dpop_nonce/);
  assert.equal(nagging.at(`${AS}/token`).length, 2);

  const held = (tokens: StoredTokens) => memoryStore({ version: 1, clients: {}, servers: { [serverKey(MCP)]: { issuer: AS, resource: MCP, tokens: { [AS]: tokens } } } });
  const elsewhere = { access_token: 'bound-elsewhere', token_type: 'DPoP', dpop_jkt: 'another-key', resource: MCP };
  assert.deepEqual(await createOAuth({ store: held(elsewhere) }).headers({ url: MCP, method: 'POST', signal }), {});
  // The same store entry, unbound, is sent: the key is what kept it back.
  assert.deepEqual(await createOAuth({ store: held({ ...elsewhere, token_type: 'Bearer', dpop_jkt: undefined }) }).headers({ url: MCP, method: 'POST', signal }), { Authorization: 'Bearer bound-elsewhere' });
});

test('2025-03-26: no resource metadata, so the origin\'s authorization server metadata (an issuer elsewhere is not taken), else /authorize, /token, /register', { timeout: 10_000 }, async () => {
  const root = 'https://mcp.example/.well-known/oauth-authorization-server';
  const metadata = { issuer: 'https://evil.example', authorization_endpoint: 'https://mcp.example/oauth/authorize', token_endpoint: 'https://mcp.example/oauth/token', code_challenge_methods_supported: ['S256'] };
  const withMetadata = fakeFetch({ [root]: metadata, 'https://mcp.example/oauth/token': { access_token: 'legacy', token_type: 'Bearer' } });
  const first = createOAuth({ fetch: withMetadata.fetch, grant: { type: 'client_credentials' }, clientId: 'svc' });
  await first.challenged(challenge('Bearer'), signal);
  assert.equal(withMetadata.at('https://mcp.example/oauth/token').length, 1);
  assert.equal((await first.status(MCP))?.issuer, 'https://mcp.example');

  const bare = fakeFetch({ 'https://mcp.example/token': { access_token: 'legacy', token_type: 'Bearer' } });
  const second = createOAuth({ fetch: bare.fetch, grant: { type: 'client_credentials' }, clientId: 'svc' });
  await second.challenged(challenge('Bearer'), signal);
  assert.equal(bare.at('https://mcp.example/token')[0].body.get('resource'), MCP);
  assert.deepEqual(await second.headers({ url: MCP, method: 'POST', signal }), { Authorization: 'Bearer legacy' });
});

test('DPoP across processes: the key made by one provider is stored with its bound token and signs the next provider\'s proofs; a given key is never stored', { timeout: 10_000 }, async () => {
  const routes = {
    ...discovery({ dpop_signing_alg_values_supported: ['ES256'] }),
    [`${AS}/token`]: { access_token: 'bound', token_type: 'DPoP' },
  };
  const store = memoryStore();
  await createOAuth({ store, fetch: fakeFetch(routes).fetch, grant: { type: 'client_credentials' }, clientId: 'svc' }).challenged(challenge('DPoP'), signal);
  const stored = (await store.read()).servers[serverKey(MCP)].tokens[AS];
  assert.equal(stored.token_type, 'DPoP');
  assert.equal(typeof stored.dpop_key?.d, 'string');
  const publicKey = await subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', x: stored.dpop_key!.x, y: stored.dpop_key!.y }, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  const later = await createOAuth({ store }).headers({ url: MCP, method: 'POST', signal });
  assert.equal(later.Authorization, 'DPoP bound');
  const [h, c, s] = later.DPoP.split('.');
  assert.equal(await subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, Buffer.from(s, 'base64url'), new TextEncoder().encode(`${h}.${c}`)), true);

  const own = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const keptOut = memoryStore();
  await createOAuth({ store: keptOut, fetch: fakeFetch(routes).fetch, grant: { type: 'client_credentials' }, clientId: 'svc', dpopKey: own }).challenged(challenge('DPoP'), signal);
  const bound = (await keptOut.read()).servers[serverKey(MCP)].tokens[AS];
  assert.equal(bound.dpop_key, undefined);
  // Another provider cannot present it: not sent, and a challenge asks for a login rather than resending it.
  const stranger = createOAuth({ store: keptOut, fetch: fakeFetch(routes).fetch });
  assert.deepEqual(await stranger.headers({ url: MCP, method: 'POST', signal }), {});
  const error = await refused(stranger.challenged(challenge('DPoP'), signal), /no stored token is usable/);
  assert.equal(error.reason, 'login-required');
});

test('DPoP auto: the resource metadata\'s own DPoP fields are enough, without a DPoP challenge', { timeout: 10_000 }, async () => {
  for (const fields of [{ dpop_bound_access_tokens_required: true }, { dpop_signing_alg_values_supported: ['ES256'] }]) {
    const mock = fakeFetch({
      ...discovery({ dpop_signing_alg_values_supported: ['ES256'] }),
      'https://mcp.example/.well-known/oauth-protected-resource/mcp': { ...prm, ...fields },
      [`${AS}/token`]: { access_token: 'bound', token_type: 'DPoP' },
    });
    await createOAuth({ fetch: mock.fetch, grant: { type: 'client_credentials' }, clientId: 'svc' }).challenged(challenge('Bearer'), signal);
    assert.equal(typeof mock.at(`${AS}/token`)[0].headers.get('dpop'), 'string', JSON.stringify(fields));
  }
});
