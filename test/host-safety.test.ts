// The host under concurrency and re-asks (issue 8): the model-call cap holds for any number of keys, a prompt over
// the size cap is refused, questions are asked one at a time, and re-asks are told from loops against a server
// built on the official SDK.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { connect, InputLoopError, type CreateMessageParams, type InputContext } from '../packages/client/src/index.js';
import { createHost, SamplingRefusedError } from '../packages/host/src/index.js';
import { fixtureHandler, serve, type Served } from './fixtures/sdk-server.js';

const ctx = (key: string): InputContext => ({ key, method: 'tools/call', name: 'many', round: 1, era: 'modern', signal: new AbortController().signal });
const ask = (text: string): CreateMessageParams => ({ maxTokens: 10, messages: [{ role: 'user', content: { type: 'text', text } }] });

/** A provider that counts the calls it runs; each takes a tick, so concurrent requests overlap. */
function countingProvider() {
  const provider = {
    name: 'counting',
    endpoint: 'http://counting.invalid',
    spends: true,
    runs: 0,
    async prepare() {
      await new Promise((resolve) => setImmediate(resolve));
      return {
        model: 'count-model',
        notes: [],
        run: async () => {
          provider.runs++;
          await new Promise((resolve) => setImmediate(resolve));
          return { role: 'assistant' as const, content: { type: 'text' as const, text: 'ok' }, model: 'count-model', stopReason: 'endTurn' };
        },
      };
    },
  };
  return provider;
}

describe('spend', { timeout: 10_000 }, () => {
  test('fifty sampling requests at once make at most maxModelCalls model calls', async () => {
    const provider = countingProvider();
    const host = createHost({ provider, yes: true, maxModelCalls: 5, input: new PassThrough(), output: new PassThrough() });
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => host.sample!(ask(`q${i}`), ctx(`k${i}`))));
    assert.equal(provider.runs, 5);
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 5);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    assert.ok(refused.every((o) => o.reason instanceof SamplingRefusedError && o.reason.reason === 'model-call-cap'));
  });

  test('a declined call gives its slot back', async () => {
    const provider = countingProvider();
    let answers = 0;
    const host = createHost({ provider, maxModelCalls: 1, interactive: true, approve: async () => ++answers > 1, input: new PassThrough(), output: new PassThrough() });
    await assert.rejects(host.sample!(ask('first'), ctx('a')), /declined/);
    await host.sample!(ask('second'), ctx('b'));
    assert.equal(provider.runs, 1);
  });

  test('a prompt over the size cap is refused before anything is sent, and the screen states the whole size', async () => {
    const provider = countingProvider();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk) => (shown += chunk));
    const host = createHost({ provider, yes: true, maxPromptChars: 1_000, input: new PassThrough(), output });
    await assert.rejects(host.sample!(ask('x'.repeat(5_000)), ctx('big')), (error: SamplingRefusedError) => error.reason === 'prompt-too-large' && /5000 characters/.test(error.message));
    assert.equal(provider.runs, 0);
    await host.sample!(ask('y'.repeat(900)), ctx('fits'));
    assert.match(shown, /sending 900 characters of text in all \(about 225 tokens\)/);
  });
});

describe('one question at a time', { timeout: 10_000 }, () => {
  test('two forms in one round: each answer goes to the form it was typed for', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const host = createHost({ sampling: false, input, output, interactive: true });
    const form = (field: string) => ({ message: `Give your ${field}`, requestedSchema: { type: 'object' as const, properties: { [field]: { type: 'string' as const } }, required: [field] } });
    const both = Promise.all([host.elicit(form('nickname'), ctx('a')), host.elicit(form('city'), ctx('b'))]);
    input.write('Ada\nLondon\n');
    const [first, second] = await both;
    assert.deepEqual(first, { action: 'accept', content: { nickname: 'Ada' } });
    assert.deepEqual(second, { action: 'accept', content: { city: 'London' } });
  });

  test('a secret field is flagged and never shown back', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk) => (shown += chunk));
    const host = createHost({ sampling: false, input, output, interactive: true });
    const answer = host.elicit({ message: 'Log in', requestedSchema: { type: 'object', properties: { user: { type: 'string' }, pin: { type: 'string', title: 'PIN' } }, required: ['user', 'pin'] } }, ctx('login'));
    input.write('ada\n4921\n');
    assert.deepEqual(await answer, { action: 'accept', content: { user: 'ada', pin: '4921' } });
    assert.match(shown, /looks like a password or other secret/);
    assert.match(shown, /Sending: \{"user":"ada","pin":"\*\*\*"\}/);
    assert.doesNotMatch(shown, /4921/);
  });

  test('with no terminal and no --answers, a form fails and names --answers', async () => {
    const host = createHost({ sampling: false, input: new PassThrough(), output: new PassThrough() });
    await assert.rejects(host.elicit({ message: 'Who?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, ctx('who')), /no --answers file was given; pass --answers FILE/);
  });
});

describe('re-asks against a server built on the official SDK', { timeout: 20_000 }, () => {
  let served: Served;
  before(async () => {
    served = await serve(fixtureHandler('modern-only'));
  });
  after(() => served.close());

  test('a validation re-ask (the same request after an answer that did not fit) is asked again and completes', async () => {
    const attempts: number[] = [];
    const client = await connect(served.url, {
      host: { elicit: async (_params, c) => (attempts.push(c.attempt ?? 1), { action: 'accept', content: { n: attempts.length === 1 ? 42 : 7 } }) },
    });
    try {
      const result = await client.callTool('pick_number', {});
      assert.match(JSON.stringify(result.content), /picked 7/);
      assert.deepEqual(attempts, [1, 2], 'the host is told the second ask is a re-ask');
    } finally {
      await client.close();
    }
  });

  test('a server that never reads the answer is stopped with the diagnosis, within the model-call cap', async () => {
    const provider = countingProvider();
    const host = createHost({ provider, yes: true, maxModelCalls: 5, input: new PassThrough(), output: new PassThrough() });
    const client = await connect(served.url, { host });
    try {
      await assert.rejects(client.callTool('never_reads', {}), (error: InputLoopError) => error instanceof InputLoopError && /top-level params/.test(error.hint));
      assert.ok(provider.runs <= 3, `${provider.runs} model calls`);
    } finally {
      await client.close();
    }
  });

  test('the same answer to the same question again is a fixed point: stopped at once', async () => {
    let asked = 0;
    const client = await connect(served.url, { host: { elicit: async () => (asked++, { action: 'accept', content: { n: 99 } }) } });
    try {
      await assert.rejects(client.callTool('pick_number', {}), (error: InputLoopError) => error instanceof InputLoopError && /same answer/.test(error.message));
      assert.equal(asked, 2);
    } finally {
      await client.close();
    }
  });
});
