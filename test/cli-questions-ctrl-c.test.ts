// Ctrl-C at any question byhand asks at a terminal stops the command with exit 130, as a shell reports SIGINT: a
// terminal in raw mode hands Ctrl-C to the question, not to the process as a signal, so the question must stop the
// command itself. The binary on a pseudo-terminal (util-linux `script`), a temporary HOME, and configs whose servers
// leave a marker file when they start.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from './support/node-test.js';
import { bin } from './support/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-ctrl-c-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const haveScript = spawnSync('script', ['--version']).status === 0;

/** A stdio "server" that only leaves its mark: proof that it was started. */
function marker(path: string, args: string[] = []) {
  return { command: process.execPath, args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(path)}, 'ran')`, ...args] };
}

function folder(name: string): { home: string; dir: string; env: Record<string, string> } {
  const home = join(scratch, name, 'home');
  const dir = join(scratch, name, 'work');
  mkdirSync(home, { recursive: true });
  mkdirSync(dir, { recursive: true });
  const env = Object.fromEntries(Object.entries({ ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), BYHAND_PROVIDER: 'offline', TERM: 'dumb', NO_COLOR: '1' }).filter(([name, value]) => value !== undefined && name !== 'BYHAND_CONFIG_DIR')) as Record<string, string>;
  return { home, dir, env };
}

/** `byhand ARGS` on a pseudo-terminal: waits for `question`, presses Ctrl-C; the output and the exit code (`script -e` passes it on). */
async function ctrlCAt(question: string, args: string[], where: { dir: string; env: Record<string, string> }): Promise<{ output: string; code: number | null }> {
  const line = [process.execPath, bin, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', line, '/dev/null'], { cwd: where.dir, env: where.env, stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  const asked = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(question)) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const timer = setTimeout(() => child.kill(), 30_000);
  try {
    await Promise.race([asked, exited]);
    assert.ok(output.includes(question), `no question was asked:\n${output}`);
    child.stdin.write('\x03');
    const code = await exited;
    return { output, code };
  } finally {
    clearTimeout(timer);
    child.stdin.end();
    if (child.exitCode === null) child.kill();
  }
}

describe('Ctrl-C at a question', { skip: !haveScript && 'util-linux script is not installed' }, () => {
  test('at an ${input:} question of `byhand list NAME`: exit 130, the server never started', { timeout: 60_000 }, async () => {
    const at = folder('input-list');
    const mark = join(at.dir, 'ran');
    const config = join(at.dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ inputs: [{ id: 'token', description: 'API token', password: true }], servers: { needs: marker(mark, ['${input:token}']) } }));
    const { output, code } = await ctrlCAt('API token', ['list', 'needs', '--config', config, '--timeout', '5000'], at);
    assert.equal(code, 130, output);
    assert.match(output, /✗ list what needs offers: interrupted \(Ctrl-C\) at a question/);
    assert.equal(existsSync(mark), false, 'the server started after Ctrl-C');
  });

  test('at an ${input:} question of `byhand checkpoint`: exit 130, no server probed', { timeout: 60_000 }, async () => {
    const at = folder('input-checkpoint');
    const asked = join(at.dir, 'asked-ran');
    const plain = join(at.dir, 'plain-ran');
    mkdirSync(join(at.home, '.cursor'), { recursive: true });
    writeFileSync(join(at.home, '.cursor', 'mcp.json'), JSON.stringify({ inputs: [{ id: 'token', description: 'API token' }], mcpServers: { asked: marker(asked, ['${input:token}']), plain: marker(plain) } }));
    const { output, code } = await ctrlCAt('API token', ['checkpoint', '--timeout', '5000'], at);
    assert.equal(code, 130, output);
    assert.equal(existsSync(asked) || existsSync(plain), false, 'a server was probed after Ctrl-C');
  });
});
