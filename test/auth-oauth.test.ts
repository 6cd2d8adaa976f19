// createOAuth against a strict mock authorization server and protected Kitchen servers on
// 127.0.0.1: the happy path, then each refusal (wrong iss, mismatched resource, a token for another
// server, expiry with and without a refresh token, a forged state, a PKCE verifier that does not
// match), the credentials file's permissions; after each, a sweep that nothing printed, traced or thrown contains a
// token, code or secret the mocks issued.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, test } from './support/node-test.js';
import {
  AuthError, authorizationServerMetadataUrls, bearerParams, createOAuth, memoryStore, parseWwwAuthenticate, resourceMetadataUrls,
  type CredentialStore, type OAuthOptions,
} from '../packages/client/src/auth/index.js';
import { fileStore } from '../packages/client/src/auth/file-store.js';
import { connect, McpError, VerdictCache, type TraceEntry } from '../packages/client/src/index.js';
import { clickThrough, startMockAs, startMockRs, type Clock, type MockAs } from './auth-mock.js';

const REDIRECT = 'http://127.0.0.1:49152/callback';
const scratch = mkdtempSync(join(tmpdir(), 'byhand-auth-'));
/** Everything that a person could see: traces, events, error messages and hints. */
const visible: string[] = [];
const servers: MockAs[] = [];
after(() => rmSync(scratch, { recursive: true, force: true }));

function provider(extra: Partial<OAuthOptions> & { store?: CredentialStore } = {}, browser: (url: URL) => Promise<URL> = clickThrough) {
  let authorizations = 0;
  const auth = createOAuth({
    redirectUri: REDIRECT,
    authorize: async (url) => {
      authorizations++;
      return browser(url);
    },
    onEvent: (text) => visible.push(text),
    ...extra,
  });
  return { auth, authorizations: () => authorizations };
}

async function session(url: string, auth: ReturnType<typeof createOAuth>) {
  const client = await connect(url, { auth, verdicts: new VerdictCache(), onTrace: (entry: TraceEntry) => visible.push(JSON.stringify(entry)) });
  try {
    return (await client.listTools()).map((t) => t.name);
  } finally {
    await client.close();
  }
}

async function refusal(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => assert.fail('expected an AuthError'),
    (e: unknown) => e,
  );
  if (error instanceof McpError) visible.push(error.explain());
  assert.ok(error instanceof AuthError, `expected an AuthError, got ${String(error)}`);
  return error;
}

async function mockAs(options: Parameters<typeof startMockAs>[0] = {}) {
  const as = await startMockAs(options);
  servers.push(as);
  return as;
}

test('WWW-Authenticate: several challenges, quoted values with commas and escapes, token68', () => {
  const header = 'Basic realm="x", Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp", error_description="a \\"quoted\\", text", Negotiate abc123==';
  const all = parseWwwAuthenticate(header);
  assert.deepEqual(all.map((c) => c.scheme), ['basic', 'bearer', 'negotiate']);
  assert.deepEqual(bearerParams(header), {
    error: 'insufficient_scope',
    scope: 'files:read files:write',
    resource_metadata: 'https://a.example/.well-known/oauth-protected-resource/mcp',
    error_description: 'a "quoted", text',
  });
  assert.equal(all[2].params.token68, 'abc123==');
  assert.deepEqual(bearerParams('Bearer'), {});
  assert.deepEqual(bearerParams(null), {});
});

test('discovery order: challenge URL, path-based, root; AS metadata per the spec for issuers with and without a path', () => {
  assert.deepEqual(resourceMetadataUrls('https://s.example/public/mcp', 'https://s.example/custom.json'), [
    'https://s.example/custom.json',
    'https://s.example/.well-known/oauth-protected-resource/public/mcp',
    'https://s.example/.well-known/oauth-protected-resource',
  ]);
  assert.deepEqual(resourceMetadataUrls('https://s.example/'), ['https://s.example/.well-known/oauth-protected-resource']);
  assert.deepEqual(authorizationServerMetadataUrls('https://auth.example.com/tenant1'), [
    'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
    'https://auth.example.com/.well-known/openid-configuration/tenant1',
    'https://auth.example.com/tenant1/.well-known/openid-configuration',
  ]);
  assert.deepEqual(authorizationServerMetadataUrls('https://auth.example.com'), [
    'https://auth.example.com/.well-known/oauth-authorization-server',
    'https://auth.example.com/.well-known/openid-configuration',
  ]);
});

test('the whole flow: 401, discovery, registration (application_type native), PKCE, resource, then the token on every request', async () => {
  const as = await mockAs();
  const rs = await startMockRs(as);
  try {
    const { auth, authorizations } = provider();
    const tools = await session(rs.url, auth);
    assert.ok(tools.length > 0);
    assert.equal(authorizations(), 1);
    assert.equal(as.counts.register, 1);
    assert.equal(rs.seen[0], undefined, 'the first request goes without a token');
    assert.ok(rs.seen.slice(1).every((h) => h?.startsWith('Bearer at-')), 'every later request carries the token');
    const [issued] = [...as.tokens.values()];
    assert.equal(issued.resource, rs.url, 'the token was requested for this server (RFC 8707)');
  } finally {
    await rs.close();
  }
});

test('a 401 from a server with no OAuth metadata at all: the 2025-03-26 defaults are tried, and the failure says what to do', { timeout: 15_000 }, async () => {
  const { createServer } = await import('node:http');
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    req.resume();
    if (req.url === '/mcp') res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    const { auth, authorizations } = provider();
    const error = await refusal(session(`http://127.0.0.1:${port}/mcp`, auth));
    assert.match(error.message, /dynamic client registration at http:\/\/127\.0\.0\.1:\d+\/register failed \(HTTP 404\)/);
    assert.match(error.hint, /publishes no OAuth metadata.*in an Authorization header, `headers`/);
    assert.equal(authorizations(), 0, 'no browser is opened for a server that cannot register byhand');
    assert.ok(paths.includes('GET /.well-known/oauth-authorization-server'), paths.join(', '));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a wrong iss on the redirect is refused before the code reaches the token endpoint', async () => {
  const as = await mockAs({ iss: 'wrong' });
  const rs = await startMockRs(as);
  try {
    const error = await refusal(session(rs.url, provider().auth));
    assert.equal(error.reason, 'issuer-mismatch');
    assert.match(error.message, /evil\.example\.com/);
    assert.equal(as.counts.token, 0);
  } finally {
    await rs.close();
  }
});

test('an advertised iss that is missing is refused too; an unadvertised, absent one is fine', async () => {
  const strict = await mockAs({ iss: 'omit', issAdvertised: true });
  const rs = await startMockRs(strict);
  const lax = await mockAs({ iss: 'omit', issAdvertised: false });
  const rs2 = await startMockRs(lax);
  try {
    const error = await refusal(session(rs.url, provider().auth));
    assert.equal(error.reason, 'issuer-mismatch');
    assert.equal(strict.counts.token, 0);
    assert.ok((await session(rs2.url, provider().auth)).length > 0);
  } finally {
    await rs.close();
    await rs2.close();
  }
});

test('metadata for another resource is refused, and the authorization server is never contacted', async () => {
  const as = await mockAs();
  const other = await startMockRs(as);
  const rs = await startMockRs(as, { resource: () => other.url });
  try {
    const error = await refusal(session(rs.url, provider().auth));
    assert.equal(error.reason, 'resource-mismatch');
    assert.deepEqual(as.log, [], 'nothing was sent to the authorization server');
  } finally {
    await rs.close();
    await other.close();
  }
});

test("a token for one server is never sent to another; a server that refuses a token (wrong audience) gets a new one of its own", async () => {
  const as = await mockAs();
  const a = await startMockRs(as);
  const b = await startMockRs(as);
  const store = memoryStore();
  try {
    await session(a.url, provider({ store }).auth);
    const tokenA = a.seen.at(-1)!;
    const second = provider({ store });
    await session(b.url, second.auth);
    assert.ok(!b.seen.includes(tokenA), "A's token never reached B");
    assert.equal(second.authorizations(), 1, 'B needed its own authorization');

    // A store that holds A's token under B's name, even claiming B as its resource (a copied or
    // tampered file): B refuses it (wrong audience), the provider does not loop on it, and
    // stored-token mode then asks for a login.
    const doc = await store.read();
    const entryA = doc.servers[a.url];
    const forgedTokens = { ...entryA.tokens[as.issuer], resource: b.url };
    delete forgedTokens.refresh_token;
    const planted = memoryStore({ ...doc, servers: { ...doc.servers, [b.url]: { ...entryA, resource: b.url, tokens: { [as.issuer]: forgedTokens } } } });
    // Left as it was (resource A), the copy is not even sent.
    const copied = memoryStore({ ...doc, servers: { ...doc.servers, [b.url]: entryA } });
    const seenBefore = b.seen.length;
    await refusal(session(b.url, createOAuth({ store: copied })));
    assert.ok(!b.seen.slice(seenBefore).includes(tokenA), 'a token stored for A is not sent to B');
    const stored = createOAuth({ store: planted, onEvent: (t) => visible.push(t) });
    const error = await refusal(session(b.url, stored));
    assert.equal(error.reason, 'login-required');
    assert.match(error.hint, /^log in to http:\/\/127\.0\.0\.1:\d+\/mcp first: give an `authorize` function/);
    assert.ok(b.seen.includes(tokenA), 'the forged entry was tried once');
    const interactive = provider({ store: planted });
    assert.ok((await session(b.url, interactive.auth)).length > 0);
    assert.equal(interactive.authorizations(), 1);
    assert.equal(as.validate(b.seen.at(-1)!.slice(7), b.url), 'ok', 'B now holds a token issued for B');
  } finally {
    await a.close();
    await b.close();
  }
});

test('an expired token is refreshed, without a browser, before it is sent; a refused one is refreshed on the 401', async () => {
  const clock: Clock = { now: Date.now() };
  const as = await mockAs({ clock, ttl: 60 });
  const rs = await startMockRs(as);
  const store = memoryStore();
  try {
    const { auth, authorizations } = provider({ store, now: () => clock.now });
    await session(rs.url, auth);
    clock.now += 120_000;
    await session(rs.url, auth);
    assert.equal(as.counts.refresh, 1, 'refreshed once');
    assert.equal(authorizations(), 1, 'no second browser step');
    assert.equal(as.validate(rs.seen.at(-1)!.slice(7), rs.url), 'ok');

    // The server-side expiry comes first (the client's clock says the token is fine): 401, refresh, retry.
    const stored = createOAuth({ store, now: () => clock.now - 3_600_000 });
    clock.now += 120_000;
    assert.ok((await session(rs.url, stored)).length > 0);
    assert.equal(as.counts.refresh, 2);
  } finally {
    await rs.close();
  }
});

test('a token with under 30 s to live is not sent, and the login asked for says why', async () => {
  const clock: Clock = { now: Date.now() };
  const as = await mockAs({ clock, ttl: 20, refreshTokens: false });
  const rs = await startMockRs(as);
  const store = memoryStore();
  try {
    await session(rs.url, provider({ store, now: () => clock.now }).auth).catch(() => undefined);
    const error = await refusal(session(rs.url, createOAuth({ store, now: () => clock.now })));
    assert.equal(error.reason, 'login-required');
    assert.match(error.message, /: the stored token expires at \S+Z, under 30 s from now, which is too soon to send it/);
  } finally {
    await rs.close();
  }
});

test('an expired token without a refresh token: stored-token mode says to log in; interactive mode authorizes again', async () => {
  const clock: Clock = { now: Date.now() };
  const as = await mockAs({ clock, ttl: 60, refreshTokens: false });
  const rs = await startMockRs(as);
  const store = memoryStore();
  try {
    const first = provider({ store, now: () => clock.now });
    await session(rs.url, first.auth);
    clock.now += 120_000;
    const stored = createOAuth({ store, now: () => clock.now, loginHint: () => 'run `byhand login kitchen`' });
    const error = await refusal(session(rs.url, stored));
    assert.equal(error.reason, 'login-required');
    assert.equal(error.hint, 'run `byhand login kitchen`');
    const expiredAt = (await store.read()).servers[rs.url].tokens[as.issuer].expires_at!;
    assert.match(error.message, new RegExp(`no stored token is usable: the stored token expired at ${new Date(expiredAt).toISOString()}$`));
    const seenBefore = rs.seen.length;
    await session(rs.url, first.auth);
    assert.equal(first.authorizations(), 2);
    assert.equal(as.counts.refresh, 0);
    assert.equal(rs.seen[seenBefore], undefined, 'the expired token is not sent at all');
  } finally {
    await rs.close();
  }
});

test('a redirect whose state is not this login\'s is refused, and its code is never redeemed', async () => {
  const as = await mockAs();
  const rs = await startMockRs(as);
  try {
    const forged = provider({}, async (url) => {
      const back = await clickThrough(url);
      back.searchParams.set('state', 'attacker-state');
      return back;
    });
    const error = await refusal(session(rs.url, forged.auth));
    assert.equal(error.reason, 'state');
    assert.equal(as.counts.token, 0);
    // No state at all is the same refusal.
    const stripped = provider({}, async (url) => {
      const back = await clickThrough(url);
      back.searchParams.delete('state');
      return back;
    });
    assert.equal((await refusal(session(rs.url, stripped.auth))).reason, 'state');
  } finally {
    await rs.close();
  }
});

test("an injected code bound to another PKCE challenge fails at the token endpoint, and the error names no code", async () => {
  const as = await mockAs();
  const rs = await startMockRs(as);
  try {
    let injected = '';
    const attacker = provider({}, async (url) => {
      // The attacker started their own authorization with their own challenge and slips that code in.
      const theirs = new URL(url);
      theirs.searchParams.set('code_challenge', 'A'.repeat(43));
      injected = (await clickThrough(theirs)).searchParams.get('code')!;
      const back = await clickThrough(url);
      back.searchParams.set('code', injected);
      return back;
    });
    const error = await refusal(session(rs.url, attacker.auth));
    assert.equal(error.reason, 'token');
    assert.match(error.message, /invalid_grant/);
    assert.match(error.hint, /PKCE verifier/);
    assert.ok(!error.explain().includes(injected));
  } finally {
    await rs.close();
  }
});

test('the credentials file: 0600 in a 0700 directory (tightened if looser), tokens keyed by server URL and issuer', async () => {
  const as = await mockAs();
  const rs = await startMockRs(as);
  const dir = join(scratch, 'config', 'byhand');
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  chmodSync(dir, 0o755);
  const file = join(dir, 'credentials.json');
  try {
    await session(rs.url, provider({ store: fileStore(file) }).auth);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(doc.servers[rs.url].issuer, as.issuer);
    assert.ok(doc.servers[rs.url].tokens[as.issuer].access_token.startsWith('at-'));
    assert.ok(doc.clients[as.issuer].client_id.startsWith('client-'), 'the registration is kept under its issuer');
    // A second process reads the same file: stored-token mode works without a browser.
    assert.ok((await session(rs.url, createOAuth({ store: fileStore(file) }))).length > 0);
  } finally {
    await rs.close();
  }
});

/** Every secret the mocks issued so far that something visible carries. */
function leaked(): string[] {
  const text = visible.join('\n');
  return [...new Set(servers.flatMap((s) => [...s.secrets]))].filter((secret) => text.includes(secret));
}

// Each test on its own: nothing it traced, told or threw carries a secret any mock issued.
afterEach(() => assert.deepEqual(leaked(), [], 'a token, code or secret was traced, told or thrown'));

test('nothing traced, told or thrown in a whole login carries a token, code or secret; the header shows, redacted', async (t) => {
  const as = await mockAs();
  const rs = await startMockRs(as);
  t.after(() => rs.close());
  const seen = visible.length;
  assert.ok((await session(rs.url, provider().auth)).length > 0);
  assert.ok(as.secrets.size >= 3, `the login issued secrets to look for (a code, a token, a client secret): ${as.secrets.size}`);
  assert.deepEqual(leaked(), []);
  assert.match(visible.slice(seen).join('\n'), /"Authorization":"\(redacted\)"/, 'traces show the header was sent, redacted');
});

after(async () => {
  for (const s of servers) await s.close();
});
