// The Anthropic and OpenAI-compatible mappings, checked against what a local HTTP stub received.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from './support/node-test.js';
import { closedPort } from './support/closed-port.js';
import type { CreateMessageParams } from '../packages/client/src/types.ts';
import { ProviderError, UnsupportedContentError, selectProvider } from '../packages/host/src/index.ts';
import { createAnthropicProvider, DEFAULT_ANTHROPIC_MODEL } from '../packages/host/src/providers/anthropic.ts';
import { createOpenAICompatibleProvider } from '../packages/host/src/providers/openai-compatible.ts';

interface Recorded { method: string; path: string; headers: IncomingHttpHeaders; body: unknown }
type Reply = { status?: number; json: unknown };

const recorded: Recorded[] = [];
let reply: (req: Recorded) => Reply;
let baseURL = '';
const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    const entry: Recorded = { method: req.method!, path: req.url!, headers: req.headers, body: raw ? JSON.parse(raw) : undefined };
    recorded.push(entry);
    const { status = 200, json } = reply(entry);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
  });
});

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => (recorded.length = 0));

const signal = new AbortController().signal;
const PNG = 'iVBORw0KGgo=';

/** A tool loop in flight: text and an image, the model's tool call, the tool's result. */
const toolLoop: CreateMessageParams = {
  systemPrompt: 'You are terse.',
  maxTokens: 200,
  temperature: 0.3,
  stopSequences: ['END'],
  modelPreferences: { hints: [{ name: 'gpt-9' }, { name: 'sonnet' }], intelligencePriority: 0.8 },
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }, { type: 'image', data: PNG, mimeType: 'image/png' }] },
    { role: 'assistant', content: { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } } },
    {
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: '18°C, cloudy' }], isError: false }],
    },
  ],
  tools: [{ name: 'get_weather', description: 'Weather for a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
  toolChoice: { mode: 'required' },
};

describe('Anthropic provider (@anthropic-ai/sdk against a local stub)', () => {
  const anthropicMessage = (over: Record<string, unknown>) => ({
    id: 'msg_1', type: 'message', role: 'assistant', container: null, diagnostics: null, stop_details: null,
    stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 }, model: 'claude-sonnet-5-5', ...over,
  });

  it('sends messages, system, max_tokens, stop_sequences, tools and the hinted model, and maps the answer back', async () => {
    reply = (req) =>
      req.path.startsWith('/v1/models')
        ? { json: { data: ['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5'].map((id) => ({ id, type: 'model', display_name: id, created_at: '2026-10-01T00:00:00Z' })), has_more: false, first_id: null, last_id: null } }
        : {
            json: anthropicMessage({
              content: [
                { type: 'thinking', thinking: 'hmm', signature: 'x' },
                { type: 'text', text: 'Let me check again.', citations: null },
                { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { city: 'Lyon' }, caller: { type: 'direct' } },
              ],
              stop_reason: 'tool_use',
            }),
          };
    const provider = createAnthropicProvider({ apiKey: 'sk-test', baseURL });
    const call = await provider.prepare(toolLoop, signal);
    assert.equal(call.model, 'claude-sonnet-5-5', 'the first hint matches nothing; "sonnet" is a substring of the second model');
    assert.match(call.notes.join('\n'), /temperature 0\.3 is not sent/);

    const result = await call.run(signal);

    const messages = recorded.filter((r) => r.path === '/v1/messages');
    assert.equal(messages.length, 1);
    assert.equal(messages[0].method, 'POST');
    assert.equal(messages[0].headers.authorization, 'Bearer sk-test');
    assert.equal(messages[0].headers['anthropic-version'], '2026-10-21');
    assert.deepEqual(messages[0].body, {
      model: 'claude-sonnet-5-5',
      max_tokens: 200,
      system: 'You are terse.',
      stop_sequences: ['END'],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Paris?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: '18°C, cloudy' }] }] },
      ],
      tools: [{ name: 'get_weather', description: 'Weather for a city', input_schema: toolLoop.tools![0].inputSchema }],
      tool_choice: { type: 'any' },
    });
    assert.equal(recorded.filter((r) => r.path.startsWith('/v1/models')).length, 1, 'the model list is read to match hints');

    assert.deepEqual(result, {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me check again.' },
        { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { city: 'Lyon' } },
      ],
      model: 'claude-sonnet-5-5',
      stopReason: 'toolUse',
    });
  });

  for (const [stop, expected] of [['end_turn', 'endTurn'], ['max_tokens', 'maxTokens'], ['stop_sequence', 'stopSequence'], ['refusal', 'refusal']]) {
    it(`maps stop_reason ${stop} to ${expected} and joins text into one block when no tools were offered`, async () => {
      reply = () => ({
        json: anthropicMessage({
          model: DEFAULT_ANTHROPIC_MODEL,
          content: [{ type: 'text', text: 'Hello, ', citations: null }, { type: 'text', text: 'world.', citations: null }],
          stop_reason: stop,
        }),
      });
      const provider = createAnthropicProvider({ apiKey: 'k', baseURL });
      const call = await provider.prepare({ maxTokens: 50, messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }] }, signal);
      const result = await call.run(signal);
      assert.deepEqual(result, { role: 'assistant', content: { type: 'text', text: 'Hello, world.' }, model: DEFAULT_ANTHROPIC_MODEL, stopReason: expected });
      assert.deepEqual(call.usage, { input: 10, output: 5 }, 'the tokens the API reports it used');
      assert.deepEqual(recorded.map((r) => r.path), ['/v1/messages'], 'no hints, so no model list');
      assert.deepEqual(recorded[0].body, { model: DEFAULT_ANTHROPIC_MODEL, max_tokens: 50, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
    });
  }

  it('refuses audio before sending anything', async () => {
    const provider = createAnthropicProvider({ apiKey: 'k', baseURL });
    await assert.rejects(
      provider.prepare({ maxTokens: 10, messages: [{ role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } }] }, signal),
      (error: Error) => error instanceof UnsupportedContentError && /no audio.*audio\/wav.*message 1, block 1/.test(error.message),
    );
    assert.equal(recorded.length, 0);
  });

  it('is chosen by ANTHROPIC_API_KEY, honours ANTHROPIC_BASE_URL and BYHAND_ANTHROPIC_MODEL', async () => {
    reply = () => ({ json: anthropicMessage({ model: 'claude-opus-5-5', content: [{ type: 'text', text: 'ok', citations: null }], stop_reason: 'end_turn' }) });
    const provider = selectProvider({ ANTHROPIC_API_KEY: 'sk-env', ANTHROPIC_BASE_URL: baseURL, BYHAND_ANTHROPIC_MODEL: 'claude-opus-5-5' });
    assert.equal(provider.name, 'anthropic');
    assert.equal(provider.endpoint, baseURL);
    assert.equal(provider.spends, true);
    const call = await provider.prepare({ maxTokens: 5, messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] }, signal);
    await call.run(signal);
    assert.equal(recorded[0].headers.authorization, 'Bearer sk-env');
    assert.equal((recorded[0].body as { model: string }).model, 'claude-opus-5-5');
  });
});

describe('OpenAI-compatible provider (fetch against a local stub)', () => {
  it('sends a leading system message, max_tokens, stop, temperature, tools as functions and the hinted model', async () => {
    reply = (req) =>
      req.path === '/v1/models'
        ? { json: { object: 'list', data: [{ id: 'llama3.2:3b' }, { id: 'qwen2.5:7b' }] } }
        : {
            json: {
              model: 'qwen2.5:7b',
              choices: [{
                index: 0,
                finish_reason: 'tool_calls',
                message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lyon"}' } }] },
              }],
            },
          };
    const provider = createOpenAICompatibleProvider({ baseURL: `${baseURL}/`, apiKey: 'ollama' });
    const call = await provider.prepare({ ...toolLoop, modelPreferences: { hints: [{ name: 'QWEN' }] } }, signal);
    assert.equal(call.model, 'qwen2.5:7b');
    const result = await call.run(signal);

    const chat = recorded.find((r) => r.path === '/v1/chat/completions')!;
    assert.equal(chat.headers.authorization, 'Bearer ollama');
    assert.deepEqual(chat.body, {
      model: 'qwen2.5:7b',
      max_tokens: 200,
      temperature: 0.3,
      stop: ['END'],
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C, cloudy' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: toolLoop.tools![0].inputSchema } }],
      tool_choice: 'required',
    });
    assert.deepEqual(result, {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'call_9', name: 'get_weather', input: { city: 'Lyon' } }],
      model: 'qwen2.5:7b',
      stopReason: 'toolUse',
    });
  });

  it('uses BYHAND_OPENAI_MODEL without listing models, accepts a base URL ending in /v1, maps length to maxTokens', async () => {
    reply = () => ({ json: { model: 'llama3.2:3b', choices: [{ finish_reason: 'length', message: { role: 'assistant', content: 'Paris is' } }] } });
    const provider = selectProvider({ BYHAND_OPENAI_BASE_URL: `${baseURL}/v1`, BYHAND_OPENAI_MODEL: 'llama3.2:3b', ANTHROPIC_API_KEY: 'ignored' });
    assert.equal(provider.name, 'openai-compatible');
    assert.equal(provider.endpoint, `${baseURL}/v1/chat/completions`);
    const call = await provider.prepare({ maxTokens: 3, messages: [{ role: 'user', content: { type: 'text', text: 'Where?' } }] }, signal);
    const result = await call.run(signal);
    assert.deepEqual(recorded.map((r) => r.path), ['/v1/chat/completions']);
    assert.equal(recorded[0].headers.authorization, undefined, 'no key configured, no Authorization header');
    assert.deepEqual(recorded[0].body, { model: 'llama3.2:3b', max_tokens: 3, messages: [{ role: 'user', content: 'Where?' }] });
    assert.deepEqual(result, { role: 'assistant', content: { type: 'text', text: 'Paris is' }, model: 'llama3.2:3b', stopReason: 'maxTokens' });
  });

  it('reports an HTTP error with its status and body', async () => {
    reply = () => ({ status: 404, json: { error: 'model "nope" not found' } });
    const provider = createOpenAICompatibleProvider({ baseURL, model: 'nope' });
    const call = await provider.prepare({ maxTokens: 3, messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] }, signal);
    await assert.rejects(call.run(signal), (error: Error) => error instanceof ProviderError && error.status === 404 && /answered 404.*nope.*not found/.test(error.message));
  });

  it('asks for BYHAND_OPENAI_MODEL when no model is configured and the server lists none', async () => {
    reply = () => ({ json: { data: [] } });
    const provider = createOpenAICompatibleProvider({ baseURL });
    await assert.rejects(
      provider.prepare({ maxTokens: 3, messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] }, signal),
      /set BYHAND_OPENAI_MODEL/,
    );
  });

  it('refuses audio before sending anything', async () => {
    const provider = createOpenAICompatibleProvider({ baseURL, model: 'm' });
    await assert.rejects(
      provider.prepare({ maxTokens: 3, messages: [{ role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/mpeg' } }] }, signal),
      UnsupportedContentError,
    );
    assert.equal(recorded.length, 0);
  });

  it('stops when the signal is aborted', async () => {
    reply = () => ({ json: {} });
    const provider = createOpenAICompatibleProvider({ baseURL, model: 'm' });
    const call = await provider.prepare({ maxTokens: 3, messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] }, signal);
    const controller = new AbortController();
    controller.abort(new Error('user pressed Ctrl-C'));
    await assert.rejects(call.run(controller.signal), /Ctrl-C/);
  });
});

describe('an unreachable provider is said to be unreachable, with its URL', () => {
  const params = { messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 5 } as CreateMessageParams;

  it('OpenAI-compatible: not "lists no model" when /v1/models cannot be reached', { timeout: 10_000 }, async () => {
    const root = `http://127.0.0.1:${await closedPort()}`;
    const provider = createOpenAICompatibleProvider({ baseURL: root });
    await assert.rejects(provider.prepare(params, new AbortController().signal), (error: Error) => {
      assert.ok(error instanceof ProviderError);
      assert.match(error.message, new RegExp(`^cannot reach ${root}/v1/models \\(ECONNREFUSED\\): is the server running, and is BYHAND_OPENAI_BASE_URL right\\?`));
      assert.doesNotMatch(error.message, /lists no model/);
      return true;
    });
  });

  it('Anthropic: the connection error names the base URL', { timeout: 30_000 }, async () => {
    const root = `http://127.0.0.1:${await closedPort()}`;
    const prepared = await createAnthropicProvider({ apiKey: 'k', baseURL: root }).prepare(params, new AbortController().signal);
    await assert.rejects(prepared.run(new AbortController().signal), new RegExp(`^ProviderError: cannot reach ${root} \\(Connection error\\.\\): check the network, or ANTHROPIC_BASE_URL$`));
  });
});
