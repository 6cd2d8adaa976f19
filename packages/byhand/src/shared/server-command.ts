// The frame of every command that opens one server and asks it something (list, complete, task, watch), on the
// one command frame (command.ts): SERVER and the words after it, the server opened and named on stderr, and
// closed however the command ends.

import { runCommand } from './command.js';
import type { CommandIO } from './io.js';
import type { CommandSpec, Parsed } from './kit.js';
import { eraLine, openServer, type OpenServer } from './open-server.js';
import { notice } from './output.js';
import { serverAndWords, type ServerWord } from './resolve-server.js';
import { connectFlags, sourceFlags, type ConnectFlags } from './server-flags.js';

export interface ServerCommand {
  parsed: Parsed;
  flags: ConnectFlags;
  server: ServerWord;
  /** The words after SERVER (or before `--`). */
  words: string[];
  /** Opens the server and says which one and its era on stderr; a failure from here on is reported as about `what`. */
  open(what: string, options?: Parameters<typeof openServer>[4]): Promise<OpenServer>;
}

export async function runServerCommand(
  spec: CommandSpec,
  args: string[],
  io: CommandIO,
  body: (command: ServerCommand) => Promise<number>,
  /** Told of a failure before it is written, with the server if it was opened: a command's extra note. */
  onFailure?: (error: unknown, open: OpenServer | undefined) => void,
): Promise<number> {
  let opened: OpenServer | undefined;
  return runCommand(spec, args, io, async ({ parsed, failure, defer }) => {
    const flags = connectFlags(parsed.values);
    failure.json = flags.json;
    const { server, words } = serverAndWords(spec.name, parsed);
    const open = async (subject: string, options?: Parameters<typeof openServer>[4]) => {
      failure.what = subject;
      opened = await openServer(server, sourceFlags(parsed.values), flags, io, options);
      defer(() => opened?.close());
      notice(io, `${opened.server.describe}; ${eraLine(opened.client, flags.era !== 'auto')}`);
      return opened;
    };
    return body({ parsed, flags, server, words, open });
  }, onFailure ? { onFailure: (error) => onFailure(error, opened) } : {});
}
