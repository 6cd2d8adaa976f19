// `byhand call` as a person meets it: the real command in a child on a real pseudo-terminal
// (util-linux `script`), against a server built on the official SDK and a local OpenAI-compatible
// model endpoint. One question at a time, one answer per question, secrets unseen, Ctrl-C stops all.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { after, before, describe, test } from './support/node-test.js';
import { bin as cli } from './support/cli.js';
import { fileURLToPath } from 'node:url';
import { fixtureHandler, serve, type Served } from './fixtures/sdk-server.js';
import { fakeModel, serveHostSafety, type FakeModel } from './fixtures/host-safety-server.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const haveScript = spawnSync('script', ['--version']).status === 0;

interface Step {
  /** Waits until this holds of everything shown so far, then types. */
  until: (output: string) => boolean;
  type: string;
}
const shows = (text: string, times = 1): Step['until'] => (output) => output.split(text).length - 1 >= times;

let server: Served;
let model: FakeModel;

function onPty(args: string[], steps: Step[]) {
  return onPtyCommand(['node', cli, 'call', server.url, ...args].join(' '), steps);
}

async function onPtyCommand(command: string, steps: Step[]) {
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: repo,
    env: { ...process.env, TERM: process.env.TERM ?? 'xterm', BYHAND_OPENAI_BASE_URL: model.url, BYHAND_OPENAI_MODEL: 'fake-model' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  let waiting: (() => void) | undefined;
  child.stdout.on('data', (chunk) => {
    output += chunk;
    waiting?.();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const timer = setTimeout(() => child.kill(), 25_000);
  try {
    for (const step of steps) {
      await new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!step.until(output)) return;
          waiting = undefined;
          resolve();
        };
        waiting = check;
        check();
        void exited.then(() => reject(new Error(`exited before the step was due:\n${output}`)));
      });
      child.stdin.write(step.type);
    }
    return { code: await exited, output };
  } finally {
    clearTimeout(timer);
    child.stdin.end();
  }
}

describe('byhand call on a pseudo-terminal', { skip: !haveScript && 'util-linux script is not installed' }, () => {
  before(async () => {
    server = await serveHostSafety();
    model = await fakeModel();
  });
  after(async () => {
    await server.close();
    await model.close();
  });

  test('two forms in one round: each answer goes to its own form, and the PIN is flagged, unechoed and *** in the trace', { timeout: 30_000 }, async () => {
    const run = await onPty(['two_forms', '--trace'], [
      { until: shows('Public nickname: '), type: 'zed\r' },
      { until: shows('Card PIN: '), type: '4321\r' },
    ]);
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /nickname=zed; pin correct \(4 digits\)/);
    assert.match(run.output, /! this looks like a secret \(a password, token or PIN\)/);
    assert.doesNotMatch(run.output, /4321/, 'the PIN never reaches the screen: not echoed, not in Sending, not in the trace');
    assert.match(run.output, /Sending: \{"pin":"\*\*\*"\}/);
    assert.match(run.output, /"pin":"\*\*\*"/);
    assert.ok(run.output.indexOf('Sending: {"nickname":"zed"}') < run.output.indexOf('Card PIN: '), 'the second form is shown once the first is closed');
  });

  test('three model calls asked at once, no --yes: one y approves exactly one call, and n stops the rest', { timeout: 30_000 }, async () => {
    const before = model.calls;
    const question = 'Send this to fake-model via openai-compatible? [y/N] ';
    const run = await onPty(['many_thoughts', 'count=3'], [
      { until: shows(question), type: 'y\r' },
      // The first call is made before the second question is answered.
      { until: (output) => shows(question, 2)(output) && model.calls - before === 1, type: 'n\r' },
    ]);
    assert.equal(run.code, 1, run.output);
    assert.equal(model.calls - before, 1, 'one y, one model call');
    assert.equal(run.output.split(question).length - 1, 2, 'the third question is never shown');
    assert.match(run.output, /size: \d+ characters in all \(about \d+ tokens\)/);
    assert.match(run.output, /you declined the model call/);
  });

  test('Ctrl-C at a form stops the whole command with exit 130, and the next form is never shown', { timeout: 30_000 }, async () => {
    const run = await onPty(['two_forms'], [{ until: shows('Public nickname: '), type: '\u0003' }]);
    assert.equal(run.code, 130, run.output);
    assert.match(run.output, /interrupted \(Ctrl-C\) at a question/);
    assert.doesNotMatch(run.output, /Card PIN/);
  });

  test('Ctrl-C at an approval exits 130 without a model call', { timeout: 30_000 }, async () => {
    const before = model.calls;
    const run = await onPty(['many_thoughts', 'count=2'], [{ until: shows('[y/N] '), type: '\u0003' }]);
    assert.equal(run.code, 130, run.output);
    assert.equal(model.calls - before, 0);
  });
});

describe('byhand call on a pseudo-terminal, 2025-era server', { skip: !haveScript && 'util-linux script is not installed' }, () => {
  let legacy: Served;
  before(async () => {
    legacy = await serve(fixtureHandler('legacy-session'));
  });
  after(() => legacy.close());

  test('Ctrl-C at a pushed form exits 130 and announces notifications/cancelled for the call in flight', { timeout: 30_000 }, async () => {
    const command = ['node', cli, 'call', legacy.url, 'ask_name'].join(' ');
    const run = await onPtyCommand(command, [{ until: shows('name: '), type: '\u0003' }]);
    assert.equal(run.code, 130, run.output);
    const cancelled = legacy.requests.find((r) => r.body.includes('"notifications/cancelled"'));
    assert.ok(cancelled, `no notifications/cancelled among ${legacy.requests.map((r) => r.body.slice(0, 80)).join('\n')}`);
  });
});
