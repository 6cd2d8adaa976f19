// `byhand login` end to end against the mock authorization server: the browser (injected) goes to
// the loopback listener; --headless reads the pasted redirect; the credentials file is 0600 and
// what checkpoint would use (stored-token mode) then works without a browser. Nothing it prints
// carries a token, code or secret.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, test } from './support/node-test.js';
import { AuthError, createOAuth } from '../packages/client/src/auth/index.js';
import { credentialsFile, fileStore } from '../packages/client/src/auth/file-store.js';
import { connect, VerdictCache } from '../packages/client/src/index.js';
import { loginCommand, type LoginIO } from '../packages/byhand/src/login/command.js';
import { clickThrough, startMockAs, startMockRs, type MockAs } from './auth-mock.js';
import { runOwn } from './support/collector.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-login-'));
const mocks: MockAs[] = [];
after(async () => {
  for (const m of mocks) await m.close();
  rmSync(scratch, { recursive: true, force: true });
});

function io(dir: string, browser?: (url: string) => Promise<void>) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const value: LoginIO = { stdout, stderr, stdin, env: { BYHAND_CONFIG_DIR: dir }, ...runOwn(), ...(browser ? { openBrowser: browser } : {}) };
  return { io: value, stdin, out: () => out, err: () => err };
}

/** The browser: to the authorization server, then follow its redirect to the loopback listener. */
const browser = async (url: string) => {
  const back = await clickThrough(new URL(url));
  const landed = await fetch(back);
  assert.equal(landed.status, 200);
  assert.doesNotMatch(await landed.text(), /code-/, 'the landing page does not show the code');
};

async function setup() {
  const as = await startMockAs();
  mocks.push(as);
  const rs = await startMockRs(as);
  const dir = join(mkdtempSync(join(scratch, 'cfg-')), 'byhand');
  return { as, rs, dir };
}

test('login through the loopback listener; the stored token then serves a non-interactive client (the checkpoint path)', async () => {
  const { as, rs, dir } = await setup();
  try {
    const run = io(dir, browser);
    assert.equal(await loginCommand([rs.url], run.io), 0, run.err());
    assert.match(run.err(), /✓ logged in to .* \(authorization server http:\/\/127\.0\.0\.1:\d+.*\); saved in .*credentials\.json/);
    assert.match(run.err(), /authorize\?/, 'the URL was printed');
    const file = credentialsFile({ BYHAND_CONFIG_DIR: dir });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const redirect = JSON.parse(readFileSync(file, 'utf8')).clients[as.issuer].redirect_uris[0];
    assert.match(redirect, /^http:\/\/127\.0\.0\.1:\d+\/callback$/, 'the redirect URI is the loopback listener');

    const client = await connect(rs.url, { auth: createOAuth({ store: fileStore(file) }), verdicts: new VerdictCache() });
    try {
      assert.ok((await client.listTools()).length > 0);
    } finally {
      await client.close();
    }

    const again = io(dir, async () => assert.fail('no browser when the stored token works'));
    assert.equal(await loginCommand([rs.url], again.io), 0);
    assert.match(again.err(), /already logged in/);

    const leaked = [...as.secrets].filter((s) => run.err().includes(s) || run.out().includes(s) || again.err().includes(s));
    assert.deepEqual(leaked, []);

    const out = io(dir);
    assert.equal(await loginCommand([rs.url, '--logout'], out.io), 0);
    await assert.rejects(connect(rs.url, { auth: createOAuth({ store: fileStore(file), loginHint: () => 'run `byhand login x`' }), verdicts: new VerdictCache() }), (e: unknown) => e instanceof AuthError && e.reason === 'login-required' && /byhand login/.test(e.hint));
  } finally {
    await rs.close();
  }
});

test('--headless: the URL is printed, the redirect URL is pasted on stdin and not echoed', async () => {
  const { as, rs, dir } = await setup();
  try {
    const run = io(dir, async () => assert.fail('--headless opens no browser'));
    const done = loginCommand([rs.url, '--headless'], run.io);
    let url: string | undefined;
    for (const started = Date.now(); !url && Date.now() - started < 20_000; ) {
      await new Promise((r) => setTimeout(r, 50));
      url = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(run.err())?.[1];
    }
    assert.ok(url, `no URL printed: ${run.err()}`);
    const back = await clickThrough(new URL(url));
    run.stdin.write(`${back.href}\n`);
    assert.equal(await done, 0, `HEADLESS ${run.err()}`);
    assert.ok(!run.err().includes(back.searchParams.get('code')!), 'the pasted code is not echoed');
    assert.deepEqual([...as.secrets].filter((s) => run.err().includes(s)), []);
  } finally {
    await rs.close();
  }
});

test('--headless with an input that ends (</dev/null): said plainly, and --headless is not suggested again', async () => {
  const { rs, dir } = await setup();
  try {
    const run = io(dir, async () => assert.fail('--headless opens no browser'));
    run.stdin.end();
    assert.equal(await loginCommand([rs.url, '--headless'], run.io), 3, run.err());
    assert.match(run.err(), /the input ended before a redirect URL was pasted/);
    assert.match(run.err(), /hint: .*paste/);
    assert.doesNotMatch(run.err(), /hint: .*with --headless/);
  } finally {
    await rs.close();
  }
});

test('the listener takes only this login\'s state; a browser that never comes back times out', async () => {
  const { rs, dir } = await setup();
  try {
    const run = io(dir, async (url) => {
      const back = await clickThrough(new URL(url));
      const forged = new URL(back);
      forged.searchParams.set('state', 'someone-else');
      assert.equal((await fetch(forged)).status, 400, 'a redirect with another state is turned away');
      await fetch(back);
    });
    assert.equal(await loginCommand([rs.url], run.io), 0, run.err());

    const slow = io(join(dir, 'other'), async () => undefined);
    // Exit 3: a login that did not finish is an auth failure (shared/exit-codes.ts).
    assert.equal(await loginCommand([rs.url, '--timeout', '300'], slow.io), 3, `SLOW ${slow.err()}`);
    assert.match(slow.err(), /no redirect arrived within 300 ms \(--timeout\)/);
  } finally {
    await rs.close();
  }
});

test('usage: no SERVER, an unknown option, a stdio entry in --config are refused with exit 2', async () => {
  const dir = join(scratch, 'usage');
  const config = join(scratch, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { local: { command: 'echo' }, remote: { url: 'http://127.0.0.1:9/mcp' } } }));
  for (const args of [[], ['--bogus', 'x'], ['local', '--config', config], ['nowhere', '--config', config], ['not-a-url']]) {
    const run = io(dir);
    assert.equal(await loginCommand(args, run.io), 2, `${args.join(' ')}: ${run.err()}`);
  }
  const stdio = io(dir);
  await loginCommand(['local', '--config', config], stdio.io);
  assert.match(stdio.err(), /stdio server: it takes its credentials from its environment/);
  const help = io(dir);
  assert.equal(await loginCommand(['--help'], help.io), 0);
  assert.match(help.out(), /usage: byhand login SERVER/);
});
