// The command line of `byhand inspect`: its flags and help, apart from the command, so completion and help load
// only this.

import type { CommandSpec } from '../shared/kit.js';
import { CONNECT_FLAGS, SOURCE_FLAGS } from '../shared/server-flags.js';

export const SPEC: CommandSpec = {
  name: 'inspect',
  synopsis: ['byhand inspect [SERVER] [--port N] [--no-open]', 'byhand inspect [options] -- COMMAND [ARGS ...]'],
  about: 'Explores a server in your browser: both eras on the wire, every MRTR round, forms, sampling by hand, MCP Apps.',
  flags: {
    ...SOURCE_FLAGS,
    ...CONNECT_FLAGS,
    port: { type: 'string', arg: 'N', help: 'the page\'s port on 127.0.0.1 (the MCP App sandbox takes another)', default: 'any free port' },
    'no-open': { type: 'boolean', help: 'print the URL and do not open a browser' },
  },
  notes: `The page is served on 127.0.0.1 only, with a token new at each launch: the URL printed carries it, and the
page sends it on every call; a request without it, or from another Origin or Host, is refused. byhand's own
client runs here, not in the page: the server's credentials stay here, and the page shows every message it sends
and receives. SERVER is what every command takes; without it, pick one in the page from your configs or the
bundled toolboxes (a folder's own config only once it is trusted). A command line is started only when given here.
Ctrl-C stops it.`,
};
