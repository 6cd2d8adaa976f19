// The command line of `byhand checkpoint`: its flags and help, apart from the command, so completion and help load
// only this.

import { toolboxNames } from '@byhand/servers/registry';
import { EXIT_CODES_TEXT } from '../shared/exit-codes-text.js';
import type { CommandSpec } from '../shared/kit.js';
import { CONNECT_FLAGS, SOURCE_FLAGS } from '../shared/server-flags.js';
import { DEFAULT_BOUNDS } from './bounded.js';

const { era: _era, ...CONNECT } = CONNECT_FLAGS;
export const SPEC: CommandSpec = {
  name: 'checkpoint',
  synopsis: ['byhand checkpoint [options] [URL|NAME ...] [-- COMMAND [ARGS ...]]'],
  about: 'Probes servers: the era each speaks, whether it can ask you to think, what it offers, and how long it took.',
  flags: {
    ...SOURCE_FLAGS,
    server: { type: 'string', arg: 'NAME', multiple: true, help: 'probe only this entry of the config' },
    ...CONNECT,
    timeout: { ...CONNECT.timeout, help: 'per-server timeout in milliseconds', default: '10000' },
    concurrency: { type: 'string', arg: 'N', help: 'servers probed at once, for each kind', default: `${DEFAULT_BOUNDS.http} over HTTP, ${DEFAULT_BOUNDS.stdio} over stdio` },
    details: { type: 'boolean', help: "show each server's capabilities and instructions" },
  },
  get notes() {
    return `With no URL, NAME or command line: the servers of --config FILE, else of the configs found (see
--config), else the bundled toolboxes (${toolboxNames((t) => t.checkpoint)}).

MCP Apps (io.modelcontextprotocol/ui) is declared; a server whose tools have a UI shows how many
as app(s), and --json has counts.apps for every server.

Exit 0 when every server is ok; when some failed, the code they failed with if they agree (3 auth,
4 unreachable, 2 a broken config entry), else 1.

${EXIT_CODES_TEXT}`;
  },
};
