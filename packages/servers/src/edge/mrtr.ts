// Small readers over the SDK's inputResponse() view, shared by the toolboxes.

import { inputResponse, type ServerContext } from '@modelcontextprotocol/server';

/** Upper bound on every sampling request a toolbox sends: the host pays for these tokens, not us. */
export const MAX_SAMPLING_TOKENS = 800;

export function boundedTokens(wanted: number): number {
  return Math.max(16, Math.min(MAX_SAMPLING_TOKENS, Math.floor(wanted)));
}

/** The text of a sampling answer, or undefined when `key` carries no sampling result this round. */
export function samplingText(ctx: ServerContext, key: string): string | undefined {
  const view = inputResponse(ctx.mcpReq.inputResponses, key);
  if (view.kind !== 'sampling') return undefined;
  const content = view.result.content as unknown;
  const blocks = Array.isArray(content) ? content : [content];
  const text = blocks
    .map((b) => (b !== null && typeof b === 'object' && (b as { type?: unknown }).type === 'text' ? ((t: unknown) => (typeof t === 'string' ? t : ''))((b as { text?: unknown }).text) : ''))
    .filter((t) => t.length > 0)
    .join('\n');
  return text.length > 0 ? text : '(the model answered without text)';
}

export type ElicitOutcome =
  | { kind: 'missing' }
  | { kind: 'accept'; content: Record<string, unknown> }
  | { kind: 'decline' }
  | { kind: 'cancel' };

export function elicitOutcome(ctx: ServerContext, key: string): ElicitOutcome {
  const view = inputResponse(ctx.mcpReq.inputResponses, key);
  if (view.kind !== 'elicit') return { kind: 'missing' };
  if (view.action === 'accept') return { kind: 'accept', content: view.content ?? {} };
  return { kind: view.action };
}

export function text(t: string, isError = false) {
  return { content: [{ type: 'text' as const, text: t }], ...(isError ? { isError: true } : {}) };
}
