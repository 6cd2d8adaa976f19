// A credential the user gave and the server refused: the real binary against a loopback server that answers 401
// invalid_token, with and without OAuth metadata. The error names the credential's source and the server's reason,
// and suggests `byhand login` only where a login could get a token.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from './support/node-test.js';

const bin = fileURLToPath(new URL('../packages/byhand/bin/byhand.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'byhand-credential-'));
after(() => rmSync(home, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function byhand(args: string[]): Promise<Run> {
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1', BYHAND_PROVIDER: 'offline' };
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: home, env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Every MCP request is refused as an expired token; `oauth` publishes protected resource metadata. */
async function refusing(oauth: boolean): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url?.startsWith('/.well-known/')) {
      if (oauth && req.url.startsWith('/.well-known/oauth-protected-resource')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [base] }));
      } else res.writeHead(404).end();
      return;
    }
    seen.push(req.headers.authorization ?? '');
    const metadata = oauth ? `, resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` : '';
    res.writeHead(401, { 'www-authenticate': `Bearer error="invalid_token", error_description="The access token expired"${metadata}` }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('a refused credential the user gave', () => {
  let plain: Awaited<ReturnType<typeof refusing>>;
  let oauth: Awaited<ReturnType<typeof refusing>>;
  before(async () => {
    [plain, oauth] = await Promise.all([refusing(false), refusing(true)]);
  });
  after(() => Promise.all([plain.close(), oauth.close()]));

  test('--header, no OAuth metadata: the server refused it, why, and no login suggested', { timeout: 30_000 }, async () => {
    const { code, stderr } = await byhand(['list', plain.url, '--header', 'Authorization: Bearer given-token']);
    assert.equal(code, 3, stderr);
    assert.match(stderr, /the server refused the credential you gave \(--header Authorization\): invalid_token: The access token expired/);
    assert.match(stderr, /hint: .*publishes no OAuth metadata/);
    assert.doesNotMatch(stderr, /byhand login|no stored token/);
    assert.doesNotMatch(stderr, /given-token/);
    assert.equal(plain.seen.at(-1), 'Bearer given-token', 'the credential was sent as given');
  });

  test("a config's headers with an ${input:}, OAuth metadata: the field and input named, login suggested", { timeout: 30_000 }, async () => {
    const config = join(home, 'mcp.json');
    writeFileSync(config, JSON.stringify({
      inputs: [{ id: 'token', type: 'promptString', password: true }],
      servers: { remote: { type: 'http', url: oauth.url, headers: { Authorization: 'Bearer ${input:token}' } } },
    }));
    const { code, stderr } = await byhand(['call', 'remote', 'echo', '--config', config, '--input', 'token=typed-token']);
    assert.equal(code, 3, stderr);
    assert.match(stderr, /the server refused the credential you gave \(.*mcp\.json: servers\.remote\.headers\.Authorization, typed for \$\{input:token\}\): invalid_token: The access token expired/);
    assert.match(stderr, /hint: .*byhand login remote --config /);
    assert.doesNotMatch(stderr, /typed-token/);
  });

  test('checkpoint says the same for a config entry', { timeout: 30_000 }, async () => {
    const config = join(home, 'checkpoint.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { plain: { url: plain.url, headers: { Authorization: 'Bearer from-config' } } } }));
    const { code, stdout } = await byhand(['checkpoint', '--config', config, '--json']);
    assert.equal(code, 3, stdout);
    const [row] = stdout.trim().split('\n').map((line) => JSON.parse(line) as { error: { message: string; hint: string }; needsLogin: boolean });
    assert.match(row.error.message, /refused the credential you gave \(.*checkpoint\.json: mcpServers\.plain\.headers\.Authorization\): invalid_token: The access token expired/);
    assert.doesNotMatch(row.error.hint, /byhand login/);
    assert.equal(row.needsLogin, false);
  });
});
