// `byhand bridge SERVER`: puts any server in front of any host, whatever era each speaks. The back is byhand's own
// client, opened as every verb opens a server (config name, URL or `-- CMD`, stored logins, config headers); the
// face speaks the host's era and relays what the server asks back to the host (docs/bridge.md).

import type { Client, Host, JsonRpcNotification } from '@byhand/client';
import { runCommand } from '../shared/command.js';
import { processIO, type CommandIO } from '../shared/io.js';
import type { CommandSpec } from '../shared/kit.js';
import { eraLine, openServer } from '../shared/open-server.js';
import { notice } from '../shared/output.js';
import { serverAndWords } from '../shared/resolve-server.js';
import { CONNECT_FLAGS, SOURCE_FLAGS, connectFlags, sourceFlags } from '../shared/server-flags.js';
import { UsageError } from '../shared/usage-error.js';
import { serveStdio } from './stdio-face.js';
import { PendingCalls } from './pending-calls.js';
import { createStateCodec, defaultStateKey, DEFAULT_STATE_TTL_SECONDS } from '@byhand/servers/edge';

export const SPEC: CommandSpec = {
  name: 'bridge',
  synopsis: ['byhand bridge SERVER', 'byhand bridge [options] -- COMMAND [ARGS ...]'],
  about: 'Lets any host use SERVER, whatever era each speaks: a 2025 host launches it on stdio, and what the server asks (sampling, forms, roots) reaches the host.',
  flags: { ...SOURCE_FLAGS, ...CONNECT_FLAGS },
  notes: `stdin and stdout carry the host's JSON-RPC, one message a line; notices go to stderr.
The server is opened when the host sends initialize, declaring what the host declared.`,
};

export async function bridgeCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runCommand(SPEC, args, io, async ({ parsed, failure, defer }) => {
    const flags = connectFlags(parsed.values);
    failure.json = flags.json;
    const { server, words } = serverAndWords(SPEC.name, parsed);
    if (words.length > 0) throw new UsageError(`byhand bridge takes one SERVER (got ${words.join(' ')} after it)`, true);
    const source = sourceFlags(parsed.values);
    failure.what = `byhand bridge ${server.word ?? server.command!.join(' ')}`;
    const backs = new Set<{ close(): Promise<void> }>();
    defer(() => Promise.all([...backs].map((back) => back.close())));
    const openBack = async (host: Host, onNotification: (notification: JsonRpcNotification) => void): Promise<Client> => {
      const opened = await openServer(server, source, flags, io, { host, onNotification });
      backs.add(opened);
      notice(io, `bridging to ${opened.server.describe}; ${eraLine(opened.client, flags.era !== 'auto')}`);
      return opened.client;
    };
    const key = defaultStateKey(io.env.BYHAND_STATE_SECRET);
    const pending = new PendingCalls({ codec: createStateCodec(typeof key === 'function' ? key() : key, DEFAULT_STATE_TTL_SECONDS) });
    await serveStdio(io, { open: openBack, own: {}, pending });
    return 0;
  });
}
