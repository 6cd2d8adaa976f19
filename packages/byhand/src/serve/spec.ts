// The command line of `byhand serve`: its flags and help, apart from the command, so completion and help load
// only this.

import { toolboxNames } from '@byhand/servers/registry';
import type { CommandSpec } from '../shared/kit.js';

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
