// `byhand demo`: the finding, told end to end against the Probe running in this process. A 2025-style
// push from server to client has nowhere to go on per-request serving; the 2026-07-28 era asks in
// the result instead, and the same question completes in two rounds. No network, no keys.

import { startEmbedded } from '../shared/embedded.js';
import { connect, type CallToolResult, type RoundEvent, type TraceEntry } from '@byhand/client';
import { createHost, type ByhandHost } from '@byhand/host';
import { inCliWords } from './cli-host.js';
import { lineWriter, processIO, type CommandIO } from '../shared/io.js';
import { createNarrator, type Narrator } from './show-rounds.js';
import { excerpt } from '../shared/show-wire.js';
import { runCommand } from '../shared/command.js';
import { booleanFlag } from '../shared/kit.js';
import { UsageError } from '../shared/usage-error.js';
import { SPEC } from './demo-spec.js';

/** The SDK's own words when a per-request 2025 server tries to ask the client something. */
export const LEGACY_REFUSAL = 'per-request legacy serving cannot receive server-to-client requests';

const WIDTH = 88;

export async function demoCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runCommand(SPEC, args, io, async ({ parsed, defer }) => {
    if (parsed.positionals.length > 0 || parsed.rest !== undefined) throw new UsageError(`byhand demo: takes no arguments (got ${[...parsed.positionals, ...(parsed.rest ?? [])].join(' ')})`, true);
    const yes = booleanFlag(parsed.values, 'yes');
    const say = lineWriter(io.stdout);
    const embedded = await startEmbedded(['probe']);
    defer(embedded.close);
    const url = embedded.entries[0].target;
    // The demo promises no keys and no network: a key merely present in the shell does not count as asking for a model.
    const env = io.env.BYHAND_PROVIDER ? io.env : { BYHAND_PROVIDER: 'offline' };
    const story = new Story(say, new URL(url).pathname);
    const host = inCliWords(createHost({ env, yes, input: io.stdin, output: io.stdout, onEvent: story.narrator.onEvent }));

    say('byhand demo: asking the host to think, the 2025 way and the 2026-07-28 way.');
    wrap(say, `The Probe is running in this process at ${url}. Like a serverless deployment, it serves 2025-era clients per request: no session, no connection held open between requests.`, '');

    const legacy = await story.quietly(() => connect(url, { era: 'legacy', host, onTrace: story.trace }));
    defer(() => legacy.close().catch(() => undefined));
    say();
    say('(1) The naive call.');
    wrap(say, `A 2025-era client: initialize agreed ${legacy.protocolVersion} and the server issued ${legacy.sessionId ? `session ${legacy.sessionId}` : 'no Mcp-Session-Id'}. byhand declared sampling in initialize. Now it calls probe_sampling_naive, whose handler asks the host to think the 2025 way, with a sampling/createMessage request pushed from server to client:`);
    const naive = await legacy.callTool('probe_sampling_naive', { topic: 'soup' });
    const refusal = textOf(naive);
    if (naive.isError !== true || !refusal.includes(LEGACY_REFUSAL)) {
      return story.failed(io, `the naive call was expected to fail with "${LEGACY_REFUSAL}", but answered: ${refusal || JSON.stringify(naive)}`);
    }
    say('  It fails at once, in the SDK\'s own words:');
    wrap(say, `"${refusal}"`, '    ');
    wrap(say, 'Per-request serving forgot the initialize by the next request and holds no stream back to the client, so a request from server to client has nowhere to go.');

    const modern = await story.quietly(() => connect(url, { era: 'modern', host, onTrace: story.trace, onRound: story.onRound }));
    defer(() => modern.close().catch(() => undefined));
    say();
    say('(2) The modern envelope.');
    wrap(say, `The same client, 2026-07-28 style: server/discover found ${modern.protocolVersion}. Every request now carries its protocol version, client info and capabilities in _meta, so the server needs no session to know the client can sample. probe_sampling asks for the thought in its result instead of pushing a request:`);
    story.provider = providerSentence(host);
    const result = await modern.callTool('probe_sampling', { topic: 'soup' });
    const answer = textOf(result);
    if (result.isError === true || story.rounds !== 1) {
      return story.failed(io, `round 2 was expected to complete after one round of input, but after ${story.rounds} it answered: ${answer}`);
    }
    say(`  Round 2 completed: the tool answered "${firstLine(answer)}"`);
    say();
    wrap(say, 'The same question that had nowhere to go as a push completes as a result: no session, no held connection, no sticky routing; any instance behind any load balancer can answer round 2.', '');
    return 0;
  });
}

/** The wire excerpts and the step headings, interleaved in the order things happen. */
class Story {
  readonly narrator: Narrator;
  provider = '';
  private showing = true;

  constructor(private readonly say: (line?: string) => void, private readonly path: string) {
    this.narrator = createNarrator((line) => say(`  ${line.trimStart()}`));
  }

  get rounds(): number {
    return this.narrator.rounds;
  }

  /** Handshakes are told in a sentence, not shown: the point is the call. */
  async quietly<T>(work: () => Promise<T>): Promise<T> {
    this.showing = false;
    try {
      return await work();
    } finally {
      this.showing = true;
    }
  }

  readonly trace = (entry: TraceEntry): void => {
    if (!this.showing || entry.message === undefined) return;
    this.say(entry.direction === 'send' ? `  → ${entry.http?.method ?? 'send'} ${entry.http ? this.path : ''}`.trimEnd() : '  ←');
    this.say(excerpt(entry.message));
  };

  readonly onRound = (event: RoundEvent): void => {
    if (event.phase === 'asked') {
      this.say();
      this.say('(3) The host thinks.');
      wrap(this.say, `The result is input_required: inputRequests.${Object.keys(event.inputRequests).join(', ')} is a request for the host to fulfil, with no stream held open for it. ${this.provider}`);
    } else {
      this.say();
      this.say('(4) Round 2.');
      wrap(this.say, 'The client sends the same tools/call again under a new id, with the host\'s answer, a bare CreateMessageResult, in params.inputResponses:');
    }
    this.narrator.onRound(event);
  };

  failed(io: CommandIO, why: string): number {
    io.stderr.write(`✗ the demo did not go as it should: ${why}\n`);
    return 1;
  }
}

function providerSentence(host: ByhandHost): string {
  const provider = host.provider;
  if (provider?.name === 'offline') {
    return "The host thinks with byhand's offline provider, which is not a language model and calls none: it answers from the request's own words, so the round trip runs with no keys and no network.";
  }
  return provider ? `The host thinks with ${provider.name} (${provider.endpoint}), chosen by BYHAND_PROVIDER.` : 'This host declares no sampling.';
}

function textOf(result: CallToolResult): string {
  return (result.content ?? []).map((block) => (block.type === 'text' ? String(block.text) : '')).join('\n');
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** Narrative at a readable width, indented under its step. */
function wrap(say: (line: string) => void, text: string, indent = '  '): void {
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > WIDTH) {
      say(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) say(indent + line);
}
