// The Probe: two ways to ask the host to think, side by side, so the difference between the eras shows on the wire.
// probe_sampling asks the 2026-07-28 way (input_required); probe_sampling_naive asks the 2025 way (a server-to-client
// push through the SDK's deprecated API). The Probe serves 2025 clients per request, the serverless default, so the
// push has nowhere to go.

import { inputRequired, SdkError, type McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { boundedTokens, samplingText, text } from '../../edge/mrtr.js';
import { sharedSchema } from '../../edge/schemas.js';
import type { BuildContext, ToolboxSpec } from '../../edge/toolbox.js';

/** How long the naive push may wait for an answer that can only come over a 2025 session. */
export const NAIVE_PUSH_TIMEOUT_MS = 5_000;

function question(topic: string) {
  return {
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `In one sentence: what is worth knowing about ${topic}?` } }],
    maxTokens: boundedTokens(100),
  };
}

const topicSchema = sharedSchema(z.object({ topic: z.string().max(200).default('soup') }));

function registerProbe(server: McpServer, ctx: BuildContext): void {
  server.registerTool(
    'probe_sampling',
    {
      title: 'Ask the host to think (input_required)',
      description: 'Asks for sampling by returning input_required; the client answers and retries. Works in the 2026-07-28 era.',
      inputSchema: topicSchema,
      annotations: { readOnlyHint: true },
    },
    async ({ topic }, call) => {
      const answer = samplingText(call, 'think');
      if (answer !== undefined) return { ...text(`model said: ${answer}`), structuredContent: { era: ctx.era, topic, answer } };
      return inputRequired({ inputRequests: { think: inputRequired.createMessage(question(topic)) } });
    },
  );

  server.registerTool(
    'probe_sampling_naive',
    {
      title: 'Ask the host to think (2025 push)',
      description: "Asks for sampling with the SDK's deprecated push API (a server-to-client request). Shows why that no longer works.",
      inputSchema: topicSchema,
      annotations: { readOnlyHint: true },
    },
    async ({ topic }, call) => {
      if (ctx.era === 'legacy' && !ctx.sessionful) {
        // Per-request legacy serving: the deprecated push goes out without a related request id, to a GET stream that
        // does not exist, and hangs for the 60 s default timeout (@modelcontextprotocol/server dist/mcp-oHn3ureC.mjs:928).
        // Bounding it only trades the hang for a bare "Request timed out" (SdkError REQUEST_TIMEOUT, measured). The SDK's
        // legacy input_required shim refuses the same request at once and says why, so route through it.
        return inputRequired({ inputRequests: { think: inputRequired.createMessage(question(topic)) } });
      }
      try {
        // eslint-disable-next-line @typescript-eslint/no-deprecated -- the point of this tool is the deprecated path
        const result = await call.mcpReq.requestSampling(question(topic), { timeout: NAIVE_PUSH_TIMEOUT_MS });
        const answer = (Array.isArray(result.content) ? result.content : [result.content])
          .map((b) => (b.type === 'text' ? b.text : ''))
          .join('');
        return { ...text(`model said: ${answer}`), structuredContent: { era: ctx.era, topic, answer } };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const code = error instanceof SdkError ? ` [${String(error.code)}]` : '';
        return text(`The push-style sampling request failed${code}: ${message}`, true);
      }
    },
  );
}

export function probeSpec(): ToolboxSpec {
  return {
    instructions: 'Call probe_sampling and probe_sampling_naive in each era and compare.',
    register: registerProbe,
  };
}
