// The command line of `byhand watch`: its flags and help, apart from the command, so completion and help load
// only this.

import type { CommandSpec } from '../shared/kit.js';
import { CONNECT_FLAGS, SOURCE_FLAGS } from '../shared/server-flags.js';

export const SPEC: CommandSpec = {
  name: 'watch',
  synopsis: ['byhand watch SERVER [URI ...] [--lists]', 'byhand watch [options] [URI ...] -- COMMAND [ARGS ...]'],
  about: 'Prints resource updates and list changes as the server sends them, until Ctrl-C.',
  flags: {
    ...SOURCE_FLAGS,
    ...CONNECT_FLAGS,
    lists: { type: 'boolean', help: 'also watch the tool, prompt and resource lists', default: 'on when no URI is given' },
    count: { type: 'string', arg: 'N', help: 'stop after N updates (exit 0)' },
  },
  notes: `Modern servers: one subscriptions/listen request. Legacy servers: resources/subscribe for each URI,
and the session's list_changed notifications. --timeout bounds connecting and subscribing, not the watch.`,
};
