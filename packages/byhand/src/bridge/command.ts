// `byhand bridge SERVER`: puts any server in front of any host, whatever era each speaks. The back is byhand's own
// client, opened as every verb opens a server (config name, URL or `-- CMD`, stored logins, config headers); the
// face speaks the host's era and relays what the server asks back to the host (docs/bridge.md).

import { resolve } from 'node:path';
import { createBridge, type Bridge, type OpenBack } from '@byhand/switchboard';
import { StreamClosedError, type Client, type Host } from '@byhand/client';
import { AnswersFileError, createHost, ProviderConfigError, type ByhandHost } from '@byhand/host';
import { runCommand } from '../shared/command.js';
import { processIO, type CommandIO } from '../shared/io.js';
import { listFlag, stringFlag, type Values } from '../shared/kit.js';
import { connectResolved, eraLine } from '../shared/open-server.js';
import { notice } from '../shared/output.js';
import { resolveServer, serverAndWords } from '../shared/resolve-server.js';
import { connectFlags, sourceFlags } from '../shared/server-flags.js';
import { UsageError } from '../shared/usage-error.js';
import { SPEC } from './spec.js';

export async function bridgeCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runCommand(SPEC, args, io, async ({ parsed, failure, defer }) => {
    const flags = connectFlags(parsed.values);
    failure.json = flags.json;
    const { server, words } = serverAndWords(SPEC.name, parsed);
    if (words.length > 0) throw new UsageError(`byhand bridge takes one SERVER (got ${words.join(' ')} after it)`, true);
    const source = sourceFlags(parsed.values);
    failure.what = `byhand bridge ${server.word ?? server.command!.join(' ')}`;
    const own = ownHost(parsed.values, io);
    const listen = stringFlag(parsed.values, 'listen');
    const at = listen === undefined ? undefined : { ...listenAddress(listen), path: endpointPath(stringFlag(parsed.values, 'path') ?? '/mcp'), allowedHosts: allowedHosts(listFlag(parsed.values, 'allow-host')) };
    // Found before any host speaks: a name that is not a server is the command line's mistake, said at once and on
    // stderr, not in answer to a host's first request. A bundled toolbox starts here, once, for every back.
    const resolved = await resolveServer(server, source, io);
    defer(() => resolved.close());
    const opened = new Set<Client>();
    const closeQuietly = (client: Client) => client.close().catch(() => undefined);
    defer(() => Promise.all([...opened].map(closeQuietly)));
    const openBack: OpenBack = async (host, events, extensions) => {
      let gone = false;
      const client = await connectResolved(resolved, flags, io, {
        extensions,
        host: {
          ...host,
          eventsEnded: (reason) => {
            // A 2025 server with no event stream cannot send the host its list changes between calls: said, as the
            // host cannot be; a process that exited is said by the face, which ends or starts it again.
            if (!gone) notice(io, reason);
            events.onEventsEnded?.(reason);
          },
        },
        onNotification: (notification) => events.onNotification(notification),
        onGone: (reason) => {
          gone = true;
          events.onGone?.(reason);
        },
      });
      opened.add(client);
      notice(io, `bridging to ${resolved.describe}; ${eraLine(client, flags.era !== 'auto')}`);
      return {
        client,
        close: async () => {
          opened.delete(client);
          await closeQuietly(client);
        },
      };
    };
    const bridge = createBridge({
      open: openBack,
      own,
      ...(io.env.BYHAND_STATE_SECRET !== undefined ? { stateSecret: io.env.BYHAND_STATE_SECRET } : {}),
      ...(at !== undefined ? { allowedHosts: await listenHosts(at) } : {}),
      warn: (text) => notice(io, text),
    });
    if (at === undefined) {
      const gone = await bridge.stdio(io);
      if (gone !== undefined) throw new StreamClosedError(gone, 'the bridge ends with its server, as the server alone would have: the host sees it stop and can start it again');
    } else {
      try {
        await serveHttp(io, bridge, at, failure);
      } finally {
        await bridge.close();
      }
    }
    return 0;
  });
}

/**
 * What the bridge answers itself, for a 2025 host that did not declare it, when the user said so: sampling through a
 * provider of the host package (its spend cap holds; --sampling is the consent, as there is no terminal to ask at),
 * forms from an answers file. Nothing else: stdin is the host's, so no person can be asked.
 */
function ownHost(values: Values, io: CommandIO): Host {
  const provider = stringFlag(values, 'sampling');
  const answers = stringFlag(values, 'answers');
  if (provider === undefined && answers === undefined) return {};
  if (provider !== undefined && !['anthropic', 'openai', 'offline'].includes(provider)) throw new UsageError(`--sampling takes anthropic, openai or offline, not ${JSON.stringify(provider)}`, true);
  let host: ByhandHost;
  try {
    host = createHost({
    env: provider !== undefined ? { ...io.env, BYHAND_PROVIDER: provider } : io.env,
    sampling: provider !== undefined,
    yes: true,
    interactive: false,
    input: io.stdin,
    output: io.stderr,
    ...(answers !== undefined ? { answersFile: resolve(io.cwd, answers) } : {}),
  });
  } catch (error) {
    // A provider without its key, an unreadable answers file: the command line's or the environment's fault.
    if (error instanceof AnswersFileError || error instanceof ProviderConfigError) throw new UsageError(error.message);
    throw error;
  }
  return {
    ...(host.sample !== undefined ? { sample: host.sample } : {}),
    ...(answers !== undefined ? { elicit: host.elicit, elicitationModes: ['form' as const] } : {}),
  };
}

interface ListenAt {
  host: string;
  port: number;
  path: string;
  allowedHosts: string[];
}

/** The names the HTTP face accepts in Host and Origin besides loopback: `--allow-host`, and the address it binds when named. */
async function listenHosts(at: ListenAt): Promise<string[]> {
  const { acceptedHosts } = await import('@byhand/servers/listen');
  return acceptedHosts(at.host, at.allowedHosts);
}

/** Serves the HTTP face until the command is interrupted; the URL to give a host goes on stdout. */
async function serveHttp(io: CommandIO, bridge: Bridge, at: ListenAt, failure: { what: string }): Promise<void> {
  failure.what = `byhand bridge --listen ${at.host}:${at.port}`;
  const { listenNode } = await import('@byhand/servers/listen');
  const { nodeExchange } = await import('@byhand/switchboard/node');
  const listening = await listenNode(async (req, res, path) => {
    const exchange = nodeExchange(req, res);
    if (path !== at.path) return rpcError404(exchange, at.path);
    return bridge.serve(exchange);
  }, { host: at.host, port: at.port });
  try {
    io.stdout.write(`${listening.origin}${at.path}\n`);
    if (listening.exposed) notice(io, `listening on ${listening.bound}, which other machines can reach: a host there can use this server through the bridge`);
    await interrupted(io);
  } finally {
    await listening.close();
  }
}

function rpcError404(exchange: { reply(status: number, headers: Record<string, string>, body?: string): void }, path: string): void {
  exchange.reply(404, { 'content-type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32601, message: `Not found: the bridge serves ${path}` } }));
}

/** `[HOST:]PORT`: loopback unless a host is named; an IPv6 host is bracketed. */
function listenAddress(word: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:]+\]|[^:]+):)?(\d+)$/.exec(word);
  if (match === null || Number(match[2]) > 65535) throw new UsageError(`--listen takes [HOST:]PORT (PORT from 0 to 65535), not ${JSON.stringify(word)}`, true);
  return { host: (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port: Number(match[2]) };
}

function endpointPath(path: string): string {
  if (!/^\/[\w./-]*$/.test(path)) throw new UsageError(`--path takes a path such as /mcp, not ${JSON.stringify(path)}`, true);
  return path.replace(/\/+$/, '') || '/';
}

function allowedHosts(names: string[]): string[] {
  const lower = names.map((name) => name.toLowerCase());
  const bad = lower.find((name) => !/^[a-z0-9.-]+$|^\[[0-9a-f:]+\]$/.test(name));
  if (bad !== undefined) throw new UsageError(`--allow-host takes a host name without scheme or port, not ${JSON.stringify(bad)}`, true);
  return lower;
}

/** Until SIGINT or SIGTERM (the command's interrupt). */
function interrupted(io: CommandIO): Promise<void> {
  return new Promise((resolve) => {
    if (io.interrupt === undefined || io.interrupt.aborted) return resolve();
    io.interrupt.addEventListener('abort', () => resolve(), { once: true });
  });
}
