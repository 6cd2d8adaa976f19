// `byhand check SERVER`: the traps a server author loses round trips to, found on their own server, in both eras.
// Each area is one module; this file runs them in order (each learns from the ones before: the era decides which
// checks apply, the tool list which tools may be called) and writes one report, --json or --junit.

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { McpError, VerdictCache, type Client } from '@byhand/client';
import { runCommand } from '../shared/command.js';
import { processIO, type CommandIO } from '../shared/io.js';
import { booleanFlag, listFlag, stringFlag } from '../shared/kit.js';
import { connectResolved } from '../shared/open-server.js';
import { passingNotice } from '../shared/output.js';
import { resolveServer, serverAndWords, type ResolvedServer } from '../shared/resolve-server.js';
import { connectFlags, sourceFlags, type ConnectFlags } from '../shared/server-flags.js';
import { interruptOf } from '../shared/signals.js';
import { UsageError } from '../shared/usage-error.js';
import { checkCapabilities } from './capabilities.js';
import { cannedHost } from './canned.js';
import { add, type CheckContext } from './context.js';
import { checkEra } from './era.js';
import { checkExitCode, type Area, type Finding } from './finding.js';
import { checkHeaders } from './headers.js';
import { junitXml } from './junit.js';
import { checkLists, errorText } from './lists.js';
import { checkMrtr } from './mrtr.js';
import { reportJson, reportText } from './report.js';
import { CLIENT_INFO } from './request.js';
import { checkSchemas } from './schemas.js';
import { checkStdio } from './stdio-hygiene.js';
import { checkTiming } from './timing.js';
import { chooseTools, firstCalls, parseCalls, type ToolChoice } from './tools.js';
import { SPEC } from './spec.js';

export async function checkCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runCommand(SPEC, args, io, async ({ parsed, failure, defer }) => {
    const flags = connectFlags(parsed.values);
    failure.json = flags.json;
    const strict = booleanFlag(parsed.values, 'strict');
    const junit = stringFlag(parsed.values, 'junit');
    const choice = { calls: parseCalls(listFlag(parsed.values, 'call')), allTools: booleanFlag(parsed.values, 'all-tools') };
    const { server: word, words } = serverAndWords('check', parsed);
    if (words.length > 0) throw new UsageError(`byhand check takes one SERVER (got also ${words.join(' ')})`, true);
    const server = await resolveServer(word, sourceFlags(parsed.values), io);
    defer(() => server.close());
    failure.what = `byhand check ${server.describe}`;
    const checking = passingNotice(io, `checking ${server.describe}`);
    let findings: Finding[];
    try {
      findings = await findingsOf(server, flags, choice, io);
    } finally {
      checking.clear();
    }
    return report(io, server.describe, findings, { json: flags.json, strict, junit });
  });
}

/** Every check this server is put through, in the order the report gives them. */
async function findingsOf(server: ResolvedServer, flags: ConnectFlags, choice: ToolChoice, io: CommandIO): Promise<Finding[]> {
  // A verdict cache of its own: check finds the era every time, never from an earlier run's verdict.
  const connectWith = (era: 'auto' | 'legacy') => connectResolved(server, { ...flags, era }, io, { host: cannedHost(io.cwd), clientInfo: CLIENT_INFO, verdicts: new VerdictCache() });
  const started = performance.now();
  let client: Client;
  try {
    client = await connectWith('auto');
  } catch (error) {
    // Not there, not in time, or a login needed: the exit code from the one table says so (4, 3), as for every command.
    if (interruptOf(io.interrupt) || !(error instanceof McpError) || !['protocol', 'server'].includes(error.kind)) throw error;
    return [{ area: 'era', id: 'era.none', status: 'error', title: 'byhand could not connect in either era', got: errorText(error), why: 'no MCP client can use the server: a 2026 client sends server/discover or a request with the envelope, a 2025 client sends initialize', fix: 'serve the modern era (the SDK: createMcpHandler or serveStdio), the legacy one, or both; run with --trace to see the wire' }];
  }
  try {
    return await checksOn(client, connectWith, choice, io, started);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The checks on a server that answered, each area learning from the ones before. */
async function checksOn(client: Client, connectWith: (era: 'auto' | 'legacy') => Promise<Client>, choice: ToolChoice, io: CommandIO, started: number): Promise<Finding[]> {
  const coldStartMs = Math.round(performance.now() - started);
  const ctx: CheckContext = {
    client, cwd: io.cwd, connectLegacy: () => connectWith('legacy'),
    findings: [], timings: [], strays: [], serves: { modern: false, legacy: false }, tools: [], resources: [], prompts: [], callable: [], asking: [],
  };
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
  checkStdio(ctx);
  checkTiming(ctx, coldStartMs);
  return ctx.findings;
}

function report(io: CommandIO, server: string, findings: Finding[], options: { json: boolean; strict: boolean; junit: string | undefined }): number {
  const code = checkExitCode(findings, options.strict);
  if (options.junit !== undefined) writeFileSync(resolve(io.cwd, options.junit), junitXml(server, findings, options.strict));
  io.stdout.write(options.json ? reportJson(server, findings, code) : reportText(server, findings));
  return code;
}
