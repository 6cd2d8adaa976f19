// `byhand serve`'s command line: flags, the banner (which says where the toolboxes really are, and warns when they
// are reachable beyond this machine), and shutting down on SIGINT/SIGTERM.

import { TOOLBOXES } from './registry.js';
import { startServer, type RunningServer } from './serve.js';

const USAGE = `usage: byhand serve [--port N] [--host H] [--db FILE|postgres://…] [--allow-host NAME]...

  --port N           port to listen on (default 3000; 0 picks a free one)
  --host H           address to bind (default 127.0.0.1; 0.0.0.0 or :: exposes the toolboxes to the network)
  --db FILE|URL      Cookie Jar database: a SQLite file or a postgres:// URL (default: memory, forgotten on exit)
  --allow-host NAME  also accept NAME in Host and Origin (repeatable); without it only loopback names are served

Environment: BYHAND_STATE_SECRET (32+ bytes) signs requestState; set the same one on every instance behind one URL.`;

export interface ServeFlags {
  port: number;
  host: string;
  dbPath: string | undefined;
  allowHosts: string[];
}

const VALUED = ['--port', '--host', '--db', '--allow-host'];

export function parseServeArgs(args: string[]): ServeFlags | { error: string } | { help: true } {
  const flags: ServeFlags = { port: 3000, host: '127.0.0.1', dbPath: undefined, allowHosts: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name === '--help' || name === '-h') return { help: true };
    if (!VALUED.includes(name)) return { error: `unknown option ${arg}` };
    const value = inline ?? args[++i];
    if (value === undefined || value === '' || (inline === undefined && value.startsWith('--'))) return { error: `${name} needs a value` };
    if (name === '--port') {
      if (!/^\d+$/.test(value) || Number(value) > 65535) return { error: `--port must be a number from 0 to 65535, not ${JSON.stringify(value)}` };
      flags.port = Number(value);
    } else if (name === '--host') flags.host = value;
    else if (name === '--allow-host') {
      if (!/^[a-z0-9.-]+$|^\[[0-9a-f:]+\]$/i.test(value)) return { error: `--allow-host takes a host name without scheme or port, not ${JSON.stringify(value)}` };
      flags.allowHosts.push(value.toLowerCase());
    } else flags.dbPath = value;
  }
  return flags;
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

/** `byhand serve`: resolves with the exit code once SIGINT/SIGTERM has shut the server down. */
export async function serveCommand(args: string[]): Promise<number> {
  const parsed = parseServeArgs(args);
  if ('help' in parsed) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if ('error' in parsed) {
    process.stderr.write(`byhand serve: ${parsed.error}\n${USAGE}\n`);
    return 2;
  }
  return runServe(parsed);
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
