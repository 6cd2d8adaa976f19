// Authorization under hostile conditions (issue 9, the client side): no bearer token over plain http
// beyond loopback, no Protected Resource Metadata trusted from plain http elsewhere, and a credentials
// file that a planted symlink or a loose directory cannot steal from. Each test fails without its fix.

import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { LimitError, connect } from '../packages/client/src/index.js';
import { AuthError, createOAuth, memoryStore, type CredentialDocument } from '../packages/client/src/auth/index.js';
import { fileStore } from '../packages/client/src/auth/file-store.js';
import { json, listen } from './fixtures/loopback.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-auth-bounds-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const ISSUER = 'https://as.example.test';

function storedToken(url: string, token = 'the-access-token'): CredentialDocument {
  return { version: 1, clients: {}, servers: { [url]: { issuer: ISSUER, resource: url, tokens: { [ISSUER]: { access_token: token, token_type: 'Bearer', resource: url } } } } };
}

/** A fetch that answers from a script and records every URL asked for; nothing leaves the process. */
function scriptedFetch(answer: (url: string, init: RequestInit | undefined) => Response | Promise<Response>) {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    calls.push({ url, headers: Object.fromEntries(new Headers(init?.headers).entries()) });
    return answer(url, init);
  }) as typeof fetch;
  return { fetch: fetchFn, calls };
}

const challenge = (metadata: string) => new Response('', { status: 401, headers: { 'www-authenticate': `Bearer resource_metadata="${metadata}"` } });

describe('bearer tokens and plain http', () => {
  test('a stored token is not sent to an http:// resource that is not loopback: a clear AuthError, nothing sent', { timeout: 10_000 }, async () => {
    const url = 'http://mcp.example.test/mcp';
    const wire = scriptedFetch(() => Response.json({}));
    const auth = createOAuth({ store: memoryStore(storedToken(url)), fetch: wire.fetch });
    await assert.rejects(
      connect(url, { fetch: wire.fetch, auth }),
      (e: unknown) => e instanceof AuthError && e.reason === 'insecure' && /refusing to send an access token to http:\/\/mcp\.example\.test over plain http/.test(e.message) && /https/.test(e.hint),
    );
    assert.deepEqual(wire.calls, [], 'no request went out, with or without the token');
  });

  test('loopback over plain http keeps working (local development), and https anywhere', { timeout: 10_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await listen((request, res) => json(res, { jsonrpc: '2.0', id: request.json!.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} } })));
    const client = cleanup(await connect(server.url, { auth: createOAuth({ store: memoryStore(storedToken(server.url)) }) }));
    assert.equal(client.era, 'modern');
    assert.equal(server.requests[0].headers.authorization, 'Bearer the-access-token');
    const remote = 'https://mcp.example.test/mcp';
    const headers = await createOAuth({ store: memoryStore(storedToken(remote)) }).headers({ url: remote, method: 'POST', signal: AbortSignal.timeout(1000) });
    assert.deepEqual(headers, { Authorization: 'Bearer the-access-token' });
  });

  test('Protected Resource Metadata is not fetched over plain http from a non-loopback server', { timeout: 10_000 }, async () => {
    const url = 'http://mcp.example.test/mcp';
    const wire = scriptedFetch((target) => (target === url ? challenge('http://mcp.example.test/.well-known/oauth-protected-resource/mcp') : Response.json({ resource: url, authorization_servers: [ISSUER] })));
    await assert.rejects(
      connect(url, { fetch: wire.fetch, auth: createOAuth({ fetch: wire.fetch }) }),
      (e: unknown) => e instanceof AuthError && e.reason === 'insecure' && /protected resource metadata at http:\/\/mcp\.example\.test: it is served over plain http/.test(e.message),
    );
    assert.deepEqual(wire.calls.map((c) => c.url), [url], 'the metadata was never asked for');
  });

  test('a loopback server whose challenge points at metadata on plain http elsewhere is refused before that host is asked', { timeout: 10_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await listen((_request, res) => {
      res.writeHead(401, { 'www-authenticate': 'Bearer resource_metadata="http://evil.example.test/prm"' }).end();
    }));
    const oauthFetch = scriptedFetch(() => Response.json({ resource: server.url, authorization_servers: ['http://evil.example.test'] }));
    await assert.rejects(
      connect(server.url, { auth: createOAuth({ fetch: oauthFetch.fetch }) }),
      (e: unknown) => e instanceof AuthError && e.reason === 'insecure' && /http:\/\/evil\.example\.test/.test(e.message),
    );
    assert.deepEqual(oauthFetch.calls, []);
  });

  test('https metadata that redirects to plain http is not trusted', { timeout: 10_000 }, async () => {
    const url = 'https://mcp.example.test/mcp';
    const wire = scriptedFetch((target) => {
      if (target === url) return challenge('https://mcp.example.test/.well-known/oauth-protected-resource/mcp');
      const redirected = Response.json({ resource: url, authorization_servers: [ISSUER] });
      // What fetch reports after following https -> http: the final URL.
      Object.defineProperty(redirected, 'url', { value: 'http://mcp.example.test/prm' });
      return redirected;
    });
    await assert.rejects(
      connect(url, { fetch: wire.fetch, auth: createOAuth({ fetch: wire.fetch }) }),
      (e: unknown) => e instanceof AuthError && e.reason === 'insecure' && /http:\/\/mcp\.example\.test: it is served over plain http/.test(e.message),
    );
    assert.ok(!wire.calls.some((c) => c.url.startsWith(ISSUER)), 'the authorization server was never asked');
  });
});

test('metadata that never ends is cut off at 1 MiB, not read whole', { timeout: 10_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  const server = cleanup(await listen((_request, res) => {
    res.writeHead(401, { 'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1:9/prm"' }).end();
  }));
  let pulled = 0;
  const endless = scriptedFetch(() => new Response(new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 64 * 1024;
      controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
    },
  }), { headers: { 'content-type': 'application/json' } }));
  await assert.rejects(connect(server.url, { auth: createOAuth({ fetch: endless.fetch }) }), (e: unknown) => e instanceof LimitError && /the metadata at http:\/\/127\.0\.0\.1:9\/prm is larger than 1048576 bytes/.test(e.message));
  assert.ok(pulled < 4 * 1024 * 1024, `pulled ${pulled} bytes`);
});

describe('the credentials file', () => {
  const doc = (token: string) => (d: CredentialDocument) => {
    Object.assign(d, storedToken('https://mcp.example.test/mcp', token));
  };

  test('a symlink planted at the old temporary name receives nothing; the save leaves one regular 0600 file', { timeout: 10_000 }, async () => {
    const dir = join(scratch, 'planted');
    mkdirSync(dir, { mode: 0o700 });
    const file = join(dir, 'credentials.json');
    const victim = join(scratch, 'victim.txt');
    writeFileSync(victim, 'untouched');
    // The names a predictable temp file would have: this process's pid, and the next few.
    const planted = [0, 1, 2, 3, 4].map((n) => `credentials.json.${process.pid + n}.tmp`);
    for (const name of planted) symlinkSync(victim, join(dir, name));
    const store = fileStore(file);
    await store.update(doc('token-1'));
    await store.update(doc('token-2'));
    assert.equal(readFileSync(victim, 'utf8'), 'untouched');
    assert.ok(lstatSync(file).isFile());
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal((await store.read()).servers['https://mcp.example.test/mcp'].tokens[ISSUER].access_token, 'token-2');
    assert.deepEqual(readdirSync(dir).sort(), ['credentials.json', ...planted].sort(), 'no temporary file is left behind');
  });

  test('a directory writable by others is refused, not written into and not chmod-ed', { timeout: 10_000 }, async () => {
    const dir = join(scratch, 'loose');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const store = fileStore(join(dir, 'credentials.json'));
    await assert.rejects(store.update(doc('t')), (e: unknown) => e instanceof AuthError && e.reason === 'insecure' && /writable by others \(mode 777\)/.test(e.message) && /chmod 700/.test(e.hint));
    assert.equal(existsSync(join(dir, 'credentials.json')), false);
    assert.equal(statSync(dir).mode & 0o777, 0o777);
    assert.deepEqual(readdirSync(dir), []);
  });

  test('a directory that belongs to another user is refused', { timeout: 10_000 }, async () => {
    // As root a scratch directory is given away; as anyone else, '/' already belongs to root.
    let dir = '/';
    if (process.getuid!() === 0) {
      dir = join(scratch, 'foreign');
      mkdirSync(dir, { mode: 0o700 });
      chownSync(dir, 65534, 65534);
    }
    const store = fileStore(join(dir, 'byhand-test-credentials.json'));
    await assert.rejects(store.update(doc('t')), (e: unknown) => e instanceof AuthError && e.reason === 'insecure' && /belongs to another user/.test(e.message));
    assert.equal(existsSync(join(dir, 'byhand-test-credentials.json')), false);
  });
});
