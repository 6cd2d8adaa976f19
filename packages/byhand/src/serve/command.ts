// `byhand serve`: the toolboxes on loopback, with flags parsed by the CLI's kit like every command.

import { fail } from '../shared/fail.js';
import { processIO } from '../shared/io.js';
import { helpText, parseCommand, stringFlag, usageLines, type CommandSpec } from '../shared/kit.js';
import { UsageError } from '../shared/usage-error.js';

export const SPEC: CommandSpec = {
  name: 'serve',
  synopsis: ['byhand serve [--port N] [--host H] [--db FILE]'],
  about: 'Serves the toolboxes (kitchen, cookie-jar, probe, everything), each dual-era on one URL, until Ctrl-C.',
  flags: {
    port: { type: 'string', arg: 'N', help: 'port to listen on (0 picks a free one)', default: '3000' },
    host: { type: 'string', arg: 'H', help: 'address to bind', default: '127.0.0.1' },
    db: { type: 'string', arg: 'FILE', help: 'Cookie Jar database', default: ':memory:, forgotten on exit' },
  },
  notes: 'Environment: BYHAND_STATE_SECRET signs requestState (set it when several instances serve one URL).',
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
    flags = { port: Number(port), host: stringFlag(parsed.values, 'host') ?? '127.0.0.1', dbPath: db };
  } catch (error) {
    return fail(error, io, { what: 'byhand serve', json: false, usage: usageLines(SPEC) });
  }
  // The toolboxes and the SDK under them load only now.
  return (await import('@byhand/servers/node')).runServe(flags);
}
