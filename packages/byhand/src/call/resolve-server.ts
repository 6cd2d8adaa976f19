// SERVER on the command line: a name in --config, a bundled toolbox, or a URL, in that order, so a
// config entry can shadow a toolbox name on purpose.

import { ConfigError, loadConfig, type ServerEntry } from '../checkpoint/config.js';
import { EMBEDDED_NAMES, startEmbedded } from '../checkpoint/embedded.js';
import type { Target } from '@byhand/client';
import type { Env } from '@byhand/host';
import type { ToolboxName } from '@byhand/servers/node';
import { didYouMean } from './did-you-mean.js';
import { UsageError } from './usage.js';

export interface ResolvedServer {
  target: Target;
  /** For the narration: where it is and how it was found. */
  describe: string;
  /** Stops what was started for this command (the embedded toolbox); a no-op otherwise. */
  close(): Promise<void>;
  /** How to log in to it, as `byhand login` arguments, when it is a remote HTTP server. */
  login?: string;
}

export async function resolveServer(spec: string, options: { config?: string; env: Env }): Promise<ResolvedServer> {
  const nothing = async () => undefined;
  let configNames: string[] = [];
  if (options.config !== undefined) {
    let entries: ServerEntry[];
    try {
      entries = loadConfig(options.config, options.env);
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    const entry = entries.find((e) => e.name === spec);
    if (entry?.error !== undefined) throw new UsageError(entry.error);
    if (entry?.connect !== undefined) {
      const http = typeof entry.connect === 'string' || 'url' in entry.connect;
      return { target: entry.connect, describe: `${spec} from ${options.config} (${entry.target})`, close: nothing, ...(http ? { login: `${spec} --config ${options.config}` } : {}) };
    }
    configNames = entries.map((e) => e.name);
  }
  if (/^https?:\/\//i.test(spec)) {
    try {
      new URL(spec);
    } catch {
      throw new UsageError(`${JSON.stringify(spec)} is not a valid URL`);
    }
    return { target: spec, describe: spec, close: nothing, login: spec };
  }
  if (isToolboxName(spec)) {
    const embedded = await startEmbedded([spec]);
    const entry = embedded.entries[0]!;
    return { target: entry.connect!, describe: `${spec}, bundled, started in this process at ${entry.target}`, close: () => embedded.close() };
  }
  const known = [...configNames, ...EMBEDDED_NAMES];
  const listed = options.config !== undefined ? `, a name in ${options.config} (${configNames.join(', ')})` : ', or a name from --config FILE';
  throw new UsageError(`unknown server ${JSON.stringify(spec)}${didYouMean(spec, known)}: give an http(s) URL, a bundled toolbox (${EMBEDDED_NAMES.join(', ')})${listed}`);
}

function isToolboxName(name: string): name is ToolboxName {
  return EMBEDDED_NAMES.includes(name);
}
