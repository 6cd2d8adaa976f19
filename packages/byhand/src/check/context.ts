// What every area's checks share: the server, byhand's client on it, what earlier checks learned, and the findings.

import type { Client, JsonObject, Prompt, Resource, Tool } from '@byhand/client';
import type { Finding } from './finding.js';
import { sendRawOn, type RawReply } from './raw.js';

export interface CheckContext {
  /** byhand's client on the server, with the canned host, in the era it negotiated. */
  client: Client;
  /** The command's folder: the canned answer to roots/list names it. */
  cwd: string;
  /** A second client with the legacy era pinned (closed by the caller), for the legacy checks of a modern server. */
  connectLegacy(): Promise<Client>;
  findings: Finding[];
  /** Every exchange's time, for the timing area. */
  timings: { what: string; ms: number }[];
  /** stdout lines that were not JSON-RPC, from every process check started (stdio). */
  strays: string[];
  /** Learned by the era checks: which eras the server serves. */
  serves: { modern: boolean; legacy: boolean; legacySession?: boolean };
  /** The tool names a 2025 client is offered, when a modern server also serves the legacy era. */
  legacyTools?: string[];
  tools: Tool[];
  resources: Resource[];
  prompts: Prompt[];
  /** The tools check may call: readOnlyHint ones, plus --call and --all-tools. */
  callable: { tool: Tool; args: Record<string, unknown> }[];
  /** What asked for input when called, read or got with every capability declared: the MRTR and capability checks use them. */
  asking: { target: InputTarget; first: Record<string, unknown> }[];
}

/** A request that may ask for input (MRTR): a tool call, a resource read or a prompt get, with its params. */
export interface InputTarget {
  method: 'tools/call' | 'resources/read' | 'prompts/get';
  /** The tool or prompt name, or the resource URI. */
  name: string;
  params: JsonObject;
  /** For a tool: its Mcp-Param-* headers come from it. */
  tool?: Tool;
}

/** "tool think", "resource fixture://secret", "prompt muse": how a finding names it. */
export function labelOf(target: InputTarget): string {
  return `${target.method === 'tools/call' ? 'tool' : target.method === 'resources/read' ? 'resource' : 'prompt'} ${target.name}`;
}

export function add(ctx: CheckContext, finding: Finding): void {
  ctx.findings.push(finding);
}

/** A raw exchange on the client's connection, timed. */
export async function sendRaw(ctx: CheckContext, what: string, message: Parameters<typeof sendRawOn>[1], headers?: Record<string, string>): Promise<RawReply> {
  const reply = await sendRawOn(ctx.client, message, headers);
  ctx.timings.push({ what, ms: reply.ms });
  return reply;
}
