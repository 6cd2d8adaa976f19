// The command line of `byhand complete`: its flags and help, apart from the command, so completion and help load
// only this.

import type { CommandSpec } from '../shared/kit.js';
import { CONNECT_FLAGS, META_FLAG, SOURCE_FLAGS } from '../shared/server-flags.js';

export const SPEC: CommandSpec = {
  name: 'complete',
  synopsis: ['byhand complete SERVER prompt NAME ARG [VALUE]', 'byhand complete SERVER resource TEMPLATE ARG [VALUE]', 'byhand complete [options] prompt NAME ARG [VALUE] -- COMMAND [ARGS ...]'],
  about: "Asks the server to complete an argument of a prompt or a resource template: what VALUE (default empty) may become.",
  flags: {
    ...SOURCE_FLAGS,
    ...CONNECT_FLAGS,
    ...META_FLAG,
    context: { type: 'string', arg: 'K=V', multiple: true, help: 'an argument already chosen, which may narrow the values' },
  },
  notes: 'One value a line on stdout; --json prints the completion object (values, total, hasMore).',
};
