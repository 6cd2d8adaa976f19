// The offline provider and the env-driven choice between providers.
import assert from 'node:assert/strict';
import { describe, it } from './support/node-test.js';
import type { CreateMessageParams } from '../packages/client/src/types.ts';
import { ProviderConfigError, selectProvider } from '../packages/host/src/index.ts';
import { OFFLINE_MODEL, OFFLINE_NOTICE, createOfflineProvider } from '../packages/host/src/providers/offline.ts';

const signal = new AbortController().signal;
const article =
  'The river flooded the lower town on Monday. Volunteers filled sandbags along the river wall all night. ' +
  'The mayor thanked the volunteers. Schools stay closed until the river drops. A bakery gave out free bread.';
const ask = (text: string, extra: Partial<CreateMessageParams> = {}): CreateMessageParams => ({
  maxTokens: 400,
  messages: [{ role: 'user', content: { type: 'text', text } }],
  ...extra,
});
const answer = async (params: CreateMessageParams) => {
  const call = await createOfflineProvider().prepare(params, signal);
  assert.equal(call.model, OFFLINE_MODEL);
  return call.run(signal);
};
const textOf = (content: unknown) => (content as { text: string }).text;

describe('offline provider', () => {
  it('says plainly, in its answer and its model name, that it is not a model', async () => {
    const result = await answer(ask(`Summarise: ${article}`));
    assert.match(result.model, /not a model/);
    assert.ok(textOf(result.content).startsWith(OFFLINE_NOTICE));
    assert.match(OFFLINE_NOTICE, /not a language model.*no model was called/);
    assert.equal(result.role, 'assistant');
    assert.equal(result.stopReason, 'endTurn');
  });

  it('gives the same answer to the same request, built from the request text', async () => {
    const first = await answer(ask(`Summarise: ${article}`));
    const second = await answer(ask(`Summarise: ${article}`));
    assert.deepEqual(first, second);
    const body = textOf(first.content).slice(OFFLINE_NOTICE.length);
    assert.match(body, /^\n\nAsked to "Summarise"\. In short \(5 sentences/);
    assert.match(body, /- Volunteers filled sandbags along the river wall all night\./);
    assert.match(body, /Key terms: river, volunteers/);
    assert.notEqual(textOf((await answer(ask('What is the capital of France?'))).content), textOf(first.content));
  });

  it('echoes a one-line question', async () => {
    const result = await answer(ask('What is the capital of France?'));
    assert.match(textOf(result.content), /You asked: "What is the capital of France\?"\nIt turns on: capital, france\./);
  });

  it('honours maxTokens and stopSequences the way a model would', async () => {
    const short = await answer(ask(article, { maxTokens: OFFLINE_NOTICE.split(/\s+/).length + 4 }));
    assert.equal(short.stopReason, 'maxTokens');
    assert.equal(textOf(short.content), `${OFFLINE_NOTICE}\n\nIn short (5 sentences,`);
    const stopped = await answer(ask(article, { stopSequences: ['Volunteers'] }));
    assert.equal(stopped.stopReason, 'stopSequence');
    assert.doesNotMatch(textOf(stopped.content).slice(OFFLINE_NOTICE.length), /Volunteers/);
  });

  it('answers with a content list when tools were offered, and never calls them', async () => {
    const result = await answer(ask('Weather?', { tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }] }));
    assert.ok(Array.isArray(result.content));
    assert.deepEqual((result.content as { type: string }[]).map((b) => b.type), ['text']);
  });

  it('spends nothing and uses no network', () => {
    const provider = createOfflineProvider();
    assert.equal(provider.spends, false);
    assert.match(provider.endpoint, /no network/);
  });
});

describe('selectProvider', () => {
  it('falls back to offline with nothing configured', () => {
    assert.equal(selectProvider({}).name, 'offline');
  });
  it('takes Anthropic when only ANTHROPIC_API_KEY is set', () => {
    assert.equal(selectProvider({ ANTHROPIC_API_KEY: 'k' }).name, 'anthropic');
  });
  it('prefers a configured OpenAI-compatible URL over an API key that is merely present', () => {
    const provider = selectProvider({ ANTHROPIC_API_KEY: 'k', BYHAND_OPENAI_BASE_URL: 'http://127.0.0.1:11434' });
    assert.equal(provider.name, 'openai-compatible');
    assert.equal(provider.endpoint, 'http://127.0.0.1:11434/v1/chat/completions');
  });
  it('lets BYHAND_PROVIDER decide', () => {
    assert.equal(selectProvider({ BYHAND_PROVIDER: 'offline', ANTHROPIC_API_KEY: 'k' }).name, 'offline');
    assert.equal(selectProvider({ BYHAND_PROVIDER: 'Anthropic', ANTHROPIC_API_KEY: 'k', BYHAND_OPENAI_BASE_URL: 'http://x' }).name, 'anthropic');
    assert.equal(selectProvider({ BYHAND_PROVIDER: 'openai', BYHAND_OPENAI_BASE_URL: 'http://x' }).name, 'openai-compatible');
  });
  it('says what is missing when BYHAND_PROVIDER names a provider without its settings', () => {
    assert.throws(() => selectProvider({ BYHAND_PROVIDER: 'anthropic' }), (e: Error) => e instanceof ProviderConfigError && /needs ANTHROPIC_API_KEY/.test(e.message));
    assert.throws(() => selectProvider({ BYHAND_PROVIDER: 'openai' }), /needs BYHAND_OPENAI_BASE_URL/);
    assert.throws(() => selectProvider({ BYHAND_PROVIDER: 'gemini' }), /not one of anthropic, openai, offline/);
  });
});
