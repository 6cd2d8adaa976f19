// `byhand serve`: every toolbox on one node:http server, each under its own path.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createToolbox, TOOLBOXES, type ToolboxName, type ToolboxOptions } from './registry.js';
import { deriveStateKey } from './state.js';
import { LOOPBACK_HOSTS, type LegacyMode, type ToolboxHandler } from './toolbox.js';
import { toWebRequest, writeWebResponse } from './node-adapter.js';

export interface StartServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1: a toolbox that asks your model to think is not for the whole network. */
  host?: string;
  /** Cookie Jar database file; `:memory:` (the default) forgets everything on close. */
  dbPath?: string;
  /** requestState HMAC secret; defaults to $BYHAND_STATE_SECRET, else a per-process random key. */
  stateSecret?: string;
  stateTtlSeconds?: number;
  /** Extra hostnames accepted in Host/Origin (e.g. the name a reverse proxy uses). */
  allowedHosts?: string[];
  maxBodyBytes?: number;
  /** Overrides each toolbox's default legacy posture. */
  legacy?: Partial<Record<ToolboxName, LegacyMode>>;
  /** Only mount these. */
  toolboxes?: ToolboxName[];
  sessionIdleMs?: number;
  now?: () => number;
  onerror?: (error: Error) => void;
}

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:3000 (toolboxes live under /api/...). */
  url: string;
  /** Full URL of each mounted toolbox. */
  urls: Record<string, string>;
  close(): Promise<void>;
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function notFound(path: string): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32601, message: `No toolbox at ${path}; try ${TOOLBOXES.map((t) => t.path).join(', ')}` }, id: null },
    { status: 404 },
  );
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const stateKey = deriveStateKey(options.stateSecret);
  const bindName = host.replace(/^\[|\]$/g, '');
  const allowedHosts = [...(options.allowedHosts ?? [])];
  if (!LOOPBACK_HOSTS.includes(bindName) && bindName !== '0.0.0.0' && bindName !== '::') allowedHosts.push(hostForUrl(bindName));

  const mounted = new Map<string, ToolboxHandler>();
  for (const entry of TOOLBOXES) {
    if (options.toolboxes !== undefined && !options.toolboxes.includes(entry.name)) continue;
    const toolboxOptions: ToolboxOptions = {
      stateKey,
      allowedHosts,
      ...(options.stateTtlSeconds !== undefined ? { stateTtlSeconds: options.stateTtlSeconds } : {}),
      ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(options.legacy?.[entry.name] !== undefined ? { legacy: options.legacy[entry.name] } : {}),
      ...(options.sessionIdleMs !== undefined ? { sessionIdleMs: options.sessionIdleMs } : {}),
      ...(options.dbPath !== undefined ? { dbPath: options.dbPath } : {}),
      ...(options.now !== undefined ? { now: options.now } : {}),
      ...(options.onerror !== undefined ? { onerror: options.onerror } : {}),
    };
    mounted.set(entry.path, createToolbox(entry.name, toolboxOptions));
  }

  let origin = 'http://127.0.0.1';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    const toolbox = mounted.get(path);
    const request = toWebRequest(req, res, origin);
    const answer = toolbox === undefined ? Promise.resolve(notFound(path)) : toolbox.fetch(request);
    answer
      .catch((error: unknown) => {
        options.onerror?.(error instanceof Error ? error : new Error(String(error)));
        return Response.json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }, { status: 500 });
      })
      .then((response) => writeWebResponse(response, res))
      .catch(() => res.destroy());
  });
  // SSE streams are long-lived by design; node's default request timeout would cut them.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  origin = `http://${hostForUrl(address.address)}:${address.port}`;
  const url = `http://${hostForUrl(host)}:${address.port}`;
  const urls: Record<string, string> = {};
  for (const [path, toolbox] of mounted) urls[toolbox.info.name] = `${url}${path}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    urls,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await Promise.all([...mounted.values()].map((t) => t.close()));
        await stopped;
      })();
      return closing;
    },
  };
}

const USAGE = `usage: byhand serve [--port N] [--host H] [--db FILE]

  --port N    port to listen on (default 3000; 0 picks a free one)
  --host H    address to bind (default 127.0.0.1)
  --db FILE   Cookie Jar database (default :memory:, forgotten on exit)

Environment: BYHAND_STATE_SECRET signs requestState (set it when several instances serve one URL).`;

export interface ServeFlags {
  port: number;
  host: string;
  dbPath: string | undefined;
}

export function parseServeArgs(args: string[]): ServeFlags | { error: string } | { help: true } {
  const flags: ServeFlags = { port: 3000, host: '127.0.0.1', dbPath: undefined };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name === '--help' || name === '-h') return { help: true };
    if (name !== '--port' && name !== '--host' && name !== '--db') return { error: `unknown option ${arg}` };
    const value = inline ?? args[++i];
    if (value === undefined || value === '' || (inline === undefined && value.startsWith('--'))) return { error: `${name} needs a value` };
    if (name === '--port') {
      if (!/^\d+$/.test(value) || Number(value) > 65535) return { error: `--port must be a number from 0 to 65535, not ${JSON.stringify(value)}` };
      flags.port = Number(value);
    } else if (name === '--host') flags.host = value;
    else flags.dbPath = value;
  }
  return flags;
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

/** Serves until SIGINT/SIGTERM, printing where each toolbox is; the byhand CLI parses the flags itself. */
export async function runServe(parsed: ServeFlags): Promise<number> {
  let running: RunningServer;
  try {
    running = await startServer({
      port: parsed.port,
      host: parsed.host,
      ...(parsed.dbPath !== undefined ? { dbPath: parsed.dbPath } : {}),
      onerror: (error) => {
        if (process.env.BYHAND_DEBUG) process.stderr.write(`byhand serve: ${error.message}\n`);
      },
    });
  } catch (error) {
    process.stderr.write(`byhand serve: cannot listen on ${parsed.host}:${parsed.port}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  process.stdout.write(`byhand serve: listening on ${running.url}\n`);
  for (const entry of TOOLBOXES) {
    const url = running.urls[entry.name];
    if (url !== undefined) process.stdout.write(`  ${entry.title.padEnd(24)} ${url}  (${entry.description}; 2025 clients: ${entry.legacy})\n`);
  }
  if (parsed.dbPath === undefined) process.stdout.write('  Cookie Jar notes are in memory (use --db FILE to keep them)\n');
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
