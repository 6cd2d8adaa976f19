import { redactUrl, type ContentBlock, type CreateMessageParams, type CreateMessageResult, type ImageContent, type JsonObject } from '@byhand/client';
import { ProviderError, UnsupportedContentError } from '../errors.js';
import { blocksOf, isToolResult, isToolUse, position, type ToolResultBlock } from './content.js';
import { pickModel } from './model-hints.js';
import type { PreparedCall, SamplingProvider } from './provider.js';

export interface OpenAICompatibleOptions {
  /** The server's root, with or without a trailing /v1: http://localhost:11434 for Ollama. */
  baseURL: string;
  apiKey?: string;
  /** Used when no model hint names a model the server lists. */
  model?: string;
}

type ChatPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
interface ToolCall { id: string; type: 'function'; function: { name: string; arguments: string } }
type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ChatPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  // Ollama and llama-server document max_tokens; max_completion_tokens is OpenAI's newer name.
  max_tokens: number;
  temperature?: number;
  stop?: string[];
  tools?: { type: 'function'; function: { name: string; description?: string; parameters: JsonObject } }[];
  tool_choice?: 'auto' | 'required' | 'none';
}

interface ChatCompletion {
  model?: string;
  choices?: { message?: { content?: string | null; tool_calls?: ToolCall[] }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

const FINISH_REASONS: Record<string, string> = { stop: 'endTurn', length: 'maxTokens', tool_calls: 'toolUse' };

export function createOpenAICompatibleProvider(options: OpenAICompatibleOptions): SamplingProvider {
  const root = options.baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let catalog: Promise<{ models: string[]; failure?: string }> | undefined;

  // An unreachable server is not a server that lists no model: the two are told apart.
  const availableModels = (signal: AbortSignal): Promise<{ models: string[]; failure?: string }> =>
    (catalog ??= fetch(`${root}/v1/models`, { headers, signal }).then(
      async (response) => (response.ok ? { models: (((await response.json()) as { data?: { id: string }[] }).data ?? []).map((m) => m.id) } : { models: [], failure: `${root}/v1/models answered HTTP ${response.status}` }),
      (error: unknown) => ({ models: [], failure: `cannot reach ${root}/v1/models (${causeOf(error)}): is the server running, and is BYHAND_OPENAI_BASE_URL right?` }),
    ));

  async function chooseModel(params: CreateMessageParams, signal: AbortSignal): Promise<string> {
    const hints = params.modelPreferences?.hints ?? [];
    if (!hints.length && options.model) return options.model;
    const { models, failure } = await availableModels(signal);
    const model = pickModel(hints, models, options.model ?? models[0] ?? '');
    if (!model) {
      if (failure) throw new ProviderError('openai-compatible', `${failure}; or set BYHAND_OPENAI_MODEL to the model to use`);
      throw new ProviderError('openai-compatible', `${root}/v1/models lists no model; set BYHAND_OPENAI_MODEL to the model to use`);
    }
    return model;
  }

  return {
    name: 'openai-compatible',
    endpoint: redactUrl(`${root}/v1/chat/completions`),
    spends: true,
    async prepare(params, signal): Promise<PreparedCall> {
      const messages = toChatMessages(params);
      const model = await chooseModel(params, signal);
      const body = toChatRequest(params, messages, model);
      const call: PreparedCall = {
        model,
        notes: params.includeContext && params.includeContext !== 'none'
          ? [`includeContext "${params.includeContext}" is treated as "none": this host adds no context`]
          : [],
        async run(runSignal) {
          const response = await fetch(`${root}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify(body), signal: runSignal }).catch((error: unknown) => {
            if (runSignal.aborted) throw error;
            throw new ProviderError('openai-compatible', `cannot reach ${root}/v1/chat/completions (${causeOf(error)}): is the server running, and is BYHAND_OPENAI_BASE_URL right?`);
          });
          const text = await response.text();
          if (!response.ok) {
            throw new ProviderError('openai-compatible', `${root}/v1/chat/completions answered ${response.status}: ${text.slice(0, 300)}`, response.status);
          }
          let completion: ChatCompletion;
          try {
            completion = JSON.parse(text) as ChatCompletion;
          } catch {
            throw new ProviderError('openai-compatible', `${root}/v1/chat/completions answered with something that is not JSON: ${text.slice(0, 120)}`);
          }
          const { prompt_tokens: input, completion_tokens: output } = completion.usage ?? {};
          if (typeof input === 'number' && typeof output === 'number') call.usage = { input, output };
          return fromChatCompletion(completion, model, Boolean(params.tools?.length));
        },
      };
      return call;
    },
  };
}

function toChatRequest(params: CreateMessageParams, messages: ChatMessage[], model: string): ChatCompletionRequest {
  const body: ChatCompletionRequest = { model, messages, max_tokens: params.maxTokens };
  if (params.temperature !== undefined) body.temperature = params.temperature;
  if (params.stopSequences?.length) body.stop = params.stopSequences;
  if (params.tools?.length) {
    body.tools = params.tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description !== undefined && { description: tool.description }),
        parameters: tool.inputSchema,
      },
    }));
    if (params.toolChoice?.mode) body.tool_choice = params.toolChoice.mode;
  }
  return body;
}

function toChatMessages(params: CreateMessageParams): ChatMessage[] {
  const out: ChatMessage[] = params.systemPrompt ? [{ role: 'system', content: params.systemPrompt }] : [];
  params.messages.forEach((message, m) => {
    const blocks = blocksOf(message);
    if (message.role === 'assistant') {
      out.push(toAssistantMessage(blocks, m));
      return;
    }
    // Chat completions carry each tool result as its own "tool" message.
    for (const block of blocks.filter(isToolResult)) out.push(toToolMessage(block, m));
    const parts = blocks.flatMap((block, b) => (isToolResult(block) ? [] : [toUserPart(block, position(m, b))]));
    if (parts.length) {
      const [only] = parts;
      out.push({ role: 'user', content: parts.length === 1 && only.type === 'text' ? only.text : parts });
    }
  });
  return out;
}

function toUserPart(block: ContentBlock, where: string): ChatPart {
  if (block.type === 'text') return { type: 'text', text: String(block.text) };
  if (block.type === 'image') {
    const image = block as ImageContent;
    return { type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
  }
  throw unsupported(block, where);
}

function toAssistantMessage(blocks: ContentBlock[], m: number): ChatMessage {
  const texts: string[] = [];
  const calls: ToolCall[] = [];
  blocks.forEach((block, b) => {
    if (block.type === 'text') texts.push(String(block.text));
    else if (isToolUse(block)) {
      calls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input) } });
    } else throw unsupported(block, position(m, b));
  });
  return { role: 'assistant', content: texts.length ? texts.join('') : null, ...(calls.length && { tool_calls: calls }) };
}

function toToolMessage(block: ToolResultBlock, m: number): ChatMessage {
  const texts = block.content.map((part, i) => {
    if (part.type === 'text') return String(part.text);
    throw new UnsupportedContentError(
      `chat completions take only text in tool results; message ${m + 1} holds a "${part.type}" part (${i + 1}) for tool call ${block.toolUseId}`,
    );
  });
  if (!texts.length && block.structuredContent !== undefined) texts.push(JSON.stringify(block.structuredContent));
  return { role: 'tool', tool_call_id: block.toolUseId, content: texts.join('\n') };
}

function unsupported(block: ContentBlock, where: string): UnsupportedContentError {
  if (block.type === 'audio') {
    return new UnsupportedContentError(`this host sends no audio to OpenAI-compatible servers; the server sent ${String(block.mimeType)} audio at ${where}`);
  }
  return new UnsupportedContentError(`content of type "${block.type}" at ${where} cannot go into this message for chat completions`);
}

function fromChatCompletion(completion: ChatCompletion, requestedModel: string, toolsOffered: boolean): CreateMessageResult {
  const choice = completion.choices?.[0];
  if (!choice?.message) throw new ProviderError('openai-compatible', 'the completion has no choices[0].message');
  const text = choice.message.content ?? '';
  const blocks: ContentBlock[] = text ? [{ type: 'text', text }] : [];
  for (const call of choice.message.tool_calls ?? []) {
    let input: unknown;
    try {
      input = JSON.parse(call.function.arguments || '{}');
    } catch {
      throw new ProviderError('openai-compatible', `the model called ${call.function.name} with arguments that are not JSON: ${call.function.arguments.slice(0, 120)}`);
    }
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input });
  }
  const result: CreateMessageResult = {
    role: 'assistant',
    content: toolsOffered ? blocks : { type: 'text', text },
    model: completion.model || requestedModel,
  };
  if (choice.finish_reason) result.stopReason = FINISH_REASONS[choice.finish_reason] ?? choice.finish_reason;
  return result;
}

/** fetch says "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND) is in its cause. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
