// The embedded default: byhand's own toolboxes, started in-process on an ephemeral loopback port,
// so a fresh clone shows the whole story with no config, no keys and no network.

// The toolboxes, and the server SDK, zod and the storage under them, load only when one is started:
// `byhand call https://…` must not pay for servers it does not run (test/cli-imports.test.ts).

// The registry itself is only data (its toolboxes load when served), so reading the names here costs nothing.
import { TOOLBOXES, type ToolboxName } from '@byhand/servers/registry';
import type { ServerEntry } from './config.js';

export interface Embedded {
  entries: ServerEntry[];
  close(): Promise<void>;
}

/** By default the toolboxes the registry marks for a checkpoint. */
export async function startEmbedded(names: ToolboxName[] = TOOLBOXES.filter((t) => t.checkpoint).map((t) => t.name)): Promise<Embedded> {
  const { startServer, TOOLBOXES } = await import('@byhand/servers/node');
  const server = await startServer({ port: 0, toolboxes: names });
  const entries = TOOLBOXES.filter((t) => names.includes(t.name)).map((t) => {
    const url = server.urls[t.name];
    return { name: t.name, label: t.title, target: url, connect: url };
  });
  return { entries, close: () => server.close() };
}

/** The toolbox names `byhand call SERVER` accepts without a config: every name in the registry. */
export function embeddedNames(): string[] {
  return TOOLBOXES.map((t) => t.name);
}
