// `byhand call | read | prompt`: one request to one server, its MRTR rounds told on stderr as they
// happen, the final result on stdout. Exit 0 on success, 1 when the request or the tool failed,
// 2 when the command line was wrong (so a script can tell "fix your invocation" from "it broke").

import { connect, McpError, redactText, type Client } from '@byhand/client';
import { AnswersFileError, createHost, ProviderConfigError, RootError, type InterruptedError } from '@byhand/host';
import { parseCallArgs, type CallArgs } from './args.js';
import { coerceToolArguments, promptArguments } from './coerce.js';
import { didYouMean } from './did-you-mean.js';
import { lineWriter, processIO, type CommandIO } from './io.js';
import { storedLogin } from '../login/stored.js';
import { resolveServer, type ResolvedServer } from './resolve-server.js';
import { createNarrator } from './show-rounds.js';
import { resultText, type FinalResult } from './show-result.js';
import { traceLine } from './show-wire.js';
import { USAGE, UsageError, type Verb } from './usage.js';

/** The shell's code for a command stopped by Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

export async function callCommand(verb: Verb, args: string[], io: CommandIO = processIO()): Promise<number> {
  const write = lineWriter(io.stderr);
  // Every line goes through the host's mask, so a secret typed into a form never comes back out.
  let mask = (line: string) => line;
  const say = (line = '') => write(mask(line));
  // Ctrl-C at a question stops the whole command; aborting the request sends the cancellation the
  // protocol has (legacy: notifications/cancelled for the call in flight; modern: nothing is in flight).
  const stop = new AbortController();
  let interrupted: InterruptedError | undefined;
  let server: ResolvedServer | undefined;
  let client: Client | undefined;
  try {
    const parsed = parseCallArgs(verb, args);
    if ('help' in parsed) {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const { flags } = parsed;
    const narrator = createNarrator(say, flags.answers);
    // Built first: a bad --answers, --root or provider setting stops the command before anything starts.
    const host = createHost({
      env: io.env,
      yes: flags.yes,
      roots: flags.roots,
      input: io.stdin,
      output: io.stderr,
      onEvent: narrator.onEvent,
      onInterrupt: (error) => {
        interrupted = error;
        stop.abort(error);
      },
      ...(flags.answers !== undefined ? { answersFile: flags.answers } : {}),
    });
    mask = host.mask;
    server = await resolveServer(parsed.server, { env: io.env, ...(flags.config !== undefined ? { config: flags.config } : {}) });
    client = await connect(server.target, {
      era: flags.era,
      // A remote server may sit behind OAuth: use what `byhand login` stored, never a browser.
      ...(server.login !== undefined ? { auth: storedLogin(io.env, server.login) } : {}),
      host,
      signal: stop.signal,
      onRound: narrator.onRound,
      ...(flags.trace ? { onTrace: (entry) => say(traceLine(entry)) } : {}),
      ...(flags.timeoutMs !== undefined ? { timeoutMs: flags.timeoutMs } : {}),
    });
    say(`byhand: ${redactText(server.describe)}; ${eraLine(client)}`);
    const final = await send(client, parsed);
    if (narrator.rounds > 0) say(`round ${narrator.rounds + 1}: complete`);
    io.stdout.write(resultText(final, flags.json));
    if (final.verb === 'call' && final.result.isError === true) {
      say(`✗ ${parsed.name} reported an error (isError: true)`);
      return 1;
    }
    return 0;
  } catch (error) {
    if (interrupted) {
      say(`✗ ${interrupted.message}`);
      return EXIT_INTERRUPTED;
    }
    return failed(error, say);
  } finally {
    await client?.close().catch(() => undefined);
    await server?.close();
  }
}

async function send(client: Client, { verb, name, pairs, server }: CallArgs): Promise<FinalResult> {
  switch (verb) {
    case 'call': {
      const tools = await client.listTools();
      const tool = tools.find((t) => t.name === name);
      // A tool left out of the list for a bad header schema is called anyway, so the client says why it refuses.
      if (!tool && client.excludedTools.some((t) => t.name === name)) return { verb, result: await client.callTool(name) };
      if (!tool) throw unknownName('tool', name, server, tools.map((t) => t.name));
      return { verb, result: await client.callTool(name, coerceToolArguments(tool, pairs)) };
    }
    case 'read':
      return { verb, result: await client.readResource(name) };
    case 'prompt': {
      const prompts = await client.listPrompts();
      const prompt = prompts.find((p) => p.name === name);
      if (!prompt) throw unknownName('prompt', name, server, prompts.map((p) => p.name));
      return { verb, result: await client.getPrompt(name, promptArguments(prompt, pairs)) };
    }
  }
}

function unknownName(kind: string, name: string, server: string, names: string[]): UsageError {
  const offered = names.length > 0 ? `; it has ${names.join(', ')}` : `; it lists no ${kind}s`;
  return new UsageError(`${server} has no ${kind} ${JSON.stringify(name)}${didYouMean(name, names)}${offered}`);
}

function eraLine(client: Client): string {
  const { verdict } = client;
  const fellBack = verdict.era === 'legacy' && verdict.how === 'probe';
  const detail = verdict.how === 'pinned' ? ', pinned by --era' : fellBack ? `, after the modern probe failed (${verdict.evidence})` : '';
  return `${client.era} era, ${client.protocolVersion}${detail}`;
}

function failed(error: unknown, say: (line: string) => void): number {
  if (error instanceof UsageError) {
    say(`✗ ${error.message}`);
    if (error.showUsage) say(USAGE);
    return 2;
  }
  // createHost's refusals are about the command line or the environment, not the server.
  if (error instanceof AnswersFileError || error instanceof RootError || error instanceof ProviderConfigError) {
    say(`✗ ${error.message}`);
    return 2;
  }
  say(`✗ ${error instanceof McpError ? error.explain() : redactText(error instanceof Error ? error.message : String(error))}`);
  return 1;
}
