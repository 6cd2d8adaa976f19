// What `byhand serve` does once the CLI's kit has parsed its flags: the banner (which says where the toolboxes really
// are, and warns when they are reachable beyond this machine), and shutting down on SIGINT/SIGTERM.

import { TOOLBOXES } from '../toolboxes/registry.js';
import { startServer, type RunningServer } from './serve.js';

export interface ServeFlags {
  port: number;
  host: string;
  dbPath: string | undefined;
  allowHosts: string[];
}

/** What `byhand serve` prints once listening: where it really is, and a warning when that is beyond this machine. */
export function banner(running: RunningServer, flags: ServeFlags): string {
  const lines = [
    running.exposed
      ? `byhand serve: listening on ${running.bound} (reachable from the network; from this machine: ${running.url})`
      : `byhand serve: listening on ${running.url}`,
  ];
  if (running.exposed) {
    lines.push(
      '  ⚠ The toolboxes have no authentication. Anyone who can reach this address can call them, read and write the',
      "    Cookie Jar's notes, and have them ask the connecting client's model to think.",
      running.allowedHosts.length === 0
        ? '    Only loopback names are accepted in Host/Origin, so remote clients are refused until you add --allow-host NAME.'
        : `    Host/Origin accepted: loopback names and ${running.allowedHosts.join(', ')}.`,
    );
  }
  for (const entry of TOOLBOXES) {
    const url = running.urls[entry.name];
    if (url !== undefined) lines.push(`  ${entry.title.padEnd(24)} ${url}  (${entry.description}; 2025 clients: ${entry.legacy})`);
  }
  if (flags.dbPath === undefined) lines.push('  Cookie Jar notes are in memory (use --db FILE or --db postgres://… to keep them)');
  return `${lines.join('\n')}\n`;
}

/** Serves until SIGINT/SIGTERM, printing the banner; the byhand CLI parses the flags with its own kit and calls this. */
export async function runServe(parsed: ServeFlags): Promise<number> {
  let running: RunningServer;
  try {
    running = await startServer({
      port: parsed.port,
      host: parsed.host,
      allowedHosts: parsed.allowHosts,
      ...(parsed.dbPath !== undefined ? { dbPath: parsed.dbPath } : {}),
      onStorageFailure: (id, error) => process.stderr.write(`byhand serve: storage failure ${id}: ${error.message}\n`),
      onerror: (error) => {
        if (process.env.BYHAND_DEBUG) process.stderr.write(`byhand serve: ${error.message}\n`);
      },
    });
  } catch (error) {
    process.stderr.write(`byhand serve: cannot start on ${parsed.host}:${parsed.port}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  process.stdout.write(banner(running, parsed));
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await running.close();
  return 0;
}
