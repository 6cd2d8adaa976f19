// `byhand checkpoint [--config FILE] [--json] [--trace] [--timeout MS] [--concurrency N]`

import { parseArgs } from 'node:util';
import type { TraceEntry } from '@byhand/client';
import { ConfigError, loadConfig, type ServerEntry } from './config.js';
import { traceLine } from '../call/show-wire.js';
import { storedLogin } from '../login/stored.js';
import { probeServer, type ProbeReport } from './probe.js';
import { renderReport, styleFor } from './render.js';
import { DEFAULT_BOUNDS, mapByKind, type Bounds } from './bounded.js';

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
}

const USAGE = 'usage: byhand checkpoint [--config FILE] [--json] [--trace] [--timeout MS] [--concurrency N]';

export async function checkpointCommand(args: string[], io: Io = process): Promise<number> {
  let flags;
  try {
    flags = parseArgs({
      args,
      options: { config: { type: 'string' }, json: { type: 'boolean' }, trace: { type: 'boolean' }, timeout: { type: 'string' }, concurrency: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }).values;
  } catch (error) {
    io.stderr.write(`byhand checkpoint: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (flags.help) return void io.stdout.write(`${USAGE}\n`), 0;
  const timeoutMs = positive(flags.timeout ?? '10000');
  // --concurrency caps both pools; by default each kind gets what its resources allow (bounded.ts).
  const concurrency = flags.concurrency === undefined ? undefined : positive(flags.concurrency);
  if (!timeoutMs || (flags.concurrency !== undefined && concurrency === undefined)) {
    io.stderr.write(`byhand checkpoint: --timeout and --concurrency take a positive whole number\n${USAGE}\n`);
    return 2;
  }

  let entries: ServerEntry[];
  let close = async () => undefined as void;
  try {
    if (flags.config) entries = loadConfig(flags.config, io.env);
    // The toolboxes (and the SDK under them) load only when there is no config to probe.
    else ({ entries, close } = await (await import('./embedded.js')).startEmbedded());
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`byhand checkpoint: ${error.message}\n`);
    return 2;
  }

  const style = styleFor(io.stdout, io.env);
  const progress = !flags.json && io.stderr.isTTY === true;
  let done = 0;
  const tick = () => progress && io.stderr.write(`\rprobing ${entries.length} server(s): ${done} done…`);
  tick();
  try {
    const bounds: Bounds = concurrency === undefined ? DEFAULT_BOUNDS : { http: concurrency, stdio: concurrency };
    const kindOf = (entry: ServerEntry) => (entry.connect === undefined || typeof entry.connect === 'string' || 'url' in entry.connect ? 'http' : 'stdio');
    const reports = await mapByKind(entries, kindOf, bounds, async (entry) => {
      const trace = flags.trace ? (e: TraceEntry) => io.stderr.write(`[${entry.name}] ${traceLine(e)}\n`) : undefined;
      // Config servers may sit behind OAuth: use what `byhand login` stored, never a browser.
      const http = entry.connect !== undefined && (typeof entry.connect === 'string' || 'url' in entry.connect);
      const auth = flags.config && http ? storedLogin(io.env, `${quote(entry.name)} --config ${quote(flags.config)}`) : undefined;
      const report = await probeServer(entry, { timeoutMs, trace, ...(auth ? { auth } : {}) });
      done++;
      tick();
      return report;
    });
    if (progress) io.stderr.write('\r\x1b[2K');
    for (const report of reports) io.stdout.write(flags.json ? `${JSON.stringify(toJson(report))}\n` : renderReport(report, style));
    return reports.every((r) => r.ok) ? 0 : 1;
  } finally {
    await close();
  }
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
    error: r.error ?? null,
    needsLogin: r.needsLogin ?? false,
    elapsedMs: r.elapsedMs,
  };
}


/** A shell word the user can paste back. */
function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function positive(text: string): number | undefined {
  return /^\d+$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}
