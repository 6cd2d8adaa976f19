// What every area's checks share: the server, byhand's client on it, what earlier checks learned, and the findings.

import type { Client, JsonObject, Prompt, Resource, ResourceTemplate, RoundEvent, Tool } from '@byhand/client';
import type { CannedSource } from './canned.js';
import type { Finding } from './finding.js';
import { sendRawOn, type RawReply } from './raw.js';

export interface CheckContext {
  /** byhand's client on the server, with the canned host, in the era it negotiated. */
  client: Client;
  /** The server's URL, for a server reached over HTTP. */
  url?: string;
  /** What the canned answers are made from: the roots offered (an empty folder of check's own, or --root) and the date. */
  canned: CannedSource;
  /** A second client with the legacy era pinned (closed by the caller), for the legacy checks of a modern server. */
  connectLegacy(): Promise<Client>;
  findings: Finding[];
  /** Every exchange's time, for the timing area. */
  timings: { what: string; ms: number }[];
  /** Every raw exchange that came back with a result, for the result-shape checks (results.ts). */
  results: { method: string; result: Record<string, unknown> }[];
  /** stdout lines that were not JSON-RPC, from every process check started (stdio). */
  strays: string[];
  /** Learned by the era checks: which eras the server serves. */
  serves: { modern: boolean; legacy: boolean; legacySession?: boolean };
  /** The tool names a 2025 client is offered, when a modern server also serves the legacy era. */
  legacyTools?: string[];
  tools: Tool[];
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
  /** The tools check may call: readOnlyHint ones, plus --call (`yours` when its arguments came with it) and --all-tools. */
  callable: { tool: Tool; args: Record<string, unknown>; yours: boolean }[];
  /** The tools check called, in order: the report names each one. */
  called: Set<string>;
  /** What asked for input when called, read or got with every capability declared: the MRTR and capability checks use them. */
  asking: { target: InputTarget; first: Record<string, unknown> }[];
  /** The rounds byhand's client ran since the last reset: a re-ask's own request says why it came. */
  rounds: RoundEvent[];
  /** When the last finding was added (performance.now()): each finding's time is the work since. */
  mark: number;
}

/** A request that may ask for input (MRTR): a tool call, a resource read or a prompt get, with its params. */
export interface InputTarget {
  method: 'tools/call' | 'resources/read' | 'prompts/get';
  /** The tool or prompt name, or the resource URI. */
  name: string;
  params: JsonObject;
  /** For a tool: its Mcp-Param-* headers come from it. */
  tool?: Tool;
  /** The arguments are the user's (--call TOOL=JSON), not canned. */
  yours?: boolean;
}

/** A URL on the user's own machine (a loopback address). */
export function isLoopback(url: string): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
}

/** "tool think", "resource fixture://secret", "prompt muse": how a finding names it. */
export function labelOf(target: InputTarget): string {
  return `${target.method === 'tools/call' ? 'tool' : target.method === 'resources/read' ? 'resource' : 'prompt'} ${target.name}`;
}

/** "your arguments" or "the canned arguments", as a finding says it. */
export function argumentsOf(target: { yours?: boolean }): string {
  return target.yours === true ? 'your arguments' : 'the canned arguments';
}

export function add(ctx: CheckContext, finding: Finding): void {
  const now = performance.now();
  ctx.findings.push({ ...finding, ms: Math.round(now - ctx.mark) });
  ctx.mark = now;
}

/** A raw exchange on the client's connection, timed; a result is kept for the result-shape checks. */
export async function sendRaw(ctx: CheckContext, what: string, message: Parameters<typeof sendRawOn>[1], headers?: Record<string, string>): Promise<RawReply> {
  const reply = await sendRawOn(ctx.client, message, headers);
  ctx.timings.push({ what, ms: reply.ms });
  const result = reply.message?.result;
  if (result === undefined || typeof result !== 'object' || result === null) return reply;
  ctx.results.push({ method: message.method, result });
  // A tool that answered ran (or asked to run): the report names it.
  const name = message.params?.name;
  if (message.method === 'tools/call' && ctx.tools.some((t) => t.name === name)) ctx.called.add(name as string);
  return reply;
}
