// `byhand complete SERVER prompt NAME ARG [VALUE]` (or `resource TEMPLATE ARG [VALUE]`): the values
// a server suggests for a prompt's or a resource template's argument (completion/complete, both eras).

import { processIO, type CommandIO } from '../shared/io.js';
import { listFlag } from '../shared/kit.js';
import { notice } from '../shared/output.js';
import { requestMeta } from '../shared/request-meta.js';
import { runServerCommand } from '../shared/server-command.js';
import { printable } from '@byhand/host';
import { UsageError } from '../shared/usage-error.js';
import { SPEC } from './spec.js';

export async function completeCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runServerCommand(SPEC, args, io, async ({ parsed, flags, server, words, open }) => {
    const meta = requestMeta(parsed.values);
    const [kind, name, argument, value = '', ...extra] = words;
    if (kind !== 'prompt' && kind !== 'resource') throw new UsageError(`byhand complete: say prompt or resource before the name${kind ? `, not ${JSON.stringify(kind)}` : ''}`, true);
    if (name === undefined || argument === undefined) throw new UsageError(`byhand complete: needs the ${kind === 'prompt' ? 'prompt NAME' : 'resource TEMPLATE'} and the ARG to complete`, true);
    if (extra.length > 0) throw new UsageError(`byhand complete: one VALUE only (got ${extra.join(' ')}); chosen arguments go in --context K=V`, true);
    const context: Record<string, string> = {};
    for (const pair of listFlag(parsed.values, 'context')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new UsageError(`--context takes K=V, not ${JSON.stringify(pair)}`, true);
      context[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    const { client } = await open(`complete on ${server.word ?? server.command!.join(' ')}`);
    if (!('completions' in client.serverCapabilities)) notice(io, 'the server does not declare the completions capability; asking anyway');
    const ref = kind === 'prompt' ? { type: 'ref/prompt' as const, name } : { type: 'ref/resource' as const, uri: name };
    const result = await client.complete(ref, { name: argument, value }, Object.keys(context).length > 0 ? { arguments: context } : undefined, meta);
    const { completion } = result;
    if (flags.json) io.stdout.write(`${JSON.stringify(completion)}\n`);
    else {
      io.stdout.write(completion.values.map((v) => `${printable(String(v))}\n`).join(''));
      if (completion.hasMore || (completion.total !== undefined && completion.total > completion.values.length)) notice(io, `${completion.values.length} of ${completion.total ?? 'more'} shown`);
    }
    return 0;
  });
}
