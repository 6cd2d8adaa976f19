// `byhand serve`: the toolboxes on loopback, with flags parsed by the CLI's kit like every command.

import { toolboxNames } from '@byhand/servers/registry';
import { fail } from '../shared/fail.js';
import { processIO } from '../shared/io.js';
import { helpText, listFlag, parseCommand, stringFlag, usageLines, type CommandSpec } from '../shared/kit.js';
import { UsageError } from '../shared/usage-error.js';

export const SPEC: CommandSpec = {
  name: 'serve',
  synopsis: ['byhand serve [--port N] [--host H] [--db FILE|postgres://…] [--allow-host NAME]...'],
  get about() {
    return `Serves the toolboxes (${toolboxNames()}), each dual-era on one URL, until Ctrl-C.`;
  },
  flags: {
    port: { type: 'string', arg: 'N', help: 'port to listen on (0 picks a free one)', default: '3000' },
    host: { type: 'string', arg: 'H', help: 'address to bind (0.0.0.0 or :: exposes the toolboxes to the network)', default: '127.0.0.1' },
    db: { type: 'string', arg: 'FILE|URL', help: 'Cookie Jar database: a SQLite file or a postgres:// URL', default: 'memory, forgotten on exit' },
    'allow-host': { type: 'string', arg: 'NAME', multiple: true, help: 'also accept NAME in Host and Origin; without it only loopback names are served' },
  },
  notes: 'Environment: BYHAND_STATE_SECRET (32+ bytes) signs requestState; set the same one on every instance behind one URL.',
};

export async function serveCommand(args: string[]): Promise<number> {
  const io = processIO();
  let flags;
  try {
    const parsed = parseCommand(SPEC, args);
    if (parsed.help) return void io.stdout.write(`${helpText(SPEC)}\n`), 0;
    if (parsed.positionals.length > 0) throw new UsageError(`byhand serve takes no arguments (got ${parsed.positionals.join(' ')})`, true);
    const port = stringFlag(parsed.values, 'port') ?? '3000';
    if (!/^\d+$/.test(port) || Number(port) > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not ${JSON.stringify(port)}`, true);
    const db = stringFlag(parsed.values, 'db');
    const allowHosts = listFlag(parsed.values, 'allow-host').map((name) => name.toLowerCase());
    const bad = allowHosts.find((name) => !/^[a-z0-9.-]+$|^\[[0-9a-f:]+\]$/.test(name));
    if (bad !== undefined) throw new UsageError(`--allow-host takes a host name without scheme or port, not ${JSON.stringify(bad)}`, true);
    flags = { port: Number(port), host: stringFlag(parsed.values, 'host') ?? '127.0.0.1', dbPath: db, allowHosts };
  } catch (error) {
    return fail(error, io, { what: 'byhand serve', json: false, usage: usageLines(SPEC) });
  }
  // The toolboxes and the SDK under them load only now.
  return (await import('@byhand/servers/node')).runServe(flags);
}
