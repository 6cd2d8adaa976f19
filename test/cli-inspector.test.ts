// What the MCP Inspector CLI does, done by byhand's built command (support/cli.ts; docs/inspector.md, issue 11): the deprecated
// HTTP+SSE transport against the official v1 SDK, the exit code table for every kind of failure (plain, --json,
// checkpoint with several servers), --meta seen by servers of both eras, and --tool with the check of a guessed
// command-line split.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { byhandIn, type CliRun } from './support/cli.js';
import { closedPort } from './support/closed-port.js';
import { fixtureScript } from './support/fixture-bundle.js';
import { listen, json } from './fixtures/loopback.js';
import { fixtureHandler, serve } from './fixtures/sdk-server.js';
import { serveSse } from './fixtures/sse-server.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const stdioFixture = ['node', fixtureScript('test/fixtures/sdk-stdio-server.ts'), 'serve'];
const scratch = mkdtempSync(join(tmpdir(), 'byhand-inspector-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function byhand(args: string[]): Promise<CliRun> {
  const onlyEnv = { PATH: process.env.PATH ?? '', HOME: scratch, XDG_CONFIG_HOME: join(scratch, '.config'), NO_COLOR: '1', BYHAND_PROVIDER: 'offline' };
  return byhandIn({ cwd: scratch, onlyEnv, timeoutMs: 60_000 }, ...args);
}

/** An MCP URL with nothing listening at it (another `path` for another URL). */
async function closedUrl(path = '/mcp'): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}${path}`;
}

describe('the deprecated HTTP+SSE transport, spoken by the binary', () => {
  test('list, call and checkpoint find it by the fallback; --transport sse and a config "type": "sse" ask for it', { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await serveSse());
    const listed = await byhand(['list', server.url, 'tools']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stderr, /legacy era, [\d-]+, over the deprecated HTTP\+SSE transport, found by trying the modern era first \(HTTP 405/);
    assert.match(listed.stdout, /^tools \(3\):\n {2}echo\n/m);
    // Pinned to legacy by the user, the fallback to HTTP+SSE still says both.
    const pinned = await byhand(['list', '--era', 'legacy', server.url, 'tools']);
    assert.equal(pinned.code, 0, pinned.stderr);
    assert.match(pinned.stderr, /legacy era, [\d-]+, over the deprecated HTTP\+SSE transport, pinned by --era\n/);

    const called = await byhand(['call', server.url, 'echo', 'text=hi']);
    assert.equal(called.code, 0, called.stderr);
    assert.equal(called.stdout.trim(), 'echo: hi');

    const forced = await byhand(['call', '--transport', 'sse', server.url, 'think', 'topic=tea', '--yes']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, /^model said: /);
    assert.match(forced.stderr, /over the deprecated HTTP\+SSE transport\n/);
    assert.doesNotMatch(forced.stderr, /modern probe/);

    const config = join(scratch, 'sse.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { old: { type: 'sse', url: server.url } } }));
    const probed = await byhand(['checkpoint', '--config', config]);
    assert.equal(probed.code, 0, probed.stderr);
    assert.match(probed.stdout, /^✓ old\n {4}era: [\d-]+ \(legacy, session: can ask only over the held connection\), over the deprecated HTTP\+SSE transport\n {4}3 tool\(s\)/m);
    const probedJson = await byhand(['checkpoint', server.url, '--json']);
    assert.equal(probedJson.code, 0, probedJson.stderr);
    assert.equal(JSON.parse(probedJson.stdout).negotiation, 'fell back');
  });

  test('--transport sse to a server that does not speak it, or for a command line, says so', { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const served = cleanup(await serve(fixtureHandler('modern-only')));
    const refused = await byhand(['list', '--transport', 'sse', served.url]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /opened no HTTP\+SSE event stream with an endpoint event/);
    const stdio = await byhand(['list', '--transport', 'sse', '--', 'node', 'server.js']);
    assert.equal(stdio.code, 2);
    assert.match(stdio.stderr, /--transport sse is for a server at an http\(s\) URL/);
  });
});

describe('exit codes, one table for every command', () => {
  test('0 ok, 1 a server error, 2 usage, 4 unreachable, 5 isError; the same codes with --json', { timeout: 90_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await serveSse());
    const nowhere = await closedUrl();
    assert.equal((await byhand(['call', server.url, 'echo', 'text=hi'])).code, 0);
    const toolError = await byhand(['call', server.url, 'broken']);
    assert.equal(toolError.code, 5, toolError.stderr);
    assert.match(toolError.stderr, /broken reported an error \(isError: true\)/);
    assert.equal((await byhand(['call', server.url, 'broken', '--json'])).code, 5);

    // A JSON-RPC error of the server's own: this one offers no completions.
    const rpc = await byhand(['complete', server.url, 'prompt', 'greet', 'who', 'A']);
    assert.equal(rpc.code, 1, rpc.stderr);
    const rpcJson = await byhand(['complete', server.url, 'prompt', 'greet', 'who', 'A', '--json']);
    assert.equal(rpcJson.code, 1);
    assert.equal(JSON.parse(rpcJson.stdout).exitCode, 1);

    const usage = await byhand(['list', server.url, '--nope']);
    assert.equal(usage.code, 2);
    assert.equal((await byhand(['call', server.url, 'ech', 'text=hi'])).code, 2, 'an unknown tool is the caller\'s to fix');
    assert.equal((await byhand(['read', server.url, 'note://missing'])).code, 2, 'and so is an unknown resource');
    assert.equal(JSON.parse((await byhand(['read', server.url, 'note://missing', '--json'])).stdout).exitCode, 2);

    const unreachable = await byhand(['list', nowhere]);
    assert.equal(unreachable.code, 4, unreachable.stderr);
    const unreachableJson = await byhand(['list', nowhere, '--json']);
    assert.equal(unreachableJson.code, 4);
    assert.deepEqual([JSON.parse(unreachableJson.stdout).error.code, JSON.parse(unreachableJson.stdout).exitCode], ['network', 4]);
    assert.equal((await byhand(['call', '--tool', 'x', '--', join(scratch, 'no-such-server')])).code, 4, 'a command that cannot start');
  });

  test('4 for a server that never answers in time', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const silent = cleanup(await listen(() => undefined));
    const run = await byhand(['list', silent.url, '--timeout', '300']);
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stderr, /within 300 ms/);
  });

  test('3 for a server that wants a login', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const guarded = cleanup(await listen((_request, res) => json(res, { error: 'unauthorized' }, 401, { 'www-authenticate': 'Bearer realm="mcp"' })));
    const run = await byhand(['list', guarded.url]);
    assert.equal(run.code, 3, run.stderr);
    const probed = await byhand(['checkpoint', guarded.url, '--json']);
    assert.equal(probed.code, 3, probed.stdout);
  });

  test('checkpoint: the code the servers agree on, else 1', { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const nowhere = await closedUrl();
    const elsewhere = await closedUrl('/elsewhere');
    const silent = cleanup(await listen(() => undefined));
    const server = cleanup(await serveSse());
    assert.equal((await byhand(['checkpoint', server.url])).code, 0);
    const both = await byhand(['checkpoint', nowhere, elsewhere, server.url, '--timeout', '2000']);
    assert.equal(both.code, 4, both.stdout);
    const mixed = await byhand(['checkpoint', nowhere, '--json', '--timeout', '2000', '--', join(scratch, 'no-such-server')]);
    assert.equal(mixed.code, 4, 'network and spawn are both unreachable');
    const config = join(scratch, 'mixed.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { gone: { url: nowhere }, broken: { type: 'carrier-pigeon', url: nowhere } } }));
    const disagree = await byhand(['checkpoint', '--config', config, '--timeout', '2000']);
    assert.equal(disagree.code, 1, 'unreachable (4) and a broken entry (2) disagree');
    const twoKinds = await byhand(['checkpoint', nowhere, silent.url, '--timeout', '500', '--json']);
    const lines = twoKinds.stdout.trim().split('\n').map((l) => JSON.parse(l) as { exitCode: number });
    assert.deepEqual(lines.map((l) => l.exitCode), [4, 4]);
    assert.equal(twoKinds.code, 4);
  });

  test('--help of every command, and of byhand, prints the table', { timeout: 60_000 }, async () => {
    for (const args of [['--help'], ['call', '--help'], ['checkpoint', '--help'], ['list', '--help'], ['task', '--help']]) {
      const run = await byhand(args);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /exit codes: 0 ok, 1 failed .* 2 usage, 3 auth .*\n4 unreachable .* 5 the tool\nreported an error/s, args.join(' '));
    }
  });
});

describe('--meta KEY=VALUE', () => {
  test('legacy (HTTP+SSE, v1 SDK): the server sees the keys on tools/call, resources/read, prompts/get', { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await serveSse());
    const meta = ['--meta', 'example.com/trace=abc', '--meta', 'n=3', '--meta', 'obj={"a":[1,2]}'];
    assert.equal((await byhand(['call', server.url, 'echo', 'text=hi', ...meta])).code, 0);
    assert.equal((await byhand(['read', server.url, 'note://one', ...meta])).code, 0);
    assert.equal((await byhand(['prompt', server.url, 'greet', 'who=Ada', ...meta])).code, 0);
    assert.deepEqual(server.metas.map((m) => m.method), ['tools/call', 'resources/read', 'prompts/get']);
    for (const { meta: seen } of server.metas) assert.deepEqual({ ...(seen as object), progressToken: undefined }, { 'example.com/trace': 'abc', n: 3, obj: { a: [1, 2] }, progressToken: undefined });
  });

  test('modern (SDK 2.4): the keys ride beside the envelope, which is left whole; list and complete carry them too', { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const served = cleanup(await serve(fixtureHandler('modern-only')));
    assert.equal((await byhand(['call', served.url, 'echo', 'text=hi', '--meta', 'example.com/trace=abc'])).code, 0);
    assert.equal((await byhand(['list', served.url, 'tools', '--meta', 'example.com/list=1'])).code, 0);
    await byhand(['complete', served.url, 'prompt', 'plan', 'days', '--meta', 'example.com/complete=yes']);
    const bodies = served.requests.map((r) => JSON.parse(r.body || '{}') as { method?: string; params?: { _meta?: Record<string, unknown> } });
    const call = bodies.find((b) => b.method === 'tools/call')!;
    assert.equal(call.params!._meta!['example.com/trace'], 'abc');
    assert.equal(call.params!._meta!['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
    assert.ok(call.params!._meta!['io.modelcontextprotocol/clientCapabilities']);
    assert.equal(bodies.find((b) => b.method === 'tools/list' && b.params?._meta?.['example.com/list'] === 1)?.method, 'tools/list');
    assert.equal(bodies.find((b) => b.method === 'completion/complete')?.params?._meta?.['example.com/complete'], 'yes');
  });

  test("the protocol's own keys are refused before anything is sent (exit 2)", { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const served = cleanup(await serve(fixtureHandler('modern-only')));
    for (const key of ['io.modelcontextprotocol/protocolVersion', 'progressToken', 'dev.mcp/x']) {
      const run = await byhand(['call', served.url, 'echo', 'text=hi', '--meta', `${key}=1`]);
      assert.equal(run.code, 2, key);
      assert.match(run.stderr, /that key is the protocol's own/);
    }
    assert.equal(served.requests.length, 0);
  });
});

describe('call -- COMMAND… TOOL: exact with --tool, checked when guessed', () => {
  test('--tool names the tool; every word after -- is the command line', { timeout: 60_000 }, async () => {
    const run = await byhand(['call', '--cwd', repoRoot, '--tool', 'echo', 'text=exact', '--', ...stdioFixture]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'echo: exact');
  });

  test('a guessed name the server does not have: the split said in plain words, and the exact command', { timeout: 60_000 }, async () => {
    // The fixture ignores words after its mode, so `serve echo` starts it, and `extra` was taken as the tool.
    const wrong = await byhand(['call', '--cwd', repoRoot, '--', ...stdioFixture, 'echo', 'extra']);
    assert.equal(wrong.code, 2, wrong.stderr);
    assert.match(wrong.stderr, /has no tool "extra": the words after -- were split into the command `node .* serve echo` and the tool extra, and echo is one of its tools; run: byhand call --cwd \S+ --tool echo extra -- node .*sdk-stdio-server-\w+\.mjs serve;/);

    const none = await byhand(['call', '--cwd', repoRoot, '--', ...stdioFixture, 'nosuch', 'text=hi']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /if nosuch belongs to the command line, run \(with the tool you want\): byhand call --cwd \S+ --tool echo text=hi -- node .* serve nosuch/);

    // A program that does not exist is not helped by moving the split: only why it did not start is said.
    const started = await byhand(['call', '--timeout', '5000', '--', join(scratch, 'no-such-server'), 'mytool']);
    assert.equal(started.code, 4);
    assert.match(started.stderr, /cannot start '\S+no-such-server': spawn \S+ ENOENT/);
    assert.doesNotMatch(started.stderr, /split into/);
  });

  test('a runner alone is never left as the command (`-- npx -y pkg` lists); --uri and --prompt are exact too', { timeout: 30_000 }, async () => {
    const { callArgsOf } = await import('../packages/byhand/src/call/args.js');
    const { callSpec } = await import('../packages/byhand/src/call/spec.js');
    const { parseCommand } = await import('../packages/byhand/src/shared/kit.js');
    type Verb = Parameters<typeof callSpec>[0];
    const parseCallArgs = (verb: Verb, args: string[]) => callArgsOf(verb, parseCommand(callSpec(verb), args), args);
    const parsed = parseCallArgs('call', ['--', 'npx', '-y', 'pkg']);
    assert.deepEqual([parsed.server.command, parsed.name], [['npx', '-y', 'pkg'], undefined]);
    const alone = parseCallArgs('call', ['--', 'uvx', 'mcp-server-time']);
    assert.deepEqual([alone.server.command, alone.name, alone.guessed], [['uvx', 'mcp-server-time'], undefined, undefined]);
    const exact = parseCallArgs('call', ['--tool', 'get_time', 'tz=UTC', '--', 'uvx', 'mcp-server-time']);
    assert.deepEqual([exact.server.command, exact.name, exact.pairs], [['uvx', 'mcp-server-time'], 'get_time', ['tz=UTC']]);
    const read = parseCallArgs('read', ['--uri', 'note://one', '--', 'node', 'server.js', 'extra']);
    const prompt = parseCallArgs('prompt', ['--prompt', 'greet', 'who=Ada', '--', 'node', 'server.js']);
    assert.deepEqual([read.server.command, read.name, prompt.server.command, prompt.name, prompt.pairs], [['node', 'server.js', 'extra'], 'note://one', ['node', 'server.js'], 'greet', ['who=Ada']]);
  });
});
