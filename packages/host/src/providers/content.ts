import type { ContentBlock, JsonObject, SamplingMessage } from '@byhand/client';

// The sampling content blocks the spec adds for tool loops; the wire types keep them open.
export interface ToolUseBlock { type: 'tool_use'; id: string; name: string; input: JsonObject }
export interface ToolResultBlock {
  type: 'tool_result';
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

export function blocksOf(message: SamplingMessage): ContentBlock[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

export function isToolUse(block: ContentBlock): block is ContentBlock & ToolUseBlock {
  return block.type === 'tool_use';
}

export function isToolResult(block: ContentBlock): block is ContentBlock & ToolResultBlock {
  return block.type === 'tool_result';
}

/** Where a block sits, for error messages: "message 2, block 1". */
export function position(messageIndex: number, blockIndex: number): string {
  return `message ${messageIndex + 1}, block ${blockIndex + 1}`;
}
