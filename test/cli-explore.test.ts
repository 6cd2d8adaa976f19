// The explorer, as a user runs it: the built command in this process (support/cli.ts), a temporary HOME and project
// folder for config discovery, the bundled toolboxes, the SDK fixture over HTTP in both eras, and the official
// reference server (server-everything) over stdio; the binary where a stdio server must be found on a PATH of its own.

import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { byhandBinary, byhandIn, type CliRun } from './support/cli.js';
import { fixtureScript } from './support/fixture-bundle.js';
import { fixtureHandler, serve, type Served } from './fixtures/sdk-server.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const everything = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const stdioFixture = [fixtureScript('test/fixtures/sdk-stdio-server.ts'), 'serve'];
const scratch = mkdtempSync(join(tmpdir(), 'byhand-explore-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Options {
  home?: string;
  cwd?: string;
  env?: Record<string, string>;
}

/** byhand with an empty HOME and an empty project folder unless told otherwise, and only the environment given. */
function byhand(args: string[], options: Options = {}): Promise<CliRun> {
  return byhandIn(place(options), ...args);
}

/** The binary, for a stdio server that must find a program on the PATH given. */
function byhandProcess(args: string[], options: Options = {}): Promise<CliRun> {
  return byhandBinary(place(options), ...args);
}

function place(options: Options) {
  const home = options.home ?? folder('home-empty');
  const cwd = options.cwd ?? folder('project-empty');
  return { cwd, onlyEnv: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1', BYHAND_PROVIDER: 'offline', ...options.env }, timeoutMs: 60_000 };
}

function folder(...parts: string[]): string {
  const path = join(scratch, ...parts);
  mkdirSync(path, { recursive: true });
  return path;
}

function write(path: string, text: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe('byhand list', () => {
  test('the Kitchen in the modern era: tools with their arguments, resources, templates, prompts', { timeout: 60_000 }, async () => {
    const { code, stdout, stderr } = await byhand(['list', 'kitchen']);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^byhand: kitchen, bundled, started in this process at .*; modern era, 2026-07-28$/m);
    assert.match(stdout, /^tools \(2\):\n {2}summarise_week \(Summarise the week\)/m);
    assert.match(stdout, /^ {6}depth: "brief"\|"full", optional, default "brief" - /m);
    assert.match(stdout, /^resources \(2\):\n {2}kitchen:\/\/pantry/m);
    assert.match(stdout, /^resource templates: none$/m);
    assert.match(stdout, /^ {6}days: string, required - how many days to plan/m);
  });

  test('the Kitchen in the legacy era, one kind, --json with the schemas', { timeout: 60_000 }, async () => {
    const { code, stdout, stderr } = await byhand(['list', 'kitchen', 'tools', '--era', 'legacy', '--json']);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /legacy era, 2025-11-25, pinned by --era/);
    const listing = JSON.parse(stdout);
    assert.deepEqual(Object.keys(listing), ['tools']);
    assert.equal(listing.tools[0].inputSchema.properties.depth.default, 'brief');
  });

  test('--trace spells out the caching hints of a modern list', { timeout: 60_000 }, async () => {
    const { code, stderr } = await byhand(['list', 'kitchen', 'tools', '--trace']);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^← HTTP 200 application\/json \{"result":\{"tools":.* \(cacheable for \d+ ms, scope (public|private)\)$/m);
  });

  test('the official reference server over stdio (legacy): templates included', { timeout: 60_000 }, async () => {
    const { code, stdout, stderr } = await byhand(['list', 'templates', '--', process.execPath, everything, 'stdio']);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /started as a stdio server; legacy era/);
    assert.match(stdout, /^resource templates \(\d+\):\n {2}\S+\{/m);
  });

  test('list, checkpoint and call declare the same capabilities: the reference server offers them the same tools', { timeout: 60_000 }, async () => {
    const config = write(join(folder('capabilities'), 'mcp.json'), JSON.stringify({ mcpServers: { reference: { command: process.execPath, args: [everything, 'stdio'] } } }));
    const [list, checkpoint, call] = await Promise.all([['list', 'reference', 'tools'], ['checkpoint', 'reference'], ['call', 'reference']].map((args) => byhand([...args, '--json', '--config', config])));
    for (const run of [list, checkpoint]) assert.equal(run.code, 0, run.stderr);
    // call without a tool lists them and asks for one (usage).
    assert.equal(call.code, 2, call.stderr);
    const listed = (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name).sort();
    // The tools the server offers only to a client that can sample, ask (form and URL) or list roots.
    for (const name of ['trigger-sampling-request', 'trigger-elicitation-request', 'trigger-url-elicitation', 'get-roots-list']) assert.ok(listed.includes(name), `list shows ${name}: ${listed.join(', ')}`);
    assert.deepEqual((JSON.parse(call.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name).sort(), listed);
    assert.equal((JSON.parse(checkpoint.stdout) as { counts: { tools: number } }).counts.tools, listed.length);
  });

  describe('the SDK fixture over HTTP, modern and legacy-only', () => {
    let modern: Served;
    let legacy: Served;
    before(async () => {
      [modern, legacy] = await Promise.all([serve(fixtureHandler('modern-only')), serve(fixtureHandler('legacy-session'))]);
    });
    after(() => Promise.all([modern.close(), legacy.close()]));

    test('the same listing from both eras', { timeout: 60_000 }, async () => {
      const [a, b] = await Promise.all([byhand(['list', modern.url, 'tools']), byhand(['list', legacy.url, 'tools'])]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(b.code, 0, b.stderr);
      assert.match(a.stderr, /modern era, 2026-07-28/);
      assert.match(b.stderr, /legacy era, 2025-11-25, found by trying the modern era first \(/);
      assert.doesNotMatch(b.stderr, /failed/, 'the usual way to meet a legacy server is no failure');
      assert.equal(a.stdout, b.stdout);
      assert.match(a.stdout, /^ {2}echo\n {6}echoes its text\n {6}text: string, required$/m);
    });

    test('each run finds the era itself: runs in one process share no verdict', { timeout: 60_000 }, async () => {
      const runs = [await byhand(['list', legacy.url, 'tools', '--trace']), await byhand(['list', legacy.url, 'tools', '--trace'])];
      for (const run of runs) {
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stderr, /found by trying the modern era first/);
        assert.match(run.stderr, /server\/discover/, 'the modern era tried first, as a fresh process would');
      }
    });

    test('--header reaches an ad-hoc URL', { timeout: 60_000 }, async () => {
      const { code, stderr } = await byhand(['list', modern.url, 'prompts', '--header', 'X-Trace-Id: abc 123']);
      assert.equal(code, 0, stderr);
      assert.ok(modern.requests.some((r) => r.headers['x-trace-id'] === 'abc 123'));
    });
  });

  test('mistakes: no SERVER, an unknown kind, --json errors as JSON', { timeout: 60_000 }, async () => {
    const none = await byhand(['list']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^✗ byhand list needs a SERVER\nusage: byhand list SERVER/);
    const kind = await byhand(['list', 'kitchen', 'tool']);
    assert.equal(kind.code, 2);
    assert.match(kind.stderr, /^✗ byhand list: no kind "tool" \(did you mean tools\?\)/);
    const json = await byhand(['list', 'nowhere', '--json']);
    assert.equal(json.code, 2);
    assert.deepEqual(JSON.parse(json.stdout).error.code, 'usage');
    assert.match(JSON.parse(json.stdout).error.message, /unknown server "nowhere"/);
  });
});

describe('call, read and prompt without a name list the choices', () => {
  test('call kitchen lists the tools; read lists resources and templates; prompt lists prompts; each exits 2 (a name is needed)', { timeout: 60_000 }, async () => {
    const [call, read, prompt] = await Promise.all([byhand(['call', 'kitchen']), byhand(['read', 'kitchen']), byhand(['prompt', 'kitchen'])]);
    assert.deepEqual([call.code, read.code, prompt.code], [2, 2, 2], call.stderr);
    assert.match(call.stdout, /^tools \(2\):/);
    assert.doesNotMatch(call.stdout, /^resources/m);
    assert.match(call.stderr, /^byhand: to call a tool, name it: byhand call kitchen summarise_week \[key=value \.\.\.\]$/m);
    assert.match(read.stderr, /^byhand: to read one, name it: byhand read kitchen kitchen:\/\/pantry$/m);
    assert.match(read.stdout, /^resources \(2\):[\s\S]*^resource templates: none$/m);
    assert.match(prompt.stdout, /^prompts \(1\):\n {2}plan_meals/);
  });

  test('--json prints one JSON document a line, as checkpoint does: the listing and the result', { timeout: 60_000 }, async () => {
    const [listing, called, listed] = await Promise.all([byhand(['call', 'kitchen', '--json']), byhand(['call', 'kitchen', 'summarise_week', '--json']), byhand(['list', 'kitchen', '--json'])]);
    for (const { stdout, stderr } of [listing, called, listed]) {
      const lines = stdout.trimEnd().split('\n');
      assert.equal(lines.length, 1, stderr);
      assert.equal(typeof JSON.parse(lines[0]), 'object');
    }
    assert.ok(Array.isArray(JSON.parse(listing.stdout).tools));
  });

  test('a misspelt tool points at the listing', { timeout: 60_000 }, async () => {
    const { code, stderr } = await byhand(['call', 'kitchen', 'sumarise_week']);
    assert.equal(code, 2);
    assert.match(stderr, /\(byhand call kitchen lists them with their arguments\)$/m);
  });
});

describe('ad-hoc targets', () => {
  test('call -- COMMAND ... TOOL key=value: a stdio server from its command line, run in --cwd', { timeout: 60_000 }, async () => {
    const { code, stdout, stderr } = await byhand(['call', '--cwd', repoRoot, '--', process.execPath, ...stdioFixture, 'echo', 'text=hi']);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /started as a stdio server; modern era/);
    assert.equal(stdout, 'echo: hi\n');
  });

  test('call TOOL key=value -- COMMAND, and --env reaches the server', { timeout: 60_000 }, async () => {
    const { code, stdout, stderr } = await byhand(['call', 'get-env', '--env', 'BYHAND_EXPLORE=seen', '--', process.execPath, everything, 'stdio']);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /"BYHAND_EXPLORE": "seen"/);
  });

  test('list, complete and task say which server they opened with its secret words redacted', { timeout: 60_000 }, async () => {
    // The stdio fixture ignores the extra words; the CLI prints the command line back on stderr, and must not print the key.
    const command = ['--', process.execPath, ...stdioFixture, '--api-key', 'sk-live-explore-1'];
    const runs = [
      await byhand(['list', 'tools', '--cwd', repoRoot, ...command]),
      await byhand(['complete', 'prompt', 'no-such-prompt', 'arg', '--cwd', repoRoot, ...command]),
      await byhand(['task', 'get', 'no-such-task', '--cwd', repoRoot, ...command]),
    ];
    assert.equal(runs[0].code, 0, runs[0].stderr);
    for (const { stdout, stderr } of runs) {
      assert.match(stderr, /--api-key \(redacted\)/);
      assert.doesNotMatch(stdout + stderr, /sk-live-explore-1/);
    }
  });

  test('checkpoint URL and -- COMMAND together', { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const served = cleanup(await serve(fixtureHandler('dual')));
    const { code, stdout, stderr } = await byhand(['checkpoint', served.url, '--', process.execPath, everything, 'stdio']);
    assert.equal(code, 0, stdout + stderr);
    assert.match(stdout, new RegExp(`^✓ ${served.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\n {4}era: 2026-07-28`, 'm'));
    assert.match(stdout, /^✓ .*index\.js stdio \(Everything Reference Server\)\n {4}era: 2025-11-25/m);
    assert.match(stdout, /^ {4}\d+ tool\(s\) · \d+ resource\(s\) · \d+ prompt\(s\) · [1-9]\d* template\(s\)$/m);
  });

  test('a word that is neither a URL nor a name needs --transport', { timeout: 60_000 }, async () => {
    const { code, stderr } = await byhand(['list', 'my-server']);
    assert.equal(code, 2);
    assert.match(stderr, /^✗ unknown server "my-server": give an http\(s\) URL, a command line after --/m);
  });
});

describe('config discovery', () => {
  test('a project .mcp.json and a user Cursor config: both read, each named', { timeout: 60_000 }, async () => {
    const home = folder('home-discovery');
    const project = folder('project-discovery');
    write(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: stdioFixture, cwd: repoRoot } } }));
    write(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { reference: { command: process.execPath, args: [everything, 'stdio'] } } }));
    // The folder's own config runs once it is trusted (test/cli-trust.test.ts).
    assert.equal((await byhand(['trust'], { home, cwd: project })).code, 0);
    const { code, stdout, stderr } = await byhand(['checkpoint'], { home, cwd: project });
    assert.equal(code, 0, stdout + stderr);
    assert.match(stderr, /^byhand: servers from .*project-discovery\/\.mcp\.json \(Claude Code \(project\), 1\), .*home-discovery\/\.cursor\/mcp\.json \(Cursor \(user\), 1\); --config FILE picks one file$/m);
    assert.match(stdout, /^✓ fixture\n/m);
    assert.match(stdout, /^✓ reference \(Everything Reference Server\)\n/m);
    const picked = await byhand(['checkpoint', '--server', 'fixture'], { home, cwd: project });
    assert.doesNotMatch(picked.stdout, /reference/);
    const call = await byhand(['call', 'fixture', 'echo', 'text=found'], { home, cwd: project });
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stderr, /^byhand: fixture from .*\.mcp\.json/m);
    assert.equal(call.stdout, 'echo: found\n');
  });

  test("Claude Code's local scope: ~/.claude.json's entry for this folder (by its real path), named as such", { timeout: 60_000 }, async () => {
    const home = folder('home-claude-local');
    const project = folder('project-claude-local');
    const linked = join(scratch, 'project-claude-local-link');
    symlinkSync(project, linked);
    const fixture = { command: process.execPath, args: stdioFixture, cwd: repoRoot };
    write(join(home, '.claude.json'), JSON.stringify({
      numStartups: 3,
      mcpServers: { 'user-fixture': fixture },
      projects: { [realpathSync(project)]: { allowedTools: [], mcpServers: { 'local-fixture': fixture } }, [join(scratch, 'elsewhere')]: { mcpServers: { 'other-folder': fixture } } },
    }));
    const call = await byhand(['call', 'local-fixture', 'echo', 'text=local'], { home, cwd: linked });
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stderr, /^byhand: local-fixture from .*home-claude-local\/\.claude\.json, Claude Code local scope for .*project-claude-local \(/m);
    assert.equal(call.stdout, 'echo: local\n');
    const doctor = await byhand(['doctor'], { home, cwd: linked });
    assert.match(doctor.stdout, /^ {2}✓ read {2}.*\.claude\.json {2}Claude Code \(local\): projects\[".*project-claude-local"\]$/m);
    assert.match(doctor.stdout, /^ {2}✓ read {2}.*\.claude\.json {2}Claude Code \(user\)$/m);
    assert.match(doctor.stdout, /^ {2}✓ local-fixture: .* \(Claude Code local scope for .*project-claude-local\)$/m);
    assert.match(doctor.stdout, /^ {2}✓ user-fixture: /m);
    assert.doesNotMatch(doctor.stdout, /other-folder/);
  });

  test('Claude Desktop on the macOS path and Windsurf serverUrl', { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const served = cleanup(await serve(fixtureHandler('dual')));
    const home = folder('home-desktop');
    write(join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { desktop: { url: served.url } } }));
    write(join(home, '.codeium', 'windsurf', 'mcp_config.json'), JSON.stringify({ mcpServers: { surf: { serverUrl: served.url } } }));
    const { code, stdout, stderr } = await byhand(['checkpoint', '--json'], { home });
    assert.equal(code, 0, stdout + stderr);
    assert.match(stderr, /claude_desktop_config\.json \(Claude Desktop, 1\).*mcp_config\.json \(Windsurf, 1\)/);
    assert.deepEqual(stdout.trim().split('\n').map((line) => JSON.parse(line).name), ['desktop', 'surf']);
  });

  test('--embedded asks for the toolboxes even when a config is there', { timeout: 60_000 }, async () => {
    const project = folder('project-embedded');
    write(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { x: { url: 'http://127.0.0.1:9/mcp' } } }));
    const { code, stdout, stderr } = await byhand(['checkpoint', '--embedded'], { cwd: project });
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^byhand: probing the bundled toolboxes \(--embedded\)$/m);
    assert.match(stdout, /^✓ The Kitchen/m);
  });
});

describe('VS Code mcp.json in full', () => {
  let served: Served;
  let project: string;
  before(async () => {
    served = await serve(fixtureHandler('dual'));
    project = folder('project-vscode');
    write(
      join(project, '.vscode', 'mcp.json'),
      `{
  // the key is asked for, never written down
  "inputs": [{ "type": "promptString", "id": "api-key", "description": "Fixture API key", "password": true }],
  "servers": {
    "remote": { "type": "http", "url": "${served.url}", "headers": { "Authorization": "Bearer \${input:api-key}", "X-Folder": "\${workspaceFolder}" } },
    /* switched off */
    "old": { "type": "stdio", "command": "does-not-exist", "disabled": true },
  },
}
`,
    );
  });
  after(() => served.close());

  test('comments and trailing commas, a disabled entry skipped and reported, the input from --input', { timeout: 60_000 }, async () => {
    const { code, stdout, stderr } = await byhand(['checkpoint', '--trust', '--input', 'api-key=s3cret'], { cwd: project });
    assert.equal(code, 0, stdout + stderr);
    assert.match(stderr, /^byhand: skipped old: "disabled": true in .*\.vscode\/mcp\.json$/m);
    assert.match(stdout, /^✓ remote\n/);
    const sent = served.requests.filter((r) => r.headers.authorization);
    assert.ok(sent.length > 0 && sent.every((r) => r.headers.authorization === 'Bearer s3cret'), 'the input was sent, not its placeholder');
    assert.ok(served.requests.some((r) => r.headers['x-folder'] === project), '${workspaceFolder} is the project folder');
  });

  test('without --input and without a terminal: the entry says which --input to give, nothing is sent', { timeout: 60_000 }, async () => {
    const before = served.requests.length;
    const { code, stdout } = await byhand(['checkpoint', '--trust'], { cwd: project });
    assert.equal(code, 2, 'an entry that needs an input is the caller\'s to fix');
    assert.match(stdout, /needs \$\{input:api-key\} \(Fixture API key\): give --input api-key=VALUE/);
    assert.equal(served.requests.length, before, 'no request carried the placeholder');
    const call = await byhand(['call', 'old', 'x', '--trust'], { cwd: project });
    assert.equal(call.code, 2);
    assert.match(call.stderr, /^✗ old is disabled in .*mcp\.json \("disabled": true\)$/m);
  });

  test('a JSONC error is reported at line and column', { timeout: 60_000 }, async () => {
    const bad = write(join(folder('project-bad'), 'mcp.json'), '{\n  "servers": {\n    "a": { "url": }\n  }\n}\n');
    const { code, stderr } = await byhand(['checkpoint', '--config', bad]);
    assert.equal(code, 2);
    assert.match(stderr, /^✗ .*mcp\.json:3:19: not valid JSON \(expected a value, found "\}"\)$/m);
  });
});

describe('one command kit', () => {
  test('-v, an unknown command with did-you-mean, help with defaults', { timeout: 60_000 }, async () => {
    const version = await byhand(['-v']);
    assert.match(version.stdout, /^byhand \d+\.\d+\.\d+\n$/);
    const unknown = await byhand(['chekpoint']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^✗ unknown command "chekpoint" \(did you mean checkpoint\?\)$/m);
    const help = await byhand(['checkpoint', '--help']);
    assert.match(help.stdout, /^ {2}--timeout MS +per-server timeout in milliseconds \(default: 10000\)$/m);
    const flag = await byhand(['login', 'x', '--headles']);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /^✗ byhand login: unknown option --headles \(did you mean --headless\?\)$/m);
    const serve = await byhand(['serve', '--prot', '0']);
    assert.equal(serve.code, 2);
    assert.match(serve.stderr, /^✗ byhand serve: unknown option --prot \(did you mean --port\?\)$/m);
    const serveHelp = await byhand(['serve', '--help']);
    assert.match(serveHelp.stdout, /^ {2}--port N +port to listen on \(0 picks a free one\) \(default: 3000\)$/m);
  });

  test('a checkpoint timeout is a timeout, with its value and the flag', { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    // A server that reads the request and never answers.
    const silent = cleanup(await serve(() => new Promise<Response>(() => undefined)));
    const { code, stdout } = await byhand(['checkpoint', silent.url, '--timeout', '300']);
    assert.equal(code, 4);
    assert.match(stdout, /^ {4}timeout: no answer within 300 ms \(hint: the server is slow, hung or still starting: raise --timeout/m);
  });

  test('a checkpoint timeout of an npx server says a first run downloads the package', { timeout: 60_000 }, async () => {
    // An npx that, like a cold one, says nothing for longer than the timeout; it ends when its stdin closes.
    const bin = folder('fake-npx');
    write(join(bin, 'npx'), '#!/bin/sh\nexec cat >/dev/null\n');
    chmodSync(join(bin, 'npx'), 0o755);
    const { code, stdout } = await byhandProcess(['checkpoint', '--timeout', '300', '--', 'npx', '-y', 'some-server'], { env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
    assert.equal(code, 4, stdout);
    assert.match(stdout, /^ {4}timeout: no answer within 300 ms \(hint: .*a first npx run downloads the package/m);
  });
});

describe('completion/complete', () => {
  test('the Everything toolbox (modern) and the reference server (legacy, with context)', { timeout: 60_000 }, async () => {
    const modern = await byhand(['complete', 'everything', 'prompt', 'test_prompt_with_arguments', 'arg1', 'par']);
    assert.equal(modern.code, 0, modern.stderr);
    assert.match(modern.stderr, /modern era, 2026-07-28/);
    assert.equal(modern.stdout, 'paris\npark\nparsley\n');
    const legacy = await byhand(['complete', 'prompt', 'completable-prompt', 'name', '--context', 'department=Sales', '--json', '--', process.execPath, everything, 'stdio']);
    assert.equal(legacy.code, 0, legacy.stderr);
    assert.match(legacy.stderr, /legacy era, 2025-11-25/);
    assert.deepEqual(JSON.parse(legacy.stdout).values, ['David', 'Eve', 'Frank']);
  });

  test('a missing kind is a usage error', { timeout: 60_000 }, async () => {
    const { code, stderr } = await byhand(['complete', 'everything', 'test_prompt_with_arguments', 'arg1']);
    assert.equal(code, 2);
    assert.match(stderr, /^✗ byhand complete: say prompt or resource before the name, not "test_prompt_with_arguments"$/m);
  });
});

describe('doctor and shell completion', () => {
  test('doctor names the provider and why, the configs looked at and the one read', { timeout: 60_000 }, async () => {
    const project = folder('project-doctor');
    write(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { one: { url: 'http://127.0.0.1:9/mcp' }, off: { command: 'x', disabled: true } } }));
    const home = folder('home-doctor');
    assert.equal((await byhand(['trust'], { home, cwd: project })).code, 0);
    const plain = await byhand(['doctor'], { home, cwd: project, env: { BYHAND_PROVIDER: '', BYHAND_OPENAI_BASE_URL: 'http://127.0.0.1:9' } });
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /^sampling provider: openai-compatible \(http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions\)\n {2}why: BYHAND_OPENAI_BASE_URL is set/);
    assert.match(plain.stdout, /^ {2}✓ read {2}.*project-doctor\/\.mcp\.json {2}Claude Code \(project\) \(trusted\)$/m);
    assert.match(plain.stdout, /^ {2}- off: disabled$/m);
    const json = JSON.parse((await byhand(['doctor', '--json'], { home, cwd: project, env: { BYHAND_PROVIDER: 'anthropic' } })).stdout);
    assert.equal(json.provider.error, 'BYHAND_PROVIDER=anthropic needs ANTHROPIC_API_KEY');
    assert.equal(json.configs.filter((c: { read: boolean }) => c.read).length, 1);
  });

  test('completion bash completes commands and a command\'s flags', { timeout: 60_000 }, async () => {
    const { stdout } = await byhand(['completion', 'bash']);
    assert.match(stdout, /compgen -W "checkpoint list check call read prompt complete task watch bridge inspect demo login trust doctor completion serve --help --version"/);
    assert.match(stdout, /^ {4}call\) opts="--config --embedded .*--log-level --out --detach --help" ;;$/m);
    const fish = await byhand(['completion', 'fish']);
    assert.match(fish.stdout, /^complete -c byhand -n "__fish_seen_subcommand_from watch" -l count -r/m);
    const bad = await byhand(['completion', 'tcsh']);
    assert.equal(bad.code, 2);
    const help = await byhand(['completion', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^usage: byhand completion bash\|zsh\|fish$/m);
  });
});

describe('checkpoint details', () => {
  test('--details shows capabilities and instructions; --json carries them', { timeout: 60_000 }, async () => {
    const human = await byhand(['checkpoint', 'kitchen', '--details']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^ {4}capabilities: tools \(listChanged\), resources \(listChanged\), prompts \(listChanged\)\n {4}instructions: The Kitchen knows the pantry/m);
    const json = JSON.parse((await byhand(['checkpoint', 'kitchen', '--json'])).stdout);
    assert.ok('tools' in json.capabilities);
    assert.match(json.instructions, /^The Kitchen knows the pantry/);
    assert.match(json.target, /^http:\/\/127\.0\.0\.1:\d+\/api\/kitchen$/);
  });

  test('"can ask you to think" is not claimed for a modern server that offers nothing to call', { timeout: 10_000 }, async () => {
    const { renderReport, plain } = await import('../packages/byhand/src/checkpoint/render.js');
    const report = { name: 'Empty', target: 'http://x/mcp', ok: true, era: 'modern' as const, protocolVersion: '2026-07-28', reach: 'modern' as const, canSample: false, counts: { tools: 0, resources: 0, prompts: 0, templates: 0 }, elapsedMs: 5, exitCode: 0 as const };
    assert.match(renderReport(report, plain), /^ {4}era: 2026-07-28 \(offers nothing that could ask you\)$/m);
    assert.match(renderReport({ ...report, name: 'Evil\u001b[2J' }, plain), /^✓ Evil\\u001b\[2J$/m, 'control characters from a server are neutralised');
  });
});

test('${input:id} at a terminal: asked with its description, a password never echoed', { timeout: 10_000 }, async () => {
  const { PassThrough, Writable } = await import('node:stream');
  const { askInputs } = await import('../packages/byhand/src/shared/inputs.js');
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let shown = '';
  const stderr = Object.assign(new Writable({ write: (chunk, _encoding, done) => void ((shown += String(chunk)), done()) }), { isTTY: true });
  const asked = askInputs([{ id: 'api-key', description: 'API key', password: true }, { id: 'region', password: false }], { stdin, stderr });
  stdin.write('s3cret\r');
  await until(() => shown.includes('region'));
  stdin.write('eu\r');
  assert.deepEqual(await asked, { 'api-key': 's3cret', region: 'eu' });
  assert.match(shown, /API key \(\$\{input:api-key\}\), not shown: /);
  assert.doesNotMatch(shown, /s3cret/);
  assert.match(shown, /region \(\$\{input:region\}\): .*eu/);
  // Without a terminal nothing is asked: the caller names the --input to give.
  assert.equal(await askInputs([{ id: 'x', password: false }], { stdin: new PassThrough(), stderr }), undefined);
});

async function until(condition: () => boolean): Promise<void> {
  for (const started = Date.now(); !condition() && Date.now() - started < 20_000; ) await new Promise((resolve) => setTimeout(resolve, 10));
}
