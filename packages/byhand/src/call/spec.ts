// The command lines of `call`, `read` and `prompt`: their flags and help, apart from the command, so completion and
// help load only this.

import type { CommandSpec } from '../shared/kit.js';
import { toolboxNames } from '@byhand/servers/registry';
import { CONNECT_FLAGS, META_FLAG, SOURCE_FLAGS } from '../shared/server-flags.js';

export type Verb = 'call' | 'read' | 'prompt';

export const WHAT: Record<Verb, string> = { call: 'TOOL', read: 'URI', prompt: 'NAME' };
/** The flag that names the tool, resource or prompt exactly, as the Inspector CLI's --tool-name, --uri and --prompt-name do. */
export const NAME_FLAG: Record<Verb, string> = { call: 'tool', read: 'uri', prompt: 'prompt' };
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

export function callSpec(verb: Verb): CommandSpec {
  const synopsis = {
    call: ['byhand call SERVER TOOL [key=value ...]', 'byhand call SERVER                       (lists the tools)', 'byhand call [options] --tool TOOL [key=value ...] -- COMMAND [ARGS ...]', 'byhand call [options] -- COMMAND [ARGS ...] TOOL [key=value ...]'],
    read: ['byhand read SERVER URI', 'byhand read SERVER                       (lists the resources and templates)', 'byhand read [options] --uri URI -- COMMAND [ARGS ...]', 'byhand read [options] -- COMMAND [ARGS ...] URI'],
    prompt: ['byhand prompt SERVER NAME [key=value ...]', 'byhand prompt SERVER                     (lists the prompts)', 'byhand prompt [options] --prompt NAME [key=value ...] -- COMMAND [ARGS ...]', 'byhand prompt [options] -- COMMAND [ARGS ...] NAME [key=value ...]'],
  }[verb];
  const about = { call: 'Calls a tool and shows each input round (sampling, forms, roots) as it happens.', read: 'Reads a resource.', prompt: 'Gets a prompt.' }[verb];
  return {
    name: verb,
    synopsis,
    about,
    flags: {
      ...SOURCE_FLAGS,
      ...CONNECT_FLAGS,
      ...META_FLAG,
      [NAME_FLAG[verb]]: { type: 'string', arg: WHAT[verb], help: `the ${verb === 'call' ? 'tool' : verb === 'read' ? 'resource' : 'prompt'} to ${verb === 'read' ? 'read' : verb === 'call' ? 'call' : 'get'}: every word after -- is then the command line, and the words before it are ${verb === 'read' ? 'nothing' : 'key=value arguments'}` },
      yes: { type: 'boolean', help: 'make model calls without asking' },
      answers: { type: 'string', arg: 'FILE', help: 'answer forms from this JSON file ({"field": value}, or {"KEY": {"field": value}} per input key) instead of the terminal' },
      root: { type: 'string', arg: 'DIR', multiple: true, help: 'a root to offer the server', default: 'the working directory' },
      'log-level': { type: 'string', arg: 'LEVEL', help: `ask the server for log messages at this level and above (${LOG_LEVELS.join(', ')}); shown on stderr` },
      out: { type: 'string', arg: 'DIR', help: 'save images, audio and blobs in DIR instead of summarising them' },
      ...(verb === 'call' ? { detach: { type: 'boolean' as const, help: 'a tool that runs as a task (the tasks extension): print its id and return; `byhand task` reads or cancels it' } } : {}),
    },
    notes: `SERVER is a name in the config (see --config), a bundled toolbox (${toolboxNames()};
started in this process), an http(s) URL, or a command line after -- (a stdio server). After --, the
last words are the ${WHAT[verb]}${verb === 'read' ? '' : ' and its key=value arguments'} (a guess, checked once the server answers);
--${NAME_FLAG[verb]} ${WHAT[verb]}, or the ${WHAT[verb]} before the --, is exact: byhand ${verb} ${WHAT[verb]} -- node server.js.
${verb === 'read' ? '' : `
Values are read against the ${verb === 'call' ? "tool's inputSchema: numbers, true/false, a,b,c or [JSON] for arrays,\n{JSON} for objects" : 'prompt: every prompt argument is a string'}.
`}
Sampling: BYHAND_PROVIDER is anthropic (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, BYHAND_ANTHROPIC_MODEL),
openai (an OpenAI-compatible server: BYHAND_OPENAI_BASE_URL, BYHAND_OPENAI_API_KEY, BYHAND_OPENAI_MODEL)
or offline (no model). Unset, BYHAND_OPENAI_BASE_URL wins, then ANTHROPIC_API_KEY, then offline.
\`byhand doctor\` says which would be used and why.`,
  };
}
