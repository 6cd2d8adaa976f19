// `byhand call | read | prompt`: one request to one server, on the one command frame (shared/command.ts), its
// MRTR rounds told on stderr as they happen, the final result on stdout. Without a name, the choices are listed and the command exits 2
// (usage: a name is needed). The exit code is the one table's (shared/exit-codes.ts): 5 when the tool
// itself reported an error.

import { resolve } from 'node:path';
import { HostError, McpError, RpcError, type Client, type JsonObject, type JsonRpcNotification, type LoggingLevel, type Task } from '@byhand/client';
import { AnswersFileError, createHost, ProviderConfigError, RootError, type InterruptedError } from '@byhand/host';
import { callArgsOf, type CallArgs, type Verb } from './args.js';
import { callSpec } from './spec.js';
import { coerceToolArguments, promptArguments } from './coerce.js';
import { createNotificationShow, type ProgressListener } from './show-notifications.js';
import { inCliWords } from './cli-host.js';
import { createNarrator } from './show-rounds.js';
import { splitAdvice, splitNote } from './split-check.js';
import { printedResult, resultText, saveBinaries, type FinalResult } from './show-result.js';
import { didYouMean } from '../shared/did-you-mean.js';
import { redactWords } from '../shared/redact-words.js';
import { EXIT } from '../shared/exit-codes.js';
import { runCommand } from '../shared/command.js';
import { lineWriter, processIO, type CommandIO } from '../shared/io.js';
import { eraLine, openServer } from '../shared/open-server.js';
import { fetchListing, listingText, type Kind } from '../shared/show-lists.js';
import { LEGACY_SESSION_NOTE } from '../shared/task-session.js';
import { UsageError } from '../shared/usage-error.js';

export type { Verb } from './args.js';

export async function callCommand(verb: Verb, args: string[], plainIo: CommandIO = processIO()): Promise<number> {
  // Every line on stderr goes through the host's mask, so a secret typed into a form never comes back out
  // (narration, --trace, notifications, errors).
  let mask = (line: string) => line;
  const stderr = Object.assign(Object.create(plainIo.stderr) as typeof plainIo.stderr, {
    write: (chunk: string | Uint8Array, ...rest: unknown[]) => (plainIo.stderr.write as (...a: unknown[]) => boolean)(typeof chunk === 'string' ? mask(chunk) : chunk, ...rest),
  });
  const io: CommandIO = { ...plainIo, stderr };
  const say = lineWriter(io.stderr);
  // Ctrl-C at a question stops the whole command; aborting the request sends the cancellation the
  // protocol has (legacy: notifications/cancelled for the call in flight; modern: nothing is in flight).
  const stop = new AbortController();
  let interrupted: InterruptedError | undefined;
  let opened = false;
  let guessed: CallArgs | undefined;
  const onFailure = (error: unknown): number | void => {
    if (interrupted) {
      say(`✗ ${interrupted.message}`);
      return EXIT.interrupted;
    }
    // The command line the guess left did not answer: the name may belong to it. One that did not start is not
    // helped by where the split fell: its first word, the program, is the same either way.
    const spawnFailed = error instanceof McpError && error.code === 'spawn';
    const note = guessed && !opened && !spawnFailed ? splitNote(guessed) : undefined;
    if (note) say(`byhand: ${redactWords(note)}`);
  };
  return runCommand(callSpec(verb), args, io, async ({ parsed: frame, failure, defer }) => {
    const parsed = callArgsOf(verb, frame, args);
    const { flags } = parsed;
    failure.json = flags.json;
    const label = parsed.server.word ?? parsed.server.command!.join(' ');
    failure.what = parsed.name !== undefined ? `${verb} ${parsed.name} on ${label}` : `list what ${label} offers`;
    const narrator = createNarrator(say, flags.answers);
    // Built first: a bad --answers, --root or provider setting stops the command before anything starts.
    const host = inCliWords(createHost({
      env: io.env,
      yes: flags.yes,
      roots: flags.roots,
      cwd: io.cwd,
      input: io.stdin,
      output: io.stderr,
      onEvent: narrator.onEvent,
      onInterrupt: (error) => {
        interrupted = error;
        stop.abort(error);
      },
      ...(flags.answers !== undefined ? { answersFile: resolve(io.cwd, flags.answers) } : {}),
    }));
    mask = host.mask;
    const notifications = createNotificationShow(io.stderr);
    if (parsed.guessed) guessed = parsed;
    const open = await openServer(parsed.server, parsed.source, flags, io, {
      host,
      signal: stop.signal,
      onRound: narrator.onRound,
      onNotification: (n: JsonRpcNotification) => notifications.show(n),
      ...(flags.logLevel !== undefined ? { logLevel: flags.logLevel as LoggingLevel } : {}),
    });
    opened = true;
    defer(() => open.close());
    say(`byhand: ${open.server.describe}; ${eraLine(open.client, flags.era !== 'auto')}`);
    if (parsed.name === undefined) return await listChoices(open.client, parsed, io);
    notifications.begin();
    if (flags.detach) return await detach(open.client, parsed, label, io);
    // A tool that runs as a task (the tasks extension) is followed; each status it reports is told.
    const onTask = (task: Task) => say(`task ${task.taskId}: ${task.status}${task.statusMessage ? ` (${task.statusMessage})` : ''}`);
    const final = await send(open.client, parsed, label, notifications.progress, onTask);
    notifications.done();
    if (narrator.rounds > 0) say(`round ${narrator.rounds + 1}: complete`);
    if (flags.out !== undefined) {
      for (const saved of await saveBinaries(final, flags.out)) say(`byhand: saved ${saved}`);
    }
    const printed = printedResult(final);
    if (printed.notice) say(`byhand: ${printed.notice}`);
    io.stdout.write(resultText(printed.final, flags.json));
    if (final.verb === 'call' && final.result.isError === true) {
      say(`✗ ${parsed.name} reported an error (isError: true)`);
      return EXIT.toolError;
    }
    return EXIT.ok;
  }, {
    onFailure,
    // createHost's refusals are about the command line or the environment, not the server; an answers file found wrong
    // during the call (a value its form refuses) comes as the cause of the client's HostError.
    isUsage: (e) => [e, e instanceof HostError ? e.cause : undefined].some((x) => x instanceof AnswersFileError || x instanceof RootError || x instanceof ProviderConfigError),
  });
}

const KINDS_FOR: Record<Verb, Kind[]> = { call: ['tools'], read: ['resources', 'templates'], prompt: ['prompts'] };

async function listChoices(client: Client, { verb, flags, server }: CallArgs, io: CommandIO): Promise<number> {
  const listing = await fetchListing(client, KINDS_FOR[verb], metaOf(flags));
  io.stdout.write(flags.json ? `${JSON.stringify(listing)}\n` : listingText(listing));
  // A command that runs as it is printed, with the first name listed. The listing helps, but the command
  // asked for is not done: a script that forgot the name learns so from the exit code.
  const first = { call: listing.tools?.[0]?.name, read: listing.resources?.[0]?.uri, prompt: listing.prompts?.[0]?.name }[verb];
  if (first === undefined) return EXIT.usage;
  const what = { call: 'to call a tool', read: 'to read one', prompt: 'to get one' }[verb];
  const flag = { call: '--tool', read: '--uri', prompt: '--prompt' }[verb];
  const command = server.word !== undefined ? `${shellWord(server.word)} ${shellWord(first)}` : `${flag} ${shellWord(first)} -- ${server.command!.map(shellWord).join(' ')}`;
  io.stderr.write(`byhand: ${what}, name it: byhand ${verb} ${command}${verb === 'read' ? '' : ' [key=value ...]'}\n`);
  return EXIT.usage;
}

/** `call --detach`: the task's id on stdout (or the result, for a tool that does not run as one). */
async function detach(client: Client, args: CallArgs, server: string, io: CommandIO): Promise<number> {
  const { name, pairs, flags } = args;
  const tools = await client.listTools(metaOf(flags));
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw unknownName(args, 'tool', server, tools.map((t) => t.name));
  const started = await client.startTool(name!, coerceToolArguments(tool, pairs), metaOf(flags));
  if ('result' in started) {
    const printed = printedResult({ verb: 'call', result: started.result });
    if (printed.notice) io.stderr.write(`byhand: ${printed.notice}\n`);
    io.stdout.write(resultText(printed.final, flags.json));
    return started.result.isError === true ? EXIT.toolError : EXIT.ok;
  }
  const { task } = started;
  io.stdout.write(flags.json ? `${JSON.stringify(task)}\n` : `${task.taskId}\n`);
  io.stderr.write(`byhand: ${name} runs as task ${task.taskId} (${task.status}); follow it with: byhand task ${shellWord(redactWords(server))} get ${task.taskId}, stop it with: byhand task ${shellWord(redactWords(server))} cancel ${task.taskId}\n`);
  if (client.traits.sessionful) io.stderr.write(`byhand: ${LEGACY_SESSION_NOTE}\n`);
  return 0;
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** --meta, as a request option. */
function metaOf(flags: CallArgs['flags']): { meta?: JsonObject } {
  return flags.meta ? { meta: flags.meta } : {};
}

async function send(client: Client, args: CallArgs, server: string, onProgress: ProgressListener, onTask: (task: Task) => void): Promise<FinalResult> {
  const { verb, name, pairs, flags } = args;
  // Asking for progress is what puts a progressToken on the request.
  const options = { onProgress, ...metaOf(flags) };
  switch (verb) {
    case 'call': {
      const tools = await client.listTools();
      const tool = tools.find((t) => t.name === name);
      // A tool left out of the list for a bad header schema is called anyway, so the client says why it refuses.
      if (!tool && client.excludedTools.some((t) => t.name === name)) return { verb, result: await client.callTool(name!) };
      if (!tool) throw unknownName(args, 'tool', server, tools.map((t) => t.name));
      return { verb, result: await client.callTool(name!, coerceToolArguments(tool, pairs), { ...options, onTask }) };
    }
    case 'read':
      try {
        return { verb, result: await client.readResource(name!, options) };
      } catch (error) {
        // A URI the server does not have is the command line's to fix, as an unknown tool is: said with what it has.
        if (!resourceNotFound(error, name!)) throw error;
        const resources = await client.listResources().catch(() => undefined);
        if (resources === undefined) throw new UsageError(`${redactWords(server)} has no resource ${JSON.stringify(name)} (it said: ${error.message})`);
        throw unknownName(args, 'resource', server, resources.map((r) => r.uri));
      }
    case 'prompt': {
      const prompts = await client.listPrompts();
      const prompt = prompts.find((p) => p.name === name);
      if (!prompt) throw unknownName(args, 'prompt', server, prompts.map((p) => p.name));
      return { verb, result: await client.getPrompt(name!, promptArguments(prompt, pairs), options) };
    }
  }
}

/**
 * The server's answer that the resource does not exist: -32602 naming the URI (2026-07-28, which retired -32002 for
 * it), or the older -32002 (spec 2025-11-25 server/resources, "Resource not found"), which clients still accept.
 */
function resourceNotFound(error: unknown, uri: string): error is RpcError {
  if (!(error instanceof RpcError)) return false;
  if (error.code === -32002) return true;
  return error.code === -32602 && ((error.data as { uri?: unknown } | undefined)?.uri === uri || /not found/i.test(error.message));
}

function unknownName(args: CallArgs, kind: string, label: string, names: string[]): UsageError {
  const { verb, name } = args;
  // The label is the server as typed: a stdio command line may carry secrets as words.
  const server = redactWords(label);
  const offered = names.length > 0 ? `; it has ${names.join(', ')}` : `; it lists no ${kind}s`;
  // A name split off a command line by guess is said to be one, with the command that is exact.
  const advice = splitAdvice(args, names);
  if (advice) return new UsageError(`${server} has no ${kind} ${JSON.stringify(name)}${didYouMean(name!, names)}: ${redactWords(advice)}${offered}`);
  return new UsageError(`${server} has no ${kind} ${JSON.stringify(name!)}${didYouMean(name!, names)}${offered} (byhand ${verb} ${server} lists them${kind === 'resource' ? '' : ' with their arguments'})`);
}
