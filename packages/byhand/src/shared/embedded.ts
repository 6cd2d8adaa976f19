// The embedded default: byhand's own toolboxes, started in-process on an ephemeral loopback port,
// so a fresh clone shows the whole story with no config, no keys and no network.

import { startServer } from '@byhand/servers/node';
import { TOOLBOXES, type ToolboxName } from '@byhand/servers/node';
import type { ServerEntry } from './config.js';

const EMBEDDED: ToolboxName[] = ['kitchen', 'cookie-jar', 'probe'];

export interface Embedded {
  entries: ServerEntry[];
  close(): Promise<void>;
}

export async function startEmbedded(names: ToolboxName[] = EMBEDDED): Promise<Embedded> {
  const server = await startServer({ port: 0, toolboxes: names });
  const entries = TOOLBOXES.filter((t) => names.includes(t.name)).map((t) => {
    const url = server.urls[t.name]!;
    return { name: t.name, label: t.title, target: url, connect: url };
  });
  return { entries, close: () => server.close() };
}

/** The toolbox names `byhand call SERVER` accepts without a config. */
export const EMBEDDED_NAMES: readonly string[] = TOOLBOXES.map((t) => t.name);
