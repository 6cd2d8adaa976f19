// `byhand serve`: the toolboxes on loopback until Ctrl-C, on the one command frame; a failure to start (a port in use,
// a database down) is reported like every command's.

import { runCommand } from '../shared/command.js';
import { processIO, type CommandIO } from '../shared/io.js';
import { listFlag, stringFlag } from '../shared/kit.js';
import { UsageError } from '../shared/usage-error.js';
import { banner } from './banner.js';
import { SPEC } from './spec.js';

export async function serveCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runCommand(SPEC, args, io, async ({ parsed, failure, defer }) => {
    if (parsed.positionals.length > 0) throw new UsageError(`byhand serve takes no arguments (got ${parsed.positionals.join(' ')})`, true);
    const port = stringFlag(parsed.values, 'port') ?? '3000';
    if (!/^\d+$/.test(port) || Number(port) > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not ${JSON.stringify(port)}`, true);
    const host = stringFlag(parsed.values, 'host') ?? '127.0.0.1';
    const dbPath = stringFlag(parsed.values, 'db');
    const allowedHosts = listFlag(parsed.values, 'allow-host').map((name) => name.toLowerCase());
    const bad = allowedHosts.find((name) => !/^[a-z0-9.-]+$|^\[[0-9a-f:]+\]$/.test(name));
    if (bad !== undefined) throw new UsageError(`--allow-host takes a host name without scheme or port, not ${JSON.stringify(bad)}`, true);
    failure.what = `byhand serve on ${host}:${port}`;
    // The toolboxes and the SDK under them load only now.
    const { startServer } = await import('@byhand/servers/node');
    const running = await startServer({
      port: Number(port),
      host,
      allowedHosts,
      ...(dbPath !== undefined ? { dbPath } : {}),
      onStorageFailure: (id, error) => io.stderr.write(`byhand serve: storage failure ${id}: ${error.message}\n`),
      // The client is only told the state was refused (the SDK's -32602); the operator is told why.
      onStateRefused: ({ toolbox, method, why }) => io.stderr.write(`byhand serve: refused the requestState of a ${method} on ${toolbox}: ${why}\n`),
      onerror: (error) => {
        if (io.env.BYHAND_DEBUG) io.stderr.write(`byhand serve: ${error.message}\n`);
      },
    });
    defer(() => running.close());
    io.stdout.write(banner(running, { dbPath }));
    for (const warning of startWarnings({ dbPath, secret: io.env.BYHAND_STATE_SECRET })) io.stderr.write(`byhand serve: ⚠ ${warning}\n`);
    await stopSignal();
    return 0;
  });
}

/**
 * What a deployment of several instances gets wrong without a word: a --db is meant to be shared, and without one
 * secret each instance signs requestState with a key of its own, so a round that reaches another is refused.
 */
export function startWarnings({ dbPath, secret }: { dbPath: string | undefined; secret: string | undefined }): string[] {
  const shared = dbPath !== undefined && dbPath !== ':memory:';
  const signed = secret !== undefined && secret !== '';
  if (shared && !signed) {
    return ['BYHAND_STATE_SECRET is not set, so this instance signs requestState with a key of its own: behind one URL with other instances on this --db, a round of a call that reaches another is refused. Give every instance the same BYHAND_STATE_SECRET (32 bytes or more: openssl rand -base64 32).'];
  }
  // A shared secret is what instances behind one URL need; without a --db their notes and tasks are still their own.
  if (signed && !shared) {
    return ['BYHAND_STATE_SECRET is set, as for several instances behind one URL, but there is no --db: each instance keeps its own notes and tasks, so a task started on one is unknown to the others. Give every instance the same --db (postgres://…, or one SQLite file on one host).'];
  }
  return [];
}

/** Serves until SIGINT or SIGTERM. */
function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
