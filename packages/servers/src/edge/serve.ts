// `byhand serve`: every toolbox on one node:http server, each under its own path.

import { createToolbox, type ToolboxOptions } from '../toolboxes/create.js';
import { TOOLBOXES, type ToolboxName } from '../toolboxes/registry.js';
import type { StorageFailureReport } from '../toolboxes/cookie-jar/jar/guarded-store.js';
import { openJarStorage } from '../toolboxes/cookie-jar/jar/open.js';
import { openTaskStorage } from '../db/open-tasks.js';
import { defaultStateKey, type StateRefusal } from './state.js';
import { DEFAULT_MAX_BODY_BYTES, type LegacyMode, type ToolboxHandler } from './toolbox.js';
import { acceptedHosts } from './host-check.js';
import { hostForUrl } from './host-check.js';
import { listenFetch, type ServerLimits } from './listen.js';

export { DEFAULT_SERVER_LIMITS, type ServerLimits } from './listen.js';

export interface StartServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1: a toolbox that asks your model to think is not for the whole network. */
  host?: string;
  /** The database of the Cookie Jar's notes and the tasks: a SQLite file or a postgres:// URL; `:memory:` (the default) keeps them in this process, forgotten on close. */
  dbPath?: string;
  /** requestState HMAC secret; defaults to $BYHAND_STATE_SECRET, else a per-process random key. */
  stateSecret?: string;
  stateTtlSeconds?: number;
  /** Extra hostnames accepted in Host/Origin (e.g. the name a reverse proxy uses). */
  allowedHosts?: readonly string[];
  maxBodyBytes?: number;
  /** Overrides each toolbox's default legacy posture. */
  legacy?: Partial<Record<ToolboxName, LegacyMode>>;
  /** Only mount these. */
  toolboxes?: ToolboxName[];
  sessionIdleMs?: number;
  /** Bounds on what one client can hold open: see DEFAULT_SERVER_LIMITS. */
  limits?: Partial<ServerLimits>;
  now?: () => number;
  onerror?: (error: Error) => void;
  /** The operator's log of refused requestStates, with why (a secret not shared, an expired state). */
  onStateRefused?: (refusal: StateRefusal) => void;
  /** The operator's log of storage failures: the client was told only the id given here. */
  onStorageFailure?: StorageFailureReport;
}

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:3000 (toolboxes live under /api/...). */
  url: string;
  /** Full URL of each mounted toolbox. */
  urls: Record<string, string>;
  /** The address actually bound, e.g. `0.0.0.0:3000`: what the network sees, which `url` (for this machine) may not say. */
  bound: string;
  /** True when the bind address is not loopback, so other machines can connect. */
  exposed: boolean;
  /** Host names accepted in Host and Origin besides the loopback names. */
  allowedHosts: string[];
  close(): Promise<void>;
}

function notFound(path: string): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32601, message: `No toolbox at ${path}; try ${TOOLBOXES.map((t) => t.path).join(', ')}` }, id: null },
    { status: 404 },
  );
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const stateKey = defaultStateKey(options.stateSecret ?? globalThis.process?.env?.BYHAND_STATE_SECRET);
  const allowedHosts = acceptedHosts(host, options.allowedHosts);

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
      ...(entry.stored === true ? { jar: openJarStorage(options.dbPath, options.now !== undefined ? { now: options.now } : {}) } : {}),
      ...(entry.keepsTasks === true ? { tasks: openTaskStorage(options.dbPath, entry.name) } : {}),
      ...(options.onStorageFailure !== undefined ? { onStorageFailure: options.onStorageFailure } : {}),
      ...(options.now !== undefined ? { now: options.now } : {}),
      ...(options.onerror !== undefined ? { onerror: options.onerror } : {}),
      ...(options.onStateRefused !== undefined ? { onStateRefused: options.onStateRefused } : {}),
    };
    mounted.set(entry.path, createToolbox(entry.name, toolboxOptions));
  }
  try {
    await Promise.all([...mounted.values()].map((toolbox) => toolbox.ready()));
  } catch (error) {
    await Promise.all([...mounted.values()].map((toolbox) => toolbox.close().catch(() => {})));
    throw error;
  }

  const listening = await listenFetch(async (request, path) => {
    const toolbox = mounted.get(path);
    return toolbox === undefined ? notFound(path) : toolbox.fetch(request);
  }, {
    host,
    // Every toolbox refuses a body past its cap before reading it; one under it is read whole, as the SDK's adapter does.
    bufferBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.limits !== undefined ? { limits: options.limits } : {}),
    ...(options.onerror !== undefined ? { onerror: options.onerror } : {}),
  });
  const url = `http://${hostForUrl(host)}:${listening.port}`;
  const urls: Record<string, string> = {};
  for (const [path, toolbox] of mounted) urls[toolbox.info.name] = `${url}${path}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    urls,
    bound: listening.bound,
    exposed: listening.exposed,
    allowedHosts,
    close() {
      closing ??= (async () => {
        const stopped = listening.close();
        await Promise.all([...mounted.values()].map((t) => t.close()));
        await stopped;
      })();
      return closing;
    },
  };
}
