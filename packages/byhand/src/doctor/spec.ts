// The command line of `byhand doctor`: its flags and help, apart from the command, so completion and help load
// only this.

import type { CommandSpec } from '../shared/kit.js';

export const SPEC: CommandSpec = {
  name: 'doctor',
  synopsis: ['byhand doctor [--json]'],
  about: 'Says which sampling provider and model, which config files and which credentials file byhand would use here, and why.',
  flags: { json: { type: 'boolean', help: 'print the findings as one JSON object' } },
};
