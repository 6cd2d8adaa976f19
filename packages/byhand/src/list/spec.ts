// The command line of `byhand list`: its flags and help, apart from the command, so completion and help load
// only this.

import type { CommandSpec } from '../shared/kit.js';
import { CONNECT_FLAGS, META_FLAG, SOURCE_FLAGS } from '../shared/server-flags.js';

export const SPEC: CommandSpec = {
  name: 'list',
  synopsis: ['byhand list SERVER [tools|resources|templates|prompts ...]', 'byhand list [options] -- COMMAND [ARGS ...]'],
  about: 'Lists what a server offers: tools with their arguments, resources, resource templates and prompts.',
  flags: { ...SOURCE_FLAGS, ...CONNECT_FLAGS, ...META_FLAG },
  notes: `With no kind, all four are listed. --json prints the server's own objects (inputSchema,
outputSchema, annotations) under tools, resources, resourceTemplates and prompts.
SERVER is a config name, a bundled toolbox, an http(s) URL, or a command line after --.`,
};
