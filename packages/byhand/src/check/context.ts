// What every area's checks share: the server, the raw wire to it, what earlier checks learned, and the findings.

import type { Client, Target, Tool } from '@byhand/client';
import type { Finding } from './finding.js';
import type { RawReply, RawWire } from './raw.js';

export interface CheckContext {
  target: Target;
  raw: RawWire;
  timeoutMs: number;
  signal?: AbortSignal;
  findings: Finding[];
  /** Every exchange's time, for the timing area. */
  timings: { what: string; ms: number }[];
  /** Learned by the era checks: which eras the server serves. */
  serves: { modern: boolean; legacy: boolean; legacySession?: boolean };
  /** byhand's client on the server, with the canned host; set once connected. */
  client?: Client;
  tools: Tool[];
  /** The tools check may call: readOnlyHint ones, plus --call and --all-tools. */
  callable: { tool: Tool; args: Record<string, unknown> }[];
  /** Tools that asked for input when called with every capability declared: the MRTR and capability checks use them. */
  asking: { tool: Tool; args: Record<string, unknown>; first: Record<string, unknown> }[];
}

export function add(ctx: CheckContext, finding: Finding): void {
  ctx.findings.push(finding);
}

/** A raw exchange, timed. */
export async function sendRaw(ctx: CheckContext, what: string, message: Record<string, unknown>, headers?: Record<string, string>): Promise<RawReply> {
  const reply = await ctx.raw.send(message, headers);
  ctx.timings.push({ what, ms: reply.ms });
  return reply;
}
