// `byhand check SERVER`: the traps a server author loses round trips to, found on their own server, in both eras.
// Each area is one module; this file runs them in order (each learns from the ones before: the era decides which
// checks apply, the tool list which tools may be called) and writes one report, --json or --junit.

import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HttpStatusError, McpError, VerdictCache, type Client, type RoundEvent } from '@byhand/client';
import { runCommand } from '../shared/command.js';
import { processIO, type CommandIO } from '../shared/io.js';
import { booleanFlag, listFlag, stringFlag } from '../shared/kit.js';
import { connectResolved } from '../shared/open-server.js';
import { passingNotice } from '../shared/output.js';
import { resolveServer, serverAndWords, type ResolvedServer } from '../shared/resolve-server.js';
import { connectFlags, sourceFlags, type ConnectFlags } from '../shared/server-flags.js';
import { interruptOf } from '../shared/signals.js';
import { UsageError } from '../shared/usage-error.js';
import { acceptWarnings, parseBaseline, type Accepted } from './baseline.js';
import { checkCapabilities } from './capabilities.js';
import { cannedHost, cannedRoots, type CannedSource } from './canned.js';
import { add, isLoopback, type CheckContext } from './context.js';
import { checkEra } from './era.js';
import { checkExitCode, type Area, type Finding } from './finding.js';
import { checkHeaders } from './headers.js';
import { junitXml } from './junit.js';
import { checkLists, errorText } from './lists.js';
import { checkMrtr } from './mrtr.js';
import { reportJson, reportText } from './report.js';
import { CLIENT_INFO } from './request.js';
import { checkResults } from './results.js';
import { checkSchemas } from './schemas.js';
import { checkStdio } from './stdio-hygiene.js';
import { checkTiming } from './timing.js';
import { chooseTools, firstCalls, parseCalls, reportCalled, type ToolChoice } from './tools.js';
import { SPEC } from './spec.js';

export async function checkCommand(args: string[], io: CommandIO = processIO(), clock: { now(): number } = { now: () => Date.now() }): Promise<number> {
  return runCommand(SPEC, args, io, async ({ parsed, failure, defer }) => {
    const flags = connectFlags(parsed.values);
    failure.json = flags.json;
    const strict = booleanFlag(parsed.values, 'strict');
    const verbose = booleanFlag(parsed.values, 'verbose');
    const junit = stringFlag(parsed.values, 'junit');
    const baselineFile = stringFlag(parsed.values, 'baseline');
    const accepted = [...listFlag(parsed.values, 'accept'), ...(baselineFile !== undefined ? parseBaseline(readBaseline(resolve(io.cwd, baselineFile))) : [])];
    const choice = { calls: parseCalls(listFlag(parsed.values, 'call')), allTools: booleanFlag(parsed.values, 'all-tools') };
    const { server: word, words } = serverAndWords('check', parsed);
    if (words.length > 0) throw new UsageError(`byhand check takes one SERVER (got also ${words.join(' ')})`, true);
    const server = await resolveServer(word, sourceFlags(parsed.values), io);
    defer(() => server.close());
    // Made before the server is reached: a --root that is not a folder stops the command there.
    const roots = cannedRoots(listFlag(parsed.values, 'root'), io.cwd, isLocal(server));
    defer(() => roots.dispose());
    failure.what = `byhand check ${server.describe}`;
    const checking = passingNotice(io, `checking ${server.describe}`);
    let findings: Finding[];
    try {
      findings = await findingsOf(server, flags, choice, io, { roots: roots.roots, now: new Date(clock.now()) });
    } finally {
      checking.clear();
    }
    const outcome = acceptWarnings(findings, accepted);
    return report(io, server.describe, outcome, { json: flags.json, strict, verbose, junit });
  });
}

/** A stdio server, or one on a loopback address: on the user's machine. */
function isLocal(server: ResolvedServer): boolean {
  const url = urlOf(server);
  return url === undefined || isLoopback(url);
}

function urlOf({ target }: ResolvedServer): string | undefined {
  return typeof target === 'string' ? target : target instanceof URL ? target.href : 'url' in target ? target.url : undefined;
}

function readBaseline(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--baseline ${file}: ${(error as Error).message} (a file of check ids to accept, one a line)`);
  }
}

/** Every check this server is put through, in the order the report gives them. */
async function findingsOf(server: ResolvedServer, flags: ConnectFlags, choice: ToolChoice, io: CommandIO, canned: CannedSource): Promise<Finding[]> {
  const rounds: RoundEvent[] = [];
  // A verdict cache of its own: check finds the era every time, never from an earlier run's verdict.
  const connectWith = (era: 'auto' | 'legacy') => connectResolved(server, { ...flags, era }, io, { host: cannedHost(canned), clientInfo: CLIENT_INFO, verdicts: new VerdictCache(), onRound: (event) => rounds.push(event) });
  const started = performance.now();
  let client: Client;
  let modernRefusal: Finding | undefined;
  try {
    client = await connectWith('auto');
  } catch (error) {
    // Not there, not in time, or a login needed: the exit code from the one table says so (4, 3), as for every command.
    if (interruptOf(io.interrupt) || !(error instanceof McpError) || !['protocol', 'server'].includes(error.kind)) throw error;
    if (error.code === 'closed' && typeof server.target === 'object' && 'command' in server.target) return [exited(error)];
    // Each era on its own: the modern answer may be what a 2026 client cannot fall back from, while initialize works.
    try {
      client = await connectWith('legacy');
    } catch {
      return [{ area: 'era', id: 'era.none', status: 'error', title: 'byhand could not connect in either era', got: errorText(error), why: 'no MCP client can use the server: a 2026 client sends server/discover or a request with the envelope, a 2025 client sends initialize, and both failed', fix: 'serve the modern era (the SDK: createMcpHandler or serveStdio), the legacy one, or both; run with --trace to see the wire' }];
    }
    modernRefusal = fallbackRefused(error);
  }
  try {
    return await checksOn(client, connectWith, choice, io, started, canned, rounds, modernRefusal, urlOf(server));
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** A stdio server that exited before it answered anything: its stderr says why (node prints the error above its stack). */
function exited(error: McpError): Finding {
  return {
    area: 'era', id: 'era.exited', status: 'error', title: 'the server exited before it answered',
    got: errorText(error),
    why: 'a client that starts the server gets no answer at all; the error is in the server\'s stderr',
    fix: 'run the command line by hand to see the whole error (a missing file or module, a wrong path, a missing build step), then check again',
  };
}

/**
 * The modern request was answered so that a 2026 client cannot fall back, while the legacy era works: the spec's
 * fallback rule reads a 400 (or 404, 405) without a modern error as a legacy server (basic/transports/streamable-http.mdx
 * "Backward compatibility"), and nothing else.
 */
function fallbackRefused(error: McpError): Finding {
  const type = error instanceof HttpStatusError ? error.headers.get('content-type') : null;
  return {
    area: 'era', id: 'era.fallback', status: 'error',
    title: 'the 2025 era works, but a modern request is answered so that a 2026 client cannot fall back to initialize',
    sent: 'server/discover with the 2026-07-28 envelope and headers',
    got: error instanceof HttpStatusError ? `HTTP ${error.status}${type ? ` ${type}` : ''}${error.body ? `: ${JSON.stringify(error.body.slice(0, 100))}` : ''}` : errorText(error),
    why: 'a 2026 client sends its first request in the modern era and falls back to initialize only on a 400 (or 404, 405) that carries no modern error; any other answer, such as a 500 page, ends the connection before the 2025 era is tried',
    fix: 'answer a request in a version you do not speak (or a method you do not know) with HTTP 400 and a JSON-RPC error, as the SDK 1.x transport does ("Bad Request: Server not initialized"); look for an error handler or a proxy that turns the refusal into a 500 page',
  };
}

/** The checks on a server that answered, each area learning from the ones before. */
async function checksOn(client: Client, connectWith: (era: 'auto' | 'legacy') => Promise<Client>, choice: ToolChoice, io: CommandIO, started: number, canned: CannedSource, rounds: RoundEvent[], modernRefusal: Finding | undefined, url: string | undefined): Promise<Finding[]> {
  const coldStartMs = Math.round(performance.now() - started);
  const ctx: CheckContext = {
    client, canned, rounds, connectLegacy: () => connectWith('legacy'), url,
    findings: [], timings: [], results: [], strays: [], serves: { modern: false, legacy: false },
    tools: [], resources: [], templates: [], prompts: [], callable: [], called: new Set(), asking: [], mark: performance.now(),
  };
  if (modernRefusal) add(ctx, modernRefusal);
  const area = async (name: Area, work: () => unknown) => {
    try {
      await work();
    } catch (error) {
      if (interruptOf(io.interrupt) || error instanceof UsageError) throw error;
      add(ctx, { area: name, id: `${name}.stopped`, status: 'error', title: `the ${name} checks stopped`, got: errorText(error), why: 'the server stopped answering as a client expects', fix: 'see the error; run with --trace to see the wire' });
    }
  };
  await area('era', () => checkEra(ctx));
  await area('lists', () => checkLists(ctx));
  await area('schemas', () => checkSchemas(ctx));
  chooseTools(ctx, choice);
  await area('mrtr', () => firstCalls(ctx));
  await area('headers', () => checkHeaders(ctx));
  await area('capabilities', () => checkCapabilities(ctx));
  await area('mrtr', () => checkMrtr(ctx));
  await area('schemas', () => checkResults(ctx));
  reportCalled(ctx);
  checkStdio(ctx);
  checkTiming(ctx, coldStartMs);
  return ctx.findings;
}

function report(io: CommandIO, server: string, outcome: Accepted, options: { json: boolean; strict: boolean; verbose: boolean; junit: string | undefined }): number {
  const code = checkExitCode(outcome.findings, options.strict);
  if (options.junit !== undefined) writeFileSync(resolve(io.cwd, options.junit), junitXml(server, outcome.findings, options.strict));
  io.stdout.write(options.json ? reportJson(server, outcome, code) : reportText(server, outcome, { verbose: options.verbose, strict: options.strict }));
  return code;
}
