// The command line of `byhand check`: its flags and help, apart from the command, so completion and help load
// only this.

import type { CommandSpec } from '../shared/kit.js';
import { CONNECT_FLAGS, SOURCE_FLAGS } from '../shared/server-flags.js';

export const SPEC: CommandSpec = {
  name: 'check',
  synopsis: ['byhand check SERVER [options]', 'byhand check [options] -- COMMAND [ARGS ...]'],
  about: 'Checks a server you wrote: its era, headers, capability gate, MRTR rounds (the re-ask and placement traps), schemas, lists and stdio hygiene, with the fix for each finding.',
  flags: {
    ...SOURCE_FLAGS,
    // Not --era: finding the era is one of the checks.
    ...Object.fromEntries(Object.entries(CONNECT_FLAGS).filter(([name]) => name !== 'era')),
    call: { type: 'string', arg: 'TOOL[=JSON]', multiple: true, help: 'also call this tool (not readOnlyHint), with these JSON arguments (your arguments) or canned ones' },
    'all-tools': { type: 'boolean', help: 'call every tool, not only those annotated readOnlyHint: true' },
    root: { type: 'string', arg: 'DIR', multiple: true, help: 'a root to offer a server that asks for roots', default: 'an empty folder of check\'s own, removed afterwards' },
    strict: { type: 'boolean', help: 'warnings fail too (exit 1), but those accepted with --accept or --baseline' },
    accept: { type: 'string', arg: 'ID', multiple: true, help: 'a warning to accept under --strict, by its check id (era.discover); ID* accepts every id it starts' },
    baseline: { type: 'string', arg: 'FILE', help: 'check ids to accept under --strict, one a line (# comments)' },
    verbose: { type: 'boolean', help: 'show the passes and skips too, by area' },
    junit: { type: 'string', arg: 'FILE', help: 'also write the findings as JUnit XML to FILE' },
  },
  notes: `Safe by default: only tools annotated readOnlyHint: true are called, and the report names each tool
called. Every input request is answered with canned values that say they are canned: sampling with a fixed
marked text (never a model), elicitation with values made from the requested schema and today's date, roots
with an empty folder of check's own (or --root). No credential is sent that the server was not given
(--header, its config entry).
The report lists the problems first (each with its check id), then a one-line summary; --verbose adds the passes.
Exit 0 when no finding is at error level, else 1 (--strict: warnings too, but the accepted ones); 2 usage, as for
every command.`,
};
