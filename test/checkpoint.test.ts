// `byhand checkpoint` as a user runs it: the built command in this process (support/cli.ts) and the binary where the
// process is the point (a reader that stops early), real loopback servers, stdio servers as child processes (one is
// the official reference server-everything from npm).

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { bin, byhandIn, type CliRun } from './support/cli.js';
import { fixtureScript } from './support/fixture-bundle.js';
import { fixtureHandler, serve, type Served } from './fixtures/sdk-server.js';
import { clickThrough, startMockAs, startMockRs } from './auth-mock.js';
import { connect, VerdictCache } from '../packages/client/src/index.js';
import { startServer } from '../packages/servers/src/edge/serve.js';
import { createOAuth } from '../packages/client/src/auth/index.js';
import { credentialsFile, fileStore } from '../packages/client/src/auth/file-store.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'byhand-checkpoint-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function byhand(args: string[], env: Record<string, string> = {}, cwd = repoRoot): Promise<CliRun> {
  return byhandIn({ cwd, env: { NO_COLOR: '1', ...env }, timeoutMs: 60_000 }, ...args);
}

function config(name: string, json: unknown): string {
  const file = join(scratch, name);
  writeFileSync(file, JSON.stringify(json));
  return file;
}

test('the embedded default: the whole story with no config, and a notice that says so', async () => {
  // An empty HOME and a folder with no config: nothing to discover.
  const home = join(scratch, 'empty-home');
  mkdirSync(home, { recursive: true });
  const { code, stdout, stderr } = await byhand(['checkpoint'], { HOME: home, XDG_CONFIG_HOME: join(home, '.config') }, home);
  assert.equal(code, 0);
  assert.match(stderr, /^byhand: no MCP config found in this folder or your home folder; probing the bundled toolboxes instead \(--embedded asks for them/m);
  assert.equal(
    stdout.replace(/127\.0\.0\.1:\d+/g, 'HOST').replace(/ · \d+ ms/g, ' · N ms'),
    [
      '✓ The Kitchen (asks you to think)',
      '    era: 2026-07-28 (can ask you to think)',
      '    2 tool(s) · 2 resource(s) · 1 prompt(s) · 0 template(s)',
      '    http://HOST/api/kitchen · N ms',
      '✓ The Cookie Jar (forgetful)',
      '    era: 2026-07-28 (can ask you to think)',
      '    3 tool(s) · 1 resource(s) · 1 prompt(s) · 0 template(s)',
      '    http://HOST/api/cookie-jar · N ms',
      '✓ The Probe (shows which way of asking the host works in which era)',
      '    era: 2026-07-28 (can ask you to think)',
      '    2 tool(s) · 0 resource(s) · 0 prompt(s) · 0 template(s)',
      '    http://HOST/api/probe · N ms',
      '',
    ].join('\n'),
  );
});

describe('a config that mixes eras, transports and failures', () => {
  let modern: Served;
  let session: Served;
  let stateless: Served;
  let file: string;
  before(async () => {
    [modern, session, stateless] = await Promise.all([serve(fixtureHandler('dual')), serve(fixtureHandler('legacy-session')), serve(fixtureHandler('legacy-stateless'))]);
    file = config('mixed.json', {
      mcpServers: {
        'New Server': { url: modern.url, headers: { Authorization: 'Bearer ${env:BYHAND_TEST_TOKEN}' } },
        'Old Server': { url: session.url },
        'Serverless Server': { type: 'http', url: stateless.url },
        'Reference Server': { command: process.execPath, args: [join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] },
        'Broken One': { url: 'http://127.0.0.1:9/mcp' },
        'Unset Token': { url: modern.url, headers: { Authorization: 'Bearer $BYHAND_UNSET_TOKEN' } },
      },
    });
  });
  after(() => Promise.all([modern, session, stateless].map((s) => s.close())));

  test('human output: each server in the order given, with its era derived', async () => {
    const { code, stdout } = await byhand(['checkpoint', '--config', file], { BYHAND_TEST_TOKEN: 'sekrit' });
    assert.equal(code, 1, 'one server failed');
    const blocks = stdout.trimEnd().split(/\n(?=[✓✗])/);
    assert.deepEqual(blocks.map((b) => b.split('\n')[0]), [
      '✓ New Server',
      '✓ Old Server',
      '✓ Serverless Server',
      '✓ Reference Server (Everything Reference Server)',
      '✗ Broken One',
      '✗ Unset Token',
    ]);
    assert.match(blocks[0], /era: 2026-07-28 \(can ask you to think\)\n {4}7 tool\(s\) · 2 resource\(s\) · 1 prompt\(s\)/);
    assert.match(blocks[1], /era: 2025-11-25 \(legacy, session: can ask only over the held connection\) — fell back/);
    assert.match(blocks[2], /era: 2025-11-25 \(legacy, per-request: cannot ask you to think\) — fell back/);
    assert.match(blocks[3], /era: 2025-11-25 \(legacy, session: can ask only over the held connection\) — fell back\n {4}\d+ tool\(s\)/);
    assert.match(blocks[4], /network: cannot reach http:\/\/127\.0\.0\.1:9\/mcp.*\(hint: nothing answered/);
    assert.match(blocks[5], /config: .*mcpServers\.Unset Token\.headers\.Authorization: \$BYHAND_UNSET_TOKEN refers to BYHAND_UNSET_TOKEN, which is not set/);
    const sentAuth = modern.requests.find((r) => r.headers.authorization)?.headers.authorization;
    assert.equal(sentAuth, 'Bearer sekrit', 'the ${env:...} reference was expanded');
  });

  test('--json: one object per server, for CI', async () => {
    const { code, stdout } = await byhand(['checkpoint', '--config', file, '--json'], { BYHAND_TEST_TOKEN: 't' });
    assert.equal(code, 1);
    const rows = stdout.trim().split('\n').map((line) => JSON.parse(line));
    assert.equal(rows.length, 6);
    assert.deepEqual(
      rows.map((r) => [r.name, r.ok, r.era, r.canSample]),
      [
        ['New Server', true, 'modern', true],
        ['Old Server', true, 'legacy', true],
        ['Serverless Server', true, 'legacy', false],
        ['Reference Server', true, 'legacy', true],
        ['Broken One', false, null, null],
        ['Unset Token', false, null, null],
      ],
    );
    assert.deepEqual(rows[0].counts, { tools: 7, resources: 2, prompts: 1, templates: 0, apps: 0 });
    assert.equal(rows[4].error.code, 'network');
    assert.ok(rows.every((r) => typeof r.elapsedMs === 'number'));
  });

  test('more servers than an AbortSignal\'s default listener count: probed without a warning on stderr', async () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`server ${i}`, { url: modern.url }]));
    const { code, stdout, stderr } = await byhand(['checkpoint', '--config', config('many.json', { mcpServers: many })]);
    assert.equal(code, 0, stdout);
    assert.equal(stdout.match(/^✓ /gm)?.length, 40);
    assert.doesNotMatch(stderr, /Warning/);
    assert.equal(stderr, `byhand: servers from ${join(scratch, 'many.json')}\n`);
  });

  test('two entries for one server, as two hosts list it: the same counts twice, one probe after the other', async () => {
    const twice = config('twice.json', { mcpServers: { 'from Claude Desktop': { url: modern.url }, 'from Cursor': { url: modern.url } } });
    const { code, stdout } = await byhand(['checkpoint', '--config', twice, '--concurrency', '1', '--json']);
    assert.equal(code, 0, stdout);
    const rows = stdout.trim().split('\n').map((line) => JSON.parse(line) as { counts: unknown; capabilities: unknown; canSample: boolean });
    assert.deepEqual(rows.map((r) => r.counts), [{ tools: 7, resources: 2, prompts: 1, templates: 0, apps: 0 }, { tools: 7, resources: 2, prompts: 1, templates: 0, apps: 0 }]);
    assert.deepEqual(rows[1].capabilities, rows[0].capabilities);
    assert.deepEqual(rows.map((r) => r.canSample), [true, true]);
  });

  test('--trace shows the wire of every request and response', async () => {
    const { stderr } = await byhand(['checkpoint', '--config', config('one.json', { mcpServers: { only: { url: modern.url } } }), '--trace']);
    assert.match(stderr, /\[only\] → POST http:\/\/127\.0\.0\.1:\d+\/mcp \{"jsonrpc":"2\.0","id":\d+,"method":"server\/discover"/);
    assert.match(stderr, /\[only\] ← .*"supportedVersions":\["2026-07-28"\]/);
  });
});

test('a toolbox named twice: its server/discover may be reused, so the second probe takes the era and who the server is from the first, and shows the same', async (t) => {
  const toolboxes = await startServer({ port: 0, toolboxes: ['kitchen'] });
  t.after(() => toolboxes.close());
  const url = toolboxes.urls.kitchen;
  const { code, stdout } = await byhand(['checkpoint', url, url, '--concurrency', '1']);
  assert.equal(code, 0, stdout);
  const blocks = stdout.trimEnd().replace(/ · \d+ ms/g, ' · N ms').split(/\n(?=✓)/);
  assert.equal(blocks.length, 2);
  assert.match(blocks[0], /^✓ .*\(asks you to think\)\n.*\n {4}2 tool\(s\) · 2 resource\(s\) · 1 prompt\(s\)/);
  assert.equal(blocks[1], blocks[0]);
});

describe('VS Code mcp.json and bad input', () => {
  test('a relative --config FILE is read from the command\'s folder', async () => {
    config('relative.json', { servers: { here: { type: 'stdio', command: process.execPath, args: [fixtureScript('test/fixtures/sdk-stdio-server.ts'), 'serve'] } } });
    const { code, stdout, stderr } = await byhand(['checkpoint', '--config', 'relative.json'], {}, scratch);
    assert.equal(code, 0, stdout + stderr);
    assert.match(stdout, /^✓ here\n {4}era: 2026-07-28/m);
  });

  test('servers with type stdio and http', async () => {
    const stdio = { type: 'stdio', command: process.execPath, args: [fixtureScript('test/fixtures/sdk-stdio-server.ts'), 'serve'] };
    const { code, stdout } = await byhand(['checkpoint', '--config', config('vscode.json', { servers: { fixture: stdio } })]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /✓ fixture\n {4}era: 2026-07-28 \(can ask you to think\)\n {4}7 tool\(s\)/);
  });

  test('a command line\'s secret words never reach the output, plain or --json, probed or failed', { timeout: 60_000 }, async () => {
    const fixture = [process.execPath, fixtureScript('test/fixtures/sdk-stdio-server.ts'), 'serve'];
    const secrets = ['--api-key', 'sk-live-123', '--token=tok-456', 'API_KEY=env-789'];
    const plain = await byhand(['checkpoint', '--', ...fixture, ...secrets]);
    assert.equal(plain.code, 0, plain.stdout + plain.stderr);
    assert.match(plain.stdout, /--api-key \(redacted\) --token=\(redacted\) API_KEY=\(redacted\)/);
    const json = await byhand(['checkpoint', '--json', '--', ...fixture, ...secrets]);
    const failed = await byhand(['checkpoint', '--', join(scratch, 'no-such-server'), '--password', "'hunter 2'"]);
    assert.equal(failed.code, 4, failed.stdout + failed.stderr);
    for (const { stdout, stderr } of [plain, json, failed]) {
      for (const secret of ['sk-live-123', 'tok-456', 'env-789', 'hunter']) assert.ok(!`${stdout}${stderr}`.includes(secret), `${secret} printed:\n${stdout}${stderr}`);
    }
  });

  test('a missing file, malformed JSON, a bad flag: exit 2 with the cause', async () => {
    const missing = await byhand(['checkpoint', '--config', join(scratch, 'nope.json')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.json: no such file/);
    writeFileSync(join(scratch, 'bad.json'), '{"mcpServers": ');
    const bad = await byhand(['checkpoint', '--config', join(scratch, 'bad.json')]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /bad\.json:1:16: not valid JSON \(the file ends too early\)/);
    const shape = await byhand(['checkpoint', '--config', config('shape.json', { servers: [] })]);
    assert.equal(shape.code, 2);
    assert.match(shape.stderr, /"servers" must be an object/);
    const flag = await byhand(['checkpoint', '--frobnicate']);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /usage: byhand checkpoint/);
  });
});

test('a server behind OAuth: "needs login" with the command to run, then probed with the stored token', async (t) => {
  const cleanup = cleanupAfter(t);
  const as = cleanup(await startMockAs());
  const rs = cleanup(await startMockRs(as));
  const configDir = join(scratch, 'oauth-config');
  const file = config('oauth.json', { mcpServers: { Protected: { url: rs.url } } });
  const before = await byhand(['checkpoint', '--config', file], { BYHAND_CONFIG_DIR: configDir });
  assert.equal(before.code, 3, 'auth');
  assert.equal(before.stdout.replace(/ · \d+ ms/, ' · N ms'), `✗ Protected\n    needs login: run \`byhand login Protected --config ${file}\`\n    ${rs.url} · N ms\n`);
  const json = JSON.parse((await byhand(['checkpoint', '--config', file, '--json'], { BYHAND_CONFIG_DIR: configDir })).stdout);
  assert.equal(json.needsLogin, true);
  assert.equal(json.error.code, 'auth');

  // What `byhand login` does, with the browser step clicked through.
  const auth = createOAuth({ store: fileStore(credentialsFile({ BYHAND_CONFIG_DIR: configDir })), authorize: clickThrough, redirectUri: 'http://127.0.0.1:1/callback' });
  await (await connect(rs.url, { auth, verdicts: new VerdictCache() })).close();

  const after = await byhand(['checkpoint', '--config', file, '--trace'], { BYHAND_CONFIG_DIR: configDir });
  assert.equal(after.code, 0, after.stdout);
  assert.match(after.stdout, /✓ Protected \(asks you to think\)\n {4}era: 2026-07-28 \(can ask you to think\)\n {4}2 tool\(s\)/);
  assert.ok(rs.seen.at(-1)?.startsWith('Bearer '), 'the stored token was sent');
  const leaked = [...as.secrets].filter((secret) => after.stdout.includes(secret) || after.stderr.includes(secret));
  assert.deepEqual(leaked, [], 'no token reaches the output, not even the trace');
});

test('colour only on a TTY, and never with NO_COLOR', async () => {
  const { renderReport, styleFor } = await import('../packages/byhand/src/checkpoint/render.js');
  const report = { name: 'X', target: 'u', ok: true, era: 'modern' as const, protocolVersion: '2026-07-28', reach: 'modern' as const, counts: { tools: 1, resources: 0, prompts: 0, templates: 0 }, elapsedMs: 1, exitCode: 0 as const };
  assert.match(renderReport(report, styleFor({ isTTY: true }, {})), /\x1b\[32m✓\x1b\[39m X/);
  assert.doesNotMatch(renderReport(report, styleFor({ isTTY: true }, { NO_COLOR: '1' })), /\x1b\[/);
  assert.match(renderReport(report, styleFor({ isTTY: true }, { NO_COLOR: '' })), /\x1b\[/, 'an empty NO_COLOR does not count (no-color.org)');
  assert.doesNotMatch(renderReport(report, styleFor({ isTTY: false }, {})), /\x1b\[/);
});

test('a reader that stops early (| head) is not a crash', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [bin, 'checkpoint'], { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  // Closed before the first line is written, as `| head -0` would: every write then meets EPIPE.
  child.stdout.destroy();
  const code = await new Promise((resolve) => child.once('exit', resolve));
  assert.equal(code, 0);
  assert.doesNotMatch(stderr, /EPIPE|Unhandled/);
});
