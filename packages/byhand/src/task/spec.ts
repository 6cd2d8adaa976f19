// The command line of `byhand task`: its flags and help, apart from the command, so completion and help load
// only this.

import type { CommandSpec } from '../shared/kit.js';
import { CONNECT_FLAGS, SOURCE_FLAGS } from '../shared/server-flags.js';

export const SPEC: CommandSpec = {
  name: 'task',
  synopsis: ['byhand task SERVER get ID', 'byhand task SERVER cancel ID', 'byhand task [options] get|cancel ID -- COMMAND [ARGS ...]'],
  about: 'Reads or cancels a task a tool started (`byhand call --detach`), through tasks/get and tasks/cancel.',
  flags: { ...SOURCE_FLAGS, ...CONNECT_FLAGS },
  notes: 'get prints the status, and once the task has ended its result or error (the whole task with --json). Exit 0 when the task is working, waiting for input or completed, 1 when it failed or was cancelled.',
};
