// The host on a real pseudo-terminal (util-linux `script`): forms typed key by key, Ctrl-D and Ctrl-C,
// and approval of a model call, with the TTY detected rather than told.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { describe, it } from './support/node-test.js';
import { fixtureScript } from './support/fixture-bundle.js';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const haveScript = spawnSync('script', ['--version']).status === 0;

// The fixture runs in the child, on the pty: it answers one input request and prints the result.
const fixture = fixtureScript('test/fixtures/host-pty-child.ts');

/** Runs the fixture on a pty; each step waits for text to appear, then types. */
async function onPty(scenario: string, steps: [waitFor: string, type: string][]) {
  const child = spawn('script', ['-qfec', `node ${fixture} ${scenario}`, '/dev/null'], {
    cwd: repo,
    env: { ...process.env, TERM: process.env.TERM ?? 'xterm' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  let seen = 0;
  let waiting: (() => void) | undefined;
  child.stdout.on('data', (chunk) => {
    output += chunk;
    waiting?.();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const timer = setTimeout(() => child.kill(), 20_000);
  try {
    for (const [waitFor, type] of steps) {
      await new Promise<void>((resolve, reject) => {
        const check = () => {
          const at = output.indexOf(waitFor, seen);
          if (at >= 0) {
            seen = at + waitFor.length;
            waiting = undefined;
            resolve();
          }
        };
        waiting = check;
        check();
        void exited.then(() => reject(new Error(`exited before showing ${JSON.stringify(waitFor)}:\n${output}`)));
      });
      child.stdin.write(type);
    }
    const code = await exited;
    const line = /RESULT (\{.*\})/.exec(output);
    assert.ok(line, `no RESULT line in:\n${output}`);
    return { code, output, ...(JSON.parse(line[1]) as { tty: boolean; result: unknown }) };
  } finally {
    clearTimeout(timer);
    child.stdin.end();
  }
}

describe('host on a pseudo-terminal', { skip: !haveScript && 'util-linux script is not installed' }, () => {
  it('fills a form typed at the terminal, re-asking after a bad answer', async () => {
    const run = await onPty('form', [
      ['Your name: ', 'Ada Lovelace\r'],
      ['size: ', 'many\r'],
      ['✗ size: expected a number', ''],
      ['size: ', '3\r'],
      ['2) Terrace', ''],
      ['seating: ', '2\r'],
      ['Heater [y]: ', '\r'],
    ]);
    assert.equal(run.code, 0);
    assert.equal(run.tty, true);
    assert.deepEqual(run.result, { action: 'accept', content: { name: 'Ada Lovelace', size: 3, seating: 'out', terrace: true } });
  });

  it('cancels on Ctrl-D', async () => {
    const run = await onPty('form', [['Your name: ', '\u0004']]);
    assert.deepEqual(run.result, { action: 'cancel' });
  });

  it('is interrupted by Ctrl-C, which is no answer but a stop', async () => {
    const run = await onPty('form', [['Your name: ', 'Ada\r'], ['size: ', '\u0003']]);
    assert.deepEqual(run.result, { error: 'interrupted (Ctrl-C) at a question; nothing more is asked or sent' });
  });

  it('declines with :decline', async () => {
    const run = await onPty('form', [['Your name: ', ':decline\r']]);
    assert.deepEqual(run.result, { action: 'decline' });
  });

  it('asks before a model call on a TTY, without --yes, and goes ahead on y', async () => {
    const run = await onPty('sample', [['Send this to fake-model via fake? [y/N] ', 'y\r']]);
    assert.equal(run.tty, true);
    assert.match(run.output, /user: Say hi/);
    assert.deepEqual(run.result, { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'fake-model', stopReason: 'endTurn' });
  });

  it('refuses the model call on n', async () => {
    const run = await onPty('sample', [['[y/N] ', 'n\r']]);
    assert.deepEqual(run.result, { error: 'you declined the model call' });
  });
});
