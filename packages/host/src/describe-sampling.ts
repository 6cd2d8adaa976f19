import type { ContentBlock, CreateMessageParams, InputContext } from '@byhand/client';
import { blocksOf, isToolResult, isToolUse } from './providers/content.js';
import { hintNames } from './providers/model-hints.js';
import type { PreparedCall, SamplingProvider } from './providers/provider.js';
import { printable } from './terminal.js';

export interface SamplingPlan {
  provider: SamplingProvider;
  call: PreparedCall;
  /** maxTokens as it will be sent, after the cap. */
  maxTokens: number;
  maxTokensCap: number;
  callNumber: number;
  maxModelCalls: number;
  /** promptSize() of the request, and the host's cap on it. */
  promptChars: number;
  maxPromptChars: number;
}

/**
 * How much a sampling request would send, in characters: its messages (media as their base64),
 * system prompt and tools, as JSON. About four characters make a token.
 */
export function promptSize(params: CreateMessageParams): number {
  return JSON.stringify([params.systemPrompt ?? '', params.messages ?? [], params.tools ?? []]).length;
}

// Long documents would scroll the question off the screen; the count says how much is hidden.
const SHOWN_CHARS = 1200;

/** What the server asks the model, and what the host will actually send where, in plain lines. */
export function describeSampling(params: CreateMessageParams, ctx: InputContext, plan: SamplingPlan): string {
  const lines = [`The server asks for a model call (${origin(ctx)}):`];
  if (params.systemPrompt) lines.push(`  system: ${shorten(params.systemPrompt)}`);
  for (const message of params.messages) {
    for (const block of blocksOf(message)) lines.push(`  ${message.role}: ${blockText(block)}`);
  }
  lines.push(
    plan.maxTokens < params.maxTokens
      ? `  maxTokens: ${params.maxTokens}, lowered to the cap of ${plan.maxTokensCap}`
      : `  maxTokens: ${params.maxTokens}`,
  );
  const hints = hintNames(params);
  if (hints.length) lines.push(`  model hints: ${hints.map(printable).join(', ')}`);
  if (params.temperature !== undefined) lines.push(`  temperature: ${params.temperature}`);
  if (params.stopSequences?.length) lines.push(`  stop sequences: ${params.stopSequences.map((s) => printable(JSON.stringify(s))).join(', ')}`);
  if (params.tools?.length) {
    const choice = params.toolChoice?.mode ? ` (toolChoice ${params.toolChoice.mode})` : '';
    lines.push(`  tools offered: ${params.tools.map((t) => printable(t.name)).join(', ')}${choice}`);
  }
  lines.push(
    `  size: ${plan.promptChars.toLocaleString('en')} characters in all (about ${Math.ceil(plan.promptChars / 4).toLocaleString('en')} tokens), ` +
      `all of it sent even where shortened above; the cap is ${plan.maxPromptChars.toLocaleString('en')}`,
  );
  lines.push(`  model: ${printable(plan.call.model)} via ${plan.provider.name} (${plan.provider.endpoint})`);
  for (const note of plan.call.notes) lines.push(`  ! ${note}`);
  lines.push(`  model call ${plan.callNumber} of at most ${plan.maxModelCalls} for this tool call`);
  return lines.join('\n') + '\n';
}

function origin(ctx: InputContext): string {
  return `${ctx.method} ${printable(JSON.stringify(ctx.name))}, round ${ctx.round}, input ${printable(JSON.stringify(ctx.key))}`;
}

function blockText(block: ContentBlock): string {
  if (block.type === 'text') return shorten(String(block.text));
  if (block.type === 'image' || block.type === 'audio') {
    const bytes = Math.floor(((typeof block.data === 'string' ? block.data : '').length * 3) / 4);
    return `[${block.type} ${printable(String(block.mimeType))}, ${bytes} bytes]`;
  }
  if (isToolUse(block)) return `[calls tool ${printable(block.name)} ${shorten(JSON.stringify(block.input))}]`;
  if (isToolResult(block)) {
    const text = block.content.map((part) => (part.type === 'text' ? String(part.text) : `[${part.type}]`)).join(' ');
    return `[${block.isError ? 'error ' : ''}result of ${printable(block.toolUseId)}: ${shorten(text)}]`;
  }
  return `[${printable(block.type)}]`;
}

function shorten(text: string): string {
  const shown = printable(text.length > SHOWN_CHARS ? text.slice(0, SHOWN_CHARS) : text).replace(/\n/g, '\n    ');
  return text.length > SHOWN_CHARS ? `${shown}… (${text.length - SHOWN_CHARS} more characters)` : shown;
}
