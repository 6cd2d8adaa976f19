// The sampling policy: what is shown before spending, the caps, approval and the tools gate.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from './support/node-test.js';
import type { CreateMessageParams, InputContext } from '../packages/client/src/types.ts';
import { createHost, SamplingRefusedError, type CreateHostOptions, type HostEvent, type SamplingProvider } from '../packages/host/src/index.ts';

const ctx = (key = 'summary'): InputContext => ({
  key, method: 'tools/call', name: 'summarise', round: 1, era: 'modern', signal: new AbortController().signal,
});
const request = (extra: Partial<CreateMessageParams> = {}): CreateMessageParams => ({
  maxTokens: 5000,
  systemPrompt: 'Be brief.',
  messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the minutes of the meeting.' } }],
  modelPreferences: { hints: [{ name: 'sonnet' }, { name: 'claude' }] },
  ...extra,
});

/** A provider that spends (so approval applies) and records what it was handed and when it ran. */
function fakeProvider(log: string[]) {
  const prepared: CreateMessageParams[] = [];
  const provider: SamplingProvider = {
    name: 'fake',
    endpoint: 'http://fake.invalid',
    spends: true,
    async prepare(params) {
      prepared.push(params);
      return {
        model: 'fake-sonnet',
        notes: ['temperature is not sent'],
        async run() {
          log.push('run');
          return { role: 'assistant', content: { type: 'text', text: 'Done.' }, model: 'fake-sonnet', stopReason: 'endTurn' };
        },
      };
    },
  };
  return { provider, prepared };
}

function setup(options: Partial<CreateHostOptions> = {}) {
  const log: string[] = [];
  const events: HostEvent[] = [];
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk) => {
    shown += chunk;
    log.push('show');
  });
  const { provider, prepared } = fakeProvider(log);
  const host = createHost({
    provider,
    input: new PassThrough(),
    output,
    interactive: true,
    approve: async (question) => {
      log.push(`approve: ${question}`);
      return true;
    },
    onEvent: (e) => events.push(e),
    ...options,
  });
  return { host, log, events, prepared, output: () => shown };
}

const refusal = (reason: string, pattern: RegExp) => (error: unknown) =>
  error instanceof SamplingRefusedError && error.reason === reason && pattern.test(error.message);

describe('sampling policy', () => {
  it('lowers maxTokens to the cap and never raises it', async () => {
    const { host, prepared } = setup({ maxTokensCap: 300 });
    await host.sample!(request({ maxTokens: 5000 }), ctx());
    await host.sample!(request({ maxTokens: 40 }), ctx());
    assert.deepEqual(prepared.map((p) => p.maxTokens), [300, 40]);
  });

  it('shows the server messages, maxTokens, hints and the model before asking, and asks before running', async () => {
    const { host, log, output } = setup({ maxTokensCap: 300 });
    await host.sample!(request({ temperature: 0.2, stopSequences: ['##'] }), ctx());
    assert.deepEqual(log.filter((l) => l !== 'show').length, 2);
    assert.ok(log.indexOf('show') < log.findIndex((l) => l.startsWith('approve')), 'described before approval');
    assert.ok(log.findIndex((l) => l.startsWith('approve')) < log.indexOf('run'), 'approved before the model call');
    assert.match(log.find((l) => l.startsWith('approve'))!, /Send this to fake-sonnet via fake\?/);
    const text = output();
    assert.match(text, /The server asks for a model call \(tools\/call "summarise", round 1, input "summary"\)/);
    assert.match(text, /system: Be brief\./);
    assert.match(text, /user: Summarise the minutes of the meeting\./);
    assert.match(text, /maxTokens: 5000, lowered to the cap of 300/);
    assert.match(text, /model hints: sonnet, claude/);
    assert.match(text, /temperature: 0\.2/);
    assert.match(text, /stop sequences: "##"/);
    assert.match(text, /model: fake-sonnet via fake \(http:\/\/fake\.invalid\)/);
    assert.match(text, /! temperature is not sent/);
    assert.match(text, /model call 1 of at most 5/);
  });

  it('refuses the model call past the cap, without calling the provider', async () => {
    const { host, log, events } = setup({ maxModelCalls: 2, yes: true });
    await host.sample!(request(), ctx('a'));
    await host.sample!(request(), ctx('b'));
    await assert.rejects(host.sample!(request(), ctx('c')), refusal('model-call-cap', /at most 2/));
    assert.equal(log.filter((l) => l === 'run').length, 2);
    assert.deepEqual(events.at(-1)?.type, 'sampling-refused');
  });

  it('takes a slot before any await: 20 concurrent calls under a cap of 3 make 3 model calls', { timeout: 5000 }, async () => {
    const { host, log } = setup({ maxModelCalls: 3, yes: true });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => host.sample!(request(), ctx(`k${i}`))));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 3);
    assert.equal(log.filter((l) => l === 'run').length, 3);
  });

  it('gives a declined call its slot back', { timeout: 5000 }, async () => {
    let asked = 0;
    const { host, log } = setup({ maxModelCalls: 1, approve: async () => asked++ > 0 });
    await assert.rejects(host.sample!(request(), ctx('a')), refusal('declined', /declined/));
    assert.equal((await host.sample!(request(), ctx('b'))).model, 'fake-sonnet');
    assert.equal(log.filter((l) => l === 'run').length, 1);
  });

  it('refuses a prompt over the size cap before preparing anything, and shows the full size otherwise', { timeout: 5000 }, async () => {
    const { host, prepared, output } = setup({ maxPromptChars: 1000 });
    const big = request({ messages: [{ role: 'user', content: { type: 'text', text: 'x'.repeat(5000) } }] });
    await assert.rejects(host.sample!(big, ctx()), refusal('prompt-too-large', /is 5,\d{3} characters \(about 1,\d{3} tokens\), over this host's cap of 1,000/));
    assert.equal(prepared.length, 0);
    await host.sample!(request(), ctx());
    assert.match(output(), /size: \d+ characters in all \(about \d+ tokens\), all of it sent even where shortened above; the cap is 1,000/);
  });

  it('refuses without a terminal unless --yes, and says to pass --yes', async () => {
    const { host, log } = setup({ interactive: false });
    await assert.rejects(host.sample!(request(), ctx()), refusal('needs-yes', /stdin is not a terminal; pass `yes`/));
    assert.ok(!log.includes('run'));
    assert.ok(!log.some((l) => l.startsWith('approve')));

    const withYes = setup({ interactive: false, yes: true });
    const result = await withYes.host.sample!(request(), ctx());
    assert.equal(result.model, 'fake-sonnet');
    assert.ok(!withYes.log.some((l) => l.startsWith('approve')), '--yes does not ask');
  });

  it('takes no for an answer', async () => {
    const { host, log } = setup({ approve: async () => false });
    await assert.rejects(host.sample!(request(), ctx()), refusal('declined', /declined/));
    assert.ok(!log.includes('run'));
  });

  it('asks at the terminal by default and reads y', async () => {
    const input = new PassThrough();
    input.end('y\n');
    const { host, output } = setup({ approve: undefined, input });
    const result = await host.sample!(request(), ctx());
    assert.equal(result.model, 'fake-sonnet');
    assert.match(output(), /Send this to fake-sonnet via fake\? \[y\/N\] /);

    const eof = new PassThrough();
    eof.end();
    const noAnswer = setup({ approve: undefined, input: eof });
    await assert.rejects(noAnswer.host.sample!(request(), ctx()), refusal('declined', /declined/));
  });

  it('refuses tools unless sampling.tools was declared', async () => {
    const tools = [{ name: 'search', inputSchema: { type: 'object' } }];
    const { host, prepared } = setup();
    await assert.rejects(host.sample!(request({ tools }), ctx()), refusal('tools-not-declared', /did not declare sampling\.tools/));
    assert.equal(prepared.length, 0);
    const declared = setup({ samplingTools: true });
    await declared.host.sample!(request({ tools }), ctx());
    assert.deepEqual(declared.prepared[0].tools, tools);
    assert.deepEqual(declared.host.capabilities.sampling, { tools: {} });
  });

  it('refuses a maxTokens that is not a positive whole number', async () => {
    const { host } = setup();
    await assert.rejects(host.sample!(request({ maxTokens: 0 }), ctx()), refusal('invalid-request', /maxTokens 0/));
  });

  it('asks nobody before the offline provider answers, since it spends nothing', async () => {
    const host = createHost({ env: {}, interactive: false, output: new PassThrough(), input: new PassThrough() });
    const result = await host.sample!(request(), ctx());
    assert.match(result.model, /not a model/);
  });

  it('reports each round as events', async () => {
    const { host, events } = setup({ maxTokensCap: 100 });
    await host.sample!(request(), ctx());
    assert.deepEqual(events.map((e) => e.type), ['sampling-request', 'sampling-result']);
    const done = events[1] as Extract<HostEvent, { type: 'sampling-result' }>;
    assert.equal(done.maxTokens, 100);
    assert.equal(done.model, 'fake-sonnet');
    assert.equal(done.provider, 'fake');
  });
});
