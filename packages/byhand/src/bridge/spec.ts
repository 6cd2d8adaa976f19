// The command line of `byhand bridge`: its flags and help, apart from the command, so completion and help load
// only this.

import type { CommandSpec } from '../shared/kit.js';
import { CONNECT_FLAGS, SOURCE_FLAGS } from '../shared/server-flags.js';

export const SPEC: CommandSpec = {
  name: 'bridge',
  synopsis: ['byhand bridge SERVER [--listen [HOST:]PORT [--path /mcp]]', 'byhand bridge [options] -- COMMAND [ARGS ...]'],
  about: 'Lets any host use SERVER, whatever era each speaks (2025 or 2026): what the server asks (sampling, forms, roots) reaches the host.',
  flags: {
    ...SOURCE_FLAGS,
    ...CONNECT_FLAGS,
    listen: { type: 'string', arg: '[HOST:]PORT', help: 'serve Streamable HTTP on this address instead of stdio (HOST 0.0.0.0 or :: exposes it to the network)', default: 'stdio' },
    path: { type: 'string', arg: 'PATH', help: 'the endpoint path with --listen', default: '/mcp' },
    'allow-host': { type: 'string', arg: 'NAME', multiple: true, help: 'with --listen, also accept NAME in Host and Origin; without it only loopback names are served' },
    sampling: { type: 'string', arg: 'PROVIDER', help: "answer sampling for a 2025 host that did not declare it, with this provider (anthropic, openai or offline), within byhand's spend cap" },
    answers: { type: 'string', arg: 'FILE', help: 'answer forms for a 2025 host that did not declare elicitation, from this JSON file (as byhand call --answers)' },
  },
  notes: `Without --listen, stdin and stdout carry the host's JSON-RPC, one message a line; notices go to stderr.
A 2025 host (initialize) gets the server opened with what it declared; a 2026 host's envelope must declare
what the server asks for, or the call is refused with -32021.
Environment: BYHAND_STATE_SECRET (32+ bytes) signs the requestState of a call waiting for a 2026 host.`,
};
