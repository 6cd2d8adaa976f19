// `byhand checkpoint [URL|NAME ...] [-- COMMAND ...]`: probes servers concurrently, each with its
// own timeout. Which servers: those named on the command line, else --config FILE, else the configs
// discovered, else the bundled toolboxes; a notice always says which.

import type { TraceEntry } from '@byhand/client';
import { credentialsFile, fileStore } from '@byhand/client/auth/file-store';
import type { ServerEntry } from '../shared/config.js';
import { didYouMean } from '../shared/did-you-mean.js';
import { discoverConfigs, refuseBroken } from '../shared/discover.js';
import { combinedExitCode } from '../shared/exit-codes.js';
import { runCommand } from '../shared/command.js';
import { processIO, type CommandIO } from '../shared/io.js';
import { booleanFlag, listFlag, positiveFlag } from '../shared/kit.js';
import { notice } from '../shared/output.js';
import { askInputs } from '../shared/inputs.js';
import { trustProject } from '../shared/project-trust.js';
import { adHocCommand, configEntries, credentialOf, httpUrl, loginArgs, resolveServer, targetText, withFlags } from '../shared/resolve-server.js';
import { connectFlags, sourceFlags, type SourceFlags } from '../shared/server-flags.js';
import { redactWords } from '../shared/redact-words.js';
import { secretsOf } from '../shared/secret-values.js';
import { runVerdicts } from '../shared/run-verdicts.js';
import { traceLine } from '../shared/show-wire.js';
import { givenCredential } from '../shared/given-credential.js';
import { keepsLoginFor, serversWithLogins, storedLogin } from '../shared/stored-login.js';
import { UsageError } from '../shared/usage-error.js';
import { probeServer, type ProbeReport } from './probe.js';
import { renderReport, styleFor } from './render.js';
import { DEFAULT_BOUNDS, mapByKind, type Bounds } from './bounded.js';
import { readOncePerRun } from './credentials.js';
import { SPEC } from './spec.js';

export async function checkpointCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runCommand(SPEC, args, io, async ({ parsed, failure, defer }) => {
    const flags = connectFlags(parsed.values, 10_000);
    const json = (failure.json = flags.json);
    // --concurrency caps both pools; by default each kind gets what its resources allow (bounded.ts).
    const concurrency = parsed.values.concurrency === undefined ? undefined : positiveFlag(parsed.values, 'concurrency', 1);
    const bounds: Bounds = concurrency === undefined ? DEFAULT_BOUNDS : { http: concurrency, stdio: concurrency };
    const source = sourceFlags(parsed.values);
    const picked = listFlag(parsed.values, 'server');
    const chosen = await chooseEntries(parsed.positionals, parsed.rest, picked, source, io, defer);
    for (const line of chosen.notices) notice(io, line);
    const entries = await withInputs(chosen.entries, io);
    const style = styleFor(io.stdout, io.env);
    const progress = !json && io.stderr.isTTY === true;
    let done = 0;
    const tick = () => progress && io.stderr.write(`\rprobing ${entries.length} server(s): ${done} done…`);
    tick();
    const credentials = readOncePerRun(fileStore(credentialsFile(io.env)));
    const withLogins = await serversWithLogins(credentials);
    const kindOf = (entry: ServerEntry) => (entry.connect === undefined || httpUrl(entry.connect) !== undefined ? 'http' : 'stdio');
    const reports = await mapByKind(entries, kindOf, bounds, async (entry) => {
      // The name is the URL or command line when none was given: redacted as the report names it (probe.ts).
      const label = flags.trace ? redactWords(entry.name) : '';
      const trace = flags.trace ? (e: TraceEntry) => io.stderr.write(`[${label}] ${traceLine(e)}\n`) : undefined;
      // Remote servers may sit behind OAuth: use what `byhand login` stored, never a browser.
      const url = httpUrl(entry.connect);
      const login = loginArgs(entry);
      const { credential } = credentialOf(source, entry.credential);
      const stored = () => storedLogin(io.env, login, credentials);
      const auth = url === undefined ? undefined : credential !== undefined ? givenCredential(credential, login) : keepsLoginFor(withLogins, url) ? stored() : undefined;
      const whenChallenged = url !== undefined && auth === undefined ? { whenChallenged: stored } : {};
      const report = await probeServer({ ...entry, ...(entry.connect ? { connect: withFlags(entry.connect, source, io) } : {}) }, { timeoutMs: flags.timeoutMs, verdicts: runVerdicts(io), trace, ...(auth ? { auth } : {}), ...whenChallenged, ...(io.interrupt ? { signal: io.interrupt } : {}) });
      done++;
      tick();
      return report;
    });
    if (progress) io.stderr.write('\r\x1b[2K');
    for (const report of reports) io.stdout.write(json ? `${JSON.stringify(toJson(report))}\n` : renderReport(report, style, booleanFlag(parsed.values, 'details')));
    return combinedExitCode(reports.map((r) => r.exitCode));
  });
}

/** Each ${input:id} is asked once, however many entries use it, one question at a time. */
async function withInputs(entries: ServerEntry[], io: CommandIO): Promise<ServerEntry[]> {
  const specs = new Map(entries.flatMap((e) => e.missingInputs ?? []).map((spec) => [spec.id, spec]));
  if (specs.size === 0) return entries;
  const values = await askInputs([...specs.values()], io);
  // Without a terminal each entry keeps its error, which names the --input to give.
  if (values === undefined) return entries;
  return entries.map((e) => (e.withInputs ? { ...e.withInputs(values), file: e.file, ...(e.scope !== undefined ? { scope: e.scope } : {}) } : e));
}

interface Chosen {
  entries: ServerEntry[];
  notices: string[];
}

/** What it starts (a named toolbox, the embedded ones) it hands to `defer`, to be closed however the command ends. */
async function chooseEntries(words: string[], rest: string[] | undefined, picked: string[], source: SourceFlags, io: CommandIO, defer: (close: () => unknown) => void): Promise<Chosen> {
  if (words.length > 0 || rest !== undefined) {
    if (picked.length > 0) throw new UsageError('--server picks entries of a config; the servers named on the command line are probed as given', true);
    const entries: ServerEntry[] = [];
    for (const word of words) {
      const server = await resolveServer({ word }, source, io);
      defer(() => server.close());
      entries.push({ name: word, target: targetText(server.target), connect: server.target });
    }
    if (rest !== undefined) {
      const server = adHocCommand(rest, source, io);
      entries.push({ name: rest.join(' '), target: rest.join(' '), connect: server.target });
    }
    return { entries, notices: [] };
  }
  if (!source.embedded) {
    const notices: string[] = [];
    let entries: ServerEntry[];
    let untrusted = false;
    if (source.config !== undefined) {
      entries = (await configEntries(source, io)).entries;
      notices.push(`servers from ${source.config}`);
    } else {
      const found = discoverConfigs(io.cwd, io.env, source.inputs, await trustProject(source.trust, io), secretsOf(io));
      refuseBroken(found);
      untrusted = found.untrusted.length > 0;
      entries = found.entries;
      notices.push(...found.notices);
      if (found.read.length > 0) notices.push(`servers from ${found.read.map((r) => `${r.file.path} (${r.file.host}, ${r.count})`).join(', ')}; --config FILE picks one file`);
    }
    if (entries.length > 0 || source.config !== undefined) {
      if (picked.length > 0) {
        const names = entries.map((e) => e.name);
        const unknown = picked.find((name) => !names.includes(name));
        if (unknown !== undefined) throw new UsageError(`--server ${unknown}: no such entry${didYouMean(unknown, names)}; the config has ${names.join(', ')}`);
        entries = entries.filter((e) => picked.includes(e.name));
      }
      for (const entry of entries.filter((e) => e.disabled)) notices.push(`skipped ${entry.name}: "disabled": true in ${entry.file}`);
      return { entries: entries.filter((e) => !e.disabled), notices };
    }
    notices.push(`no ${untrusted ? 'trusted ' : ''}MCP config found in this folder or your home folder; probing the bundled toolboxes instead (--embedded asks for them, --config FILE names a config)`);
    if (picked.length > 0) throw new UsageError('--server picks entries of a config, and no config was found (--config FILE names one)');
    // The toolboxes (and the SDK under them) load only when there is no config to probe.
    const embedded = await (await import('../shared/embedded.js')).startEmbedded();
    defer(embedded.close);
    return { entries: embedded.entries, notices };
  }
  const embedded = await (await import('../shared/embedded.js')).startEmbedded();
  defer(embedded.close);
  return { entries: embedded.entries, notices: ['probing the bundled toolboxes (--embedded)'] };
}

function toJson(r: ProbeReport) {
  return {
    name: r.name,
    target: r.target,
    ok: r.ok,
    era: r.era ?? null,
    protocolVersion: r.protocolVersion ?? null,
    canSample: r.canSample ?? null,
    reach: r.reach ?? null,
    negotiation: r.negotiation ?? null,
    counts: r.counts ?? null,
    capabilities: r.capabilities ?? null,
    instructions: r.instructions ?? null,
    error: r.error ?? null,
    exitCode: r.exitCode,
    needsLogin: r.needsLogin ?? false,
    elapsedMs: r.elapsedMs,
  };
}

