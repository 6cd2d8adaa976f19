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
outputSchema, annotations, _meta) under tools, resources, resourceTemplates and prompts.
MCP Apps (io.modelcontextprotocol/ui) is declared: a tool with a view says so ('has a UI'), and one a
host shows only to the model or only to the app's view is marked 'model only' or 'app only'.
SERVER is a config name, a bundled toolbox, an http(s) URL, or a command line after --.`,
};
