// The command line of `byhand trust`: its flags and help, apart from the command, so completion and help load
// only this.

import type { CommandSpec } from '../shared/kit.js';

export const SPEC: CommandSpec = {
  name: 'trust',
  synopsis: ['byhand trust [DIR]', 'byhand trust --revoke [DIR]', 'byhand trust --list'],
  about: "Trusts a folder's own MCP config (.mcp.json, .vscode/mcp.json, .cursor/mcp.json) to run, as it is now; a changed file is asked about again.",
  flags: {
    revoke: { type: 'boolean', help: 'forget what was answered for DIR' },
    list: { type: 'boolean', help: 'show the folders answered for, and whether their config changed since' },
  },
  notes: `DIR is the folder byhand runs in (default: this one). Without a trusted folder, its config starts
nothing and contacts nothing: at a terminal byhand asks, elsewhere it skips those servers and says so.
--trust on any command runs them once without remembering. Your own configs (in your home folder) and
--config FILE need no trust.`,
};
