// Probing one server: connect (the era is negotiated by trying), count what it offers, and derive
// whether it can ask the host to think. Nothing is guessed: each verdict comes from what happened.

import { basename } from 'node:path';
import { appsExtension, connect, HttpStatusError, isChallenge, ListLimitError, McpError, redactText, toolUi, type Client, type HttpAuth, type Trace, type VerdictCache } from '@byhand/client';
import { createLookingHost } from '@byhand/host';
import type { ServerEntry } from '../shared/config.js';
import { EXIT, exitCodeFor, type ExitCode } from '../shared/exit-codes.js';
import { openingFailure } from '../shared/cause-hints.js';
import { ASK_FOR_LESS, cliHint, cliText } from '../shared/fail.js';
import { followAbort } from '../shared/follow-abort.js';
import { redactWords } from '../shared/redact-words.js';

export type Reach = 'modern' | 'session' | 'per-request';

export interface ProbeReport {
  name: string;
  target: string;
  ok: boolean;
  era?: 'modern' | 'legacy';
  protocolVersion?: string;
  /** modern: through MRTR; session: only over the held legacy connection; per-request: never. */
  reach?: Reach;
  canSample?: boolean;
  /** The server's own description or title, when it gives one. */
  about?: string;
  /** 'retried' after a -32022, 'fell back' to the legacy handshake. */
  negotiation?: 'retried' | 'fell back';
  /** `apps`: the tools with a UI (MCP Apps, `_meta.ui.resourceUri`). */
  counts?: { tools: number; resources: number; prompts: number; templates: number; apps?: number };
  capabilities?: Record<string, unknown>;
  instructions?: string;
  error?: { code: number | string; message: string; hint: string };
  /** The server wants an OAuth login that byhand has no (usable) token for. */
  needsLogin?: boolean;
  /** What this server alone would make the checkpoint exit with (shared/exit-codes.ts). */
  exitCode: ExitCode;
  /** How the connection is carried ('streamable-http', 'stdio'): 'sse' is the deprecated HTTP+SSE transport. */
  transport?: string;
  elapsedMs: number;
}

export interface ProbeOptions {
  timeoutMs: number;
  /** The command's interrupt: a probe it aborts is given up, and one not started yet is not started. */
  signal?: AbortSignal;
  trace?: Trace;
  auth?: HttpAuth;
  /** With no `auth`: the authorization to probe once more with when the server challenges (isChallenge: a 401, or a 403 for scope). */
  whenChallenged?: () => HttpAuth;
  /** Where the eras found are kept: the command's run's (CommandIO.memory, run-verdicts.ts); the process's by default. */
  verdicts?: VerdictCache;
}

export async function probeServer(entry: ServerEntry, options: ProbeOptions): Promise<ProbeReport> {
  const started = performance.now();
  const first = await probeOnce(entry, options);
  if (!first.challenged || options.whenChallenged === undefined || options.signal?.aborted) return first.report;
  const again = await probeOnce(entry, { ...options, auth: options.whenChallenged() });
  return { ...again.report, elapsedMs: Math.round(performance.now() - started) };
}

/** `challenged`: the server asked for an authorization the probe did not have (isChallenge). */
async function probeOnce(entry: ServerEntry, options: ProbeOptions): Promise<{ report: ProbeReport; challenged: boolean }> {
  const started = performance.now();
  // The report is all the checkpoint prints (plain or --json): no secret in a URL or a command line (an ad-hoc
  // command is its own name).
  const base = { name: redactWords(entry.label ?? entry.name), target: redactWords(entry.target) };
  const elapsed = () => Math.round(performance.now() - started);
  if (entry.error || !entry.connect) {
    return { report: { ...base, ok: false, error: { code: 'config', message: redactText(entry.error ?? 'no target'), hint: 'fix the entry in the config file' }, exitCode: EXIT.usage, elapsedMs: elapsed() }, challenged: false };
  }
  if (options.signal?.aborted) {
    const { code, message, hint } = interrupted(options.signal);
    return { report: { ...base, ok: false, error: { code, message: `not probed: ${message}`, hint }, exitCode: EXIT.failed, elapsedMs: elapsed() }, challenged: false };
  }
  // One controller and one timer per probe, the caller's signal followed through followAbort: AbortSignal.timeout and
  // AbortSignal.any cost more CPU than a probe's requests, times every server of a checkpoint.
  const stop = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort(new Error(`no answer within ${options.timeoutMs} ms`));
  }, options.timeoutMs);
  const unfollow = options.signal && followAbort(options.signal, () => stop.abort(options.signal?.reason));
  const signal = stop.signal;
  let client: Client | undefined;
  try {
    // Declaring what `call` declares lets a modern server show it would ask, and makes the counts the ones call
    // reaches; the probe itself never calls a tool. MCP Apps too, so a server that lists its UI tools only to a host
    // that renders them is counted with them.
    client = await connect(entry.connect, {
      host: createLookingHost(),
      extensions: appsExtension(),
      timeoutMs: options.timeoutMs,
      signal,
      onTrace: options.trace,
      ...(options.auth ? { auth: options.auth } : {}),
      clientInfo: { name: 'byhand-checkpoint', version: '0.1.0' },
      ...(options.verdicts ? { verdicts: options.verdicts } : {}),
    });
    const caps = client.serverCapabilities;
    const count = async (capability: string, list: () => Promise<unknown[]>) => (capability in caps ? (await list()).length : 0);
    let apps = 0;
    const [tools, resources, prompts, templates] = await Promise.all([
      count('tools', async () => {
        const listed = await client!.listTools({ signal });
        apps = listed.filter((tool) => toolUi(tool) !== undefined).length;
        return listed;
      }),
      count('resources', () => client!.listResources({ signal })),
      count('prompts', () => client!.listPrompts({ signal })),
      count('resources', () => client!.listResourceTemplates({ signal })),
    ]);
    const { inputRounds, pushes } = client.traits;
    const reach: Reach = inputRounds ? 'modern' : pushes ? 'session' : 'per-request';
    const info = client.serverInfo;
    const about = info?.description ?? (info?.title && info.title !== base.name ? info.title : undefined);
    const { verdict } = client;
    const negotiation = verdict.era === 'legacy' && verdict.how === 'probe' ? 'fell back' : verdict.retriedWith ? 'retried' : undefined;
    const report: ProbeReport = {
      ...base,
      ok: true,
      exitCode: EXIT.ok,
      transport: client.transportName,
      era: client.era,
      protocolVersion: client.protocolVersion,
      reach,
      // Asking happens inside a tool call, a read or a prompt: a server that offers none of them never asks.
      canSample: reach !== 'per-request' && ['tools', 'resources', 'prompts'].some((c) => c in caps),
      ...(about ? { about } : {}),
      ...(negotiation ? { negotiation } : {}),
      counts: { tools, resources, prompts, templates, apps },
      capabilities: caps,
      ...(client.instructions ? { instructions: client.instructions } : {}),
      elapsedMs: elapsed(),
    };
    return { report, challenged: false };
  } catch (error) {
    // Our own deadline fired: that is a timeout with a value and a flag, not a caller's abort.
    const failure = timedOut
      ? new McpError('timeout', `no answer within ${options.timeoutMs} ms`, timeoutHint(entry))
      : options.signal?.aborted ? interrupted(options.signal)
      : error instanceof McpError ? (client === undefined ? (openingFailure(error) as McpError) : error) : new McpError('protocol', (error as Error).message, 'unexpected failure');
    const needsLogin = failure.code === 'auth' && (failure.data as { reason?: string } | undefined)?.reason === 'login-required';
    const challenged = error instanceof HttpStatusError && isChallenge({ status: error.status, header: (name) => error.headers.get(name) });
    const hint = failure instanceof ListLimitError ? ASK_FOR_LESS : cliHint(failure);
    return { report: { ...base, ok: false, error: { code: failure.code, message: cliText(failure.message), hint }, ...(needsLogin ? { needsLogin } : {}), exitCode: exitCodeFor(failure), elapsedMs: elapsed() }, challenged };
  } finally {
    clearTimeout(timer);
    unfollow?.();
    await client?.close().catch(() => undefined);
  }
}

/** The command was stopped (a signal): what the probe then says, rather than the client's words for an abort. */
function interrupted(signal: AbortSignal): McpError {
  return new McpError('aborted', signal.reason instanceof Error ? signal.reason.message : 'interrupted', 'run the checkpoint again');
}

/** A package runner's first start downloads the package, often for longer than the checkpoint waits. */
function timeoutHint(entry: ServerEntry): string {
  const command = entry.connect !== undefined && typeof entry.connect === 'object' && 'command' in entry.connect ? entry.connect.command : undefined;
  if (command !== undefined && /^(npx|uvx|bunx|pnpx)(\.cmd|\.exe)?$/i.test(basename(command))) {
    return `the server may still be starting (a first ${basename(command).replace(/\..*$/, '')} run downloads the package): run the checkpoint again, or raise --timeout (milliseconds)`;
  }
  return 'the server is slow, hung or still starting: raise --timeout (milliseconds) or check the server';
}
