// The host under a server that asks for many things at once, re-asks, or never reads its answers:
// `byhand call` run in-process with injected streams (no terminal: --yes, piped answers, --answers),
// against a server built on the official SDK and a local OpenAI-compatible model endpoint.
// The terminal cases (approvals, two forms, secrets, Ctrl-C) are in host-safety-pty.test.ts.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from './support/node-test.js';
import { callCommand } from '../packages/byhand/src/call/command.js';
import type { Served } from './fixtures/sdk-server.js';
import { fakeModel, serveHostSafety, type FakeModel } from './fixtures/host-safety-server.js';
import { collector, runOwn } from './support/collector.js';

let server: Served;
let model: FakeModel;
before(async () => {
  server = await serveHostSafety();
  model = await fakeModel();
});
after(async () => {
  await server.close();
  await model.close();
});

async function call(args: string[], stdinText = '') {
  const stdin = new PassThrough();
  stdin.end(stdinText);
  const io = { stdout: collector(), stderr: collector(), stdin, env: { BYHAND_OPENAI_BASE_URL: model.url, BYHAND_OPENAI_MODEL: 'fake-model' }, ...runOwn() };
  const before = model.calls;
  const code = await callCommand('call', [server.url, ...args], io);
  return { code, stdout: io.stdout.text, stderr: io.stderr.text, modelCalls: model.calls - before };
}

describe('the model-call cap holds under concurrency', () => {
  test('50 sampling keys in one round, --yes: at most 5 model calls, and the refusal says why', { timeout: 20_000 }, async () => {
    const run = await call(['many_thoughts', 'count=50', '--yes']);
    assert.equal(run.code, 1, run.stderr);
    assert.ok(run.modelCalls <= 5, `${run.modelCalls} model calls were made`);
    assert.match(run.stderr, /may make at most 5 and has made or started them all/);
  });

  test('5 keys fit the cap: five calls, and the tool completes', { timeout: 20_000 }, async () => {
    const run = await call(['many_thoughts', 'count=5', '--yes']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.modelCalls, 5);
    assert.match(run.stdout, /5 thoughts/);
    assert.match(run.stderr, /model call 5 of at most 5/);
    assert.equal(run.stderr.match(/the host answered \[\w+\] with fake-model via openai-compatible \(maxTokens \d+; the provider reports 1,234 tokens in, 7 out\)$/gm)?.length, 5, run.stderr);
  });

  test('a multi-megabyte prompt is refused before any model call, with its full size', { timeout: 20_000 }, async () => {
    const run = await call(['huge_prompt', '--yes']);
    assert.equal(run.code, 1);
    assert.equal(run.modelCalls, 0);
    assert.match(run.stderr, /is 3,000,0\d\d characters \(about 750,0\d\d tokens\), over this host's cap of 100,000; nothing was sent to a model/);
  });
});

describe('re-asks against an SDK server', () => {
  test('a validation re-ask completes: the form is shown again, marked as asked again', { timeout: 20_000 }, async () => {
    const run = await call(['pick_username'], 'admin\nada\n');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /registered ada/);
    assert.match(run.stderr, /The server asks again for the same form \(2nd time in a row\)/);
  });

  test('the same answer to the same re-ask is a fixed point: stopped before sending it again, naming both causes', { timeout: 20_000 }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'byhand-safety-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const answers = join(dir, 'answers.json');
    writeFileSync(answers, JSON.stringify({ username: 'admin' }));
    const seen = server.requests.length;
    const run = await call(['pick_username', '--answers', answers]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /asked again for 'username' with the same request \(2 times in a row\) and got the same answer as last time/);
    assert.match(run.stderr, /it says: "Choose a username \(some are taken\)"\), answer differently \(in the --answers FILE, if one was used/);
    assert.equal(server.requests.slice(seen).filter((r) => r.body.includes('"admin"')).length, 1, 'the rejected answer was sent once, not again');
  });

  test('a server that never reads the answer is stopped within the cap, and the error names the reader/placement bug', { timeout: 20_000 }, async () => {
    const run = await call(['deaf_thinker', '--yes']);
    assert.equal(run.code, 1);
    assert.equal(run.modelCalls, 2, 'one call, one paid re-ask, then stop');
    assert.match(run.stderr, /asked again for 'idea' with the same request 3 times in a row; every ask of a sampling request is a paid model call, so byhand stopped/);
    assert.match(run.stderr, /inputResponses and requestState must be top-level members of params, not inside _meta/);
  });
});

describe('no terminal', () => {
  test('a form with no terminal and no answer fails, naming --answers and the file format', { timeout: 20_000 }, async () => {
    const run = await call(['two_forms']);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /stdin is not a terminal and has no answer for it; run where you can type, or pass --answers FILE, a JSON object such as \{"(nick|pin)":/);
    assert.match(run.stderr, /see the README, "The answers file"/);
  });

  test('a model call with no terminal and no --yes is refused, and every line about it names the flag, not the library option', { timeout: 20_000 }, async () => {
    const run = await call(['deaf_thinker']);
    assert.equal(run.code, 1);
    assert.equal(run.modelCalls, 0);
    assert.match(run.stderr, /^ {2}the host refused \[\w+\]: .*stdin is not a terminal; pass --yes to allow model calls without asking$/m);
    assert.match(run.stderr, /^✗ .*pass --yes to allow model calls without asking$/m);
    assert.doesNotMatch(run.stderr, /`(yes|answersFile)`/);
  });

  test('piped answers go to the form each was typed for, one form at a time; the PIN is never echoed', { timeout: 20_000 }, async () => {
    const run = await call(['two_forms', '--trace'], 'zed\n4321\n');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /nickname=zed; pin correct \(4 digits\)/);
    assert.doesNotMatch(run.stderr, /(?<!\d)4321(?!\d)/, "the PIN never reaches stderr (a port such as 43211 is not the PIN)");
    assert.match(run.stderr, /"pin":"\*\*\*"/, 'the trace shows the PIN as ***');
  });
});
