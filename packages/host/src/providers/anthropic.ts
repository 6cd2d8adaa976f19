import type Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  ImageBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
  Tool as AnthropicTool,
  ToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import { redactUrl, type ContentBlock, type CreateMessageParams, type CreateMessageResult, type ImageContent } from '@byhand/client';
import { ProviderConfigError, ProviderError, UnsupportedContentError } from '../errors.js';
import { blocksOf, isToolResult, isToolUse, position } from './content.js';
import { pickModel } from './model-hints.js';
import type { PreparedCall, SamplingProvider } from './provider.js';

export const DEFAULT_ANTHROPIC_MODEL = 'claude-haiku-5-5';
const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

export interface AnthropicProviderOptions {
  apiKey: string;
  baseURL?: string;
  /** Used when no model hint names an available model. */
  defaultModel?: string;
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

const STOP_REASONS: Record<string, string> = {
  end_turn: 'endTurn',
  max_tokens: 'maxTokens',
  stop_sequence: 'stopSequence',
  tool_use: 'toolUse',
};

export function createAnthropicProvider(options: AnthropicProviderOptions): SamplingProvider {
  const baseURL = options.baseURL || DEFAULT_ANTHROPIC_BASE_URL;
  const defaultModel = options.defaultModel || DEFAULT_ANTHROPIC_MODEL;
  // The base URL is passed even when it is the default, so the SDK never reads process.env behind
  // the caller's back and the env object given to selectProvider stays the whole configuration.
  // The SDK (an optional peer of @byhand/host) loads on the first model call, so a host that never
  // samples through Anthropic, or a machine without the SDK, never pays for it.
  let sdk: Promise<Anthropic> | undefined;
  const client = (): Promise<Anthropic> =>
    (sdk ??= import('@anthropic-ai/sdk').then(
      ({ default: Anthropic }) => new Anthropic({ apiKey: options.apiKey, baseURL }),
      (error: unknown) => {
        sdk = undefined;
        throw new ProviderConfigError(`the Anthropic provider needs the package @anthropic-ai/sdk, which is not installed (${(error as Error).message}); run npm install @anthropic-ai/sdk`);
      },
    ));
  let catalog: Promise<string[]> | undefined;

  // Listing costs a request, so it happens only when a hint needs matching, once per host.
  const availableModels = (signal: AbortSignal): Promise<string[]> =>
    (catalog ??= client()
      .then((anthropic) => anthropic.models.list({ limit: 100, lifecycle: ['active'] }, { signal }))
      .then((page) => page.data.map((m) => m.id))
      .catch(() => []));

  return {
    name: 'anthropic',
    endpoint: redactUrl(baseURL),
    spends: true,
    async prepare(params, signal): Promise<PreparedCall> {
      const messages = toAnthropicMessages(params);
      const hints = params.modelPreferences?.hints ?? [];
      const model = hints.length ? pickModel(hints, await availableModels(signal), defaultModel) : defaultModel;
      const body = toAnthropicRequest(params, messages, model);
      const call: PreparedCall = {
        model,
        notes: anthropicNotes(params),
        async run(runSignal) {
          const message = await (await client()).messages.create(body, { signal: runSignal }).catch((error: unknown) => {
            // The SDK's APIConnectionError says "Connection error." and no more: name where it went.
            if ((error as Error).name === 'APIConnectionError' && !runSignal.aborted) {
              throw new ProviderError('anthropic', `cannot reach ${baseURL} (${(error as Error).message}): check the network, or ANTHROPIC_BASE_URL`);
            }
            throw error;
          });
          call.usage = { input: message.usage.input_tokens, output: message.usage.output_tokens };
          return fromAnthropicMessage(message, Boolean(params.tools?.length));
        },
      };
      return call;
    },
  };
}

function anthropicNotes(params: CreateMessageParams): string[] {
  const notes: string[] = [];
  // API version 2026-10-21 (sent by @anthropic-ai/sdk 1.x) answers 400 to any temperature.
  if (params.temperature !== undefined) {
    notes.push(`temperature ${params.temperature} is not sent: Anthropic's API version 2026-10-21 rejects every temperature`);
  }
  if (params.includeContext && params.includeContext !== 'none') {
    notes.push(`includeContext "${params.includeContext}" is treated as "none": this host adds no context`);
  }
  return notes;
}

function toAnthropicRequest(
  params: CreateMessageParams,
  messages: MessageParam[],
  model: string,
): MessageCreateParamsNonStreaming {
  const body: MessageCreateParamsNonStreaming = { model, max_tokens: params.maxTokens, messages };
  if (params.systemPrompt) body.system = params.systemPrompt;
  if (params.stopSequences?.length) body.stop_sequences = params.stopSequences;
  if (params.tools?.length) {
    body.tools = params.tools.map(
      (tool): AnthropicTool => ({
        name: tool.name,
        ...(tool.description !== undefined && { description: tool.description }),
        input_schema: { type: 'object', ...tool.inputSchema },
      }),
    );
    const choice = toToolChoice(params.toolChoice?.mode);
    if (choice) body.tool_choice = choice;
  }
  return body;
}

function toToolChoice(mode: 'auto' | 'required' | 'none' | undefined): ToolChoice | undefined {
  switch (mode) {
    case 'auto': return { type: 'auto' };
    case 'required': return { type: 'any' };
    // Tools stay declared under "none": earlier turns may hold tool_use blocks that need them.
    case 'none': return { type: 'none' };
    default: return undefined;
  }
}

function toAnthropicMessages(params: CreateMessageParams): MessageParam[] {
  return params.messages.map((message, m): MessageParam => {
    const content = blocksOf(message).map((block, b) => toAnthropicBlock(block, message.role, position(m, b)));
    return message.role === 'user' ? { role: 'user', content } : { role: 'assistant', content };
  });
}

function toAnthropicBlock(block: ContentBlock, role: 'user' | 'assistant', where: string): ContentBlockParam {
  if (block.type === 'text') return { type: 'text', text: String(block.text) };
  if (block.type === 'image') {
    if (role !== 'user') throw new UnsupportedContentError(`Anthropic takes images only in user messages (${where} is ${role})`);
    return toImage(block as ImageContent, where);
  }
  if (block.type === 'audio') {
    throw new UnsupportedContentError(`Anthropic's Messages API takes no audio; the server sent ${String(block.mimeType)} audio at ${where}`);
  }
  if (isToolUse(block)) return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
  if (isToolResult(block)) {
    const content = block.content.map((inner, i) => toToolResultPart(inner, `${where}, part ${i + 1}`));
    if (!content.length && block.structuredContent !== undefined) {
      content.push({ type: 'text', text: JSON.stringify(block.structuredContent) });
    }
    return { type: 'tool_result', tool_use_id: block.toolUseId, content, ...(block.isError && { is_error: true }) };
  }
  throw new UnsupportedContentError(`content of type "${block.type}" at ${where} has no Anthropic equivalent`);
}

function toToolResultPart(block: ContentBlock, where: string): TextBlockParam | ImageBlockParam {
  if (block.type === 'text') return { type: 'text', text: String(block.text) };
  if (block.type === 'image') return toImage(block as ImageContent, where);
  const resource = block.type === 'resource' ? (block.resource as { text?: unknown } | undefined) : undefined;
  if (typeof resource?.text === 'string') return { type: 'text', text: resource.text };
  throw new UnsupportedContentError(`a tool result part of type "${block.type}" at ${where} has no Anthropic equivalent`);
}

function toImage(block: ImageContent, where: string): ImageBlockParam {
  if (!IMAGE_TYPES.includes(block.mimeType as ImageType)) {
    throw new UnsupportedContentError(`Anthropic takes ${IMAGE_TYPES.join(', ')} images; ${where} is ${block.mimeType}`);
  }
  return { type: 'image', source: { type: 'base64', media_type: block.mimeType as ImageType, data: block.data } };
}

function fromAnthropicMessage(message: Message, toolsOffered: boolean): CreateMessageResult {
  const blocks: ContentBlock[] = [];
  let text = '';
  for (const block of message.content) {
    if (block.type === 'text') {
      blocks.push({ type: 'text', text: block.text });
      text += block.text;
    } else if (block.type === 'tool_use') blocks.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input as Record<string, unknown> });
    // Thinking and server-tool blocks have no place in an MCP sampling result.
  }
  const result: CreateMessageResult = {
    role: 'assistant',
    // Without tools a single text block is what every era's servers expect.
    content: toolsOffered ? blocks : { type: 'text', text },
    model: message.model,
  };
  if (message.stop_reason) result.stopReason = STOP_REASONS[message.stop_reason] ?? message.stop_reason;
  return result;
}
