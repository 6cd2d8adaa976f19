// The final result on stdout: text as text (so it pipes), everything else as a one-line summary.

import type { CallToolResult, ContentBlock, GetPromptResult, JsonObject, ReadResourceResult } from '@byhand/client';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { printable } from '@byhand/host';
import { boundDepth, cutNotice } from '../shared/depth-bound.js';

export type FinalResult =
  | { verb: 'call'; result: CallToolResult }
  | { verb: 'read'; result: ReadResourceResult }
  | { verb: 'prompt'; result: GetPromptResult };

/** The result as printed: cut at the print depth (shared/depth-bound.ts), with the notice that says where, if it was. */
export function printedResult(final: FinalResult): { final: FinalResult; notice?: string } {
  const bounded = boundDepth(final.result);
  const notice = cutNotice('the result', bounded);
  return { final: { ...final, result: bounded.value } as FinalResult, ...(notice ? { notice } : {}) };
}

/** What goes on stdout; ends with a newline unless empty. */
export function resultText(final: FinalResult, json: boolean): string {
  if (json) return `${JSON.stringify(final.result)}\n`;
  const lines = final.verb === 'call' ? toolLines(final.result) : final.verb === 'read' ? resourceLines(final.result) : promptLines(final.result);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

function toolLines(result: CallToolResult): string[] {
  const content = Array.isArray(result.content) ? result.content : [];
  // A tool that answers with structured data alone still has something to show.
  if (content.length === 0 && result.structuredContent !== undefined) return [printable(JSON.stringify(result.structuredContent, null, 2))];
  return content.map(blockText);
}

function resourceLines(result: ReadResourceResult): string[] {
  const contents = Array.isArray(result.contents) ? result.contents : [];
  return contents.flatMap((item) => {
    const body = typeof item.text === 'string' ? printable(item.text) : media('blob', item.mimeType, bytes(item.blob));
    // One resource can hold several; then each needs its name.
    return contents.length > 1 ? [`--- ${printable(item.uri)}`, body] : [body];
  });
}

function promptLines(result: GetPromptResult): string[] {
  const messages = Array.isArray(result.messages) ? result.messages : [];
  return messages.map((message) => `${message.role}: ${blockText(message.content)}`);
}

function blockText(block: ContentBlock): string {
  const b = block as JsonObject;
  switch (block.type) {
    case 'text':
      return printable(String(b.text));
    case 'image':
    case 'audio':
      return media(block.type, b.mimeType, bytes(b.data));
    case 'resource_link':
      return `[resource link ${printable(String(b.uri))}${typeof b.name === 'string' ? ` (${printable(b.name)})` : ''}]`;
    case 'resource': {
      const resource = (b.resource ?? {}) as JsonObject;
      const size = typeof resource.text === 'string' ? `${resource.text.length} characters` : bytes(resource.blob);
      return media(`resource ${printable(String(resource.uri))}`, resource.mimeType, size);
    }
    default:
      return `[${printable(String(block.type))} content]`;
  }
}

/** "[image image/png, 1024 bytes]": enough to know what came, without dumping base64 on a terminal. */
function media(label: string, mimeType: unknown, size: string): string {
  return `[${label}${typeof mimeType === 'string' ? ` ${printable(mimeType)}` : ''}, ${size}]`;
}

function bytes(base64: unknown): string {
  return typeof base64 === 'string' ? `${Math.floor((base64.replace(/=+$/, '').length * 3) / 4)} bytes` : 'no data';
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg',
  'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/mpeg': 'mp3', 'audio/ogg': 'ogg', 'application/pdf': 'pdf', 'application/json': 'json',
};

/** --out DIR: every image, audio and blob in the result written to DIR; returns the paths written. */
export async function saveBinaries(final: FinalResult, dir: string): Promise<string[]> {
  const found: { kind: string; mimeType: unknown; data: string }[] = [];
  const fromBlock = (block: JsonObject) => {
    if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string') found.push({ kind: String(block.type), mimeType: block.mimeType, data: block.data });
    const resource = block.type === 'resource' ? (block.resource as JsonObject | undefined) : undefined;
    if (resource && typeof resource.blob === 'string') found.push({ kind: 'blob', mimeType: resource.mimeType, data: resource.blob });
  };
  if (final.verb === 'call') (Array.isArray(final.result.content) ? final.result.content : []).forEach((b) => fromBlock(b as JsonObject));
  if (final.verb === 'prompt') (Array.isArray(final.result.messages) ? final.result.messages : []).forEach((m) => fromBlock(m.content as JsonObject));
  if (final.verb === 'read') {
    for (const item of Array.isArray(final.result.contents) ? final.result.contents : []) {
      if (typeof item.blob === 'string') found.push({ kind: 'blob', mimeType: item.mimeType, data: item.blob });
    }
  }
  if (found.length === 0) return [];
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [i, item] of found.entries()) {
    // Names come from byhand, never from the server: a server-chosen name could climb out of DIR.
    const ext = (typeof item.mimeType === 'string' && EXTENSIONS[item.mimeType]) || 'bin';
    const path = join(dir, `${final.verb}-${i + 1}-${item.kind}.${ext}`);
    await writeFile(path, Buffer.from(item.data, 'base64'));
    written.push(path);
  }
  return written;
}
