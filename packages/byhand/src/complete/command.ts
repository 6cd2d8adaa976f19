// `byhand complete SERVER prompt NAME ARG [VALUE]` (or `resource TEMPLATE ARG [VALUE]`): the values
// a server suggests for a prompt's or a resource template's argument (completion/complete, both eras).

import { fail } from '../shared/fail.js';
import { processIO, type CommandIO } from '../shared/io.js';
import { helpText, listFlag, parseCommand, usageLines, type CommandSpec } from '../shared/kit.js';
import { notice } from '../shared/output.js';
import { eraLine, openServer, type OpenServer } from '../shared/open-server.js';
import { serverAndWords } from '../shared/resolve-server.js';
import { META_FLAG, requestMeta } from '../shared/request-meta.js';
import { CONNECT_FLAGS, connectFlags, SOURCE_FLAGS, sourceFlags } from '../shared/server-flags.js';
import { printable } from '@byhand/host';
import { UsageError } from '../shared/usage-error.js';

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

export async function completeCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  let json = args.includes('--json');
  let open: OpenServer | undefined;
  let what = 'byhand complete';
  try {
    const parsed = parseCommand(SPEC, args);
    if (parsed.help) return void io.stdout.write(`${helpText(SPEC)}\n`), 0;
    const flags = connectFlags(parsed.values);
    json = flags.json;
    const meta = requestMeta(parsed.values);
    const { server, words } = serverAndWords('complete', parsed);
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
    what = `complete on ${server.word ?? server.command!.join(' ')}`;
    open = await openServer(server, sourceFlags(parsed.values), flags, io);
    notice(io, `${open.server.describe}; ${eraLine(open.client)}`);
    if (!('completions' in open.client.serverCapabilities)) notice(io, 'the server does not declare the completions capability; asking anyway');
    const ref = kind === 'prompt' ? { type: 'ref/prompt' as const, name } : { type: 'ref/resource' as const, uri: name };
    const result = await open.client.complete(ref, { name: argument, value }, Object.keys(context).length > 0 ? { arguments: context } : undefined, meta);
    const { completion } = result;
    if (json) io.stdout.write(`${JSON.stringify(completion)}\n`);
    else {
      io.stdout.write(completion.values.map((v) => `${printable(String(v))}\n`).join(''));
      if (completion.hasMore || (completion.total !== undefined && completion.total > completion.values.length)) notice(io, `${completion.values.length} of ${completion.total ?? 'more'} shown`);
    }
    return 0;
  } catch (error) {
    return fail(error, io, { what, json, usage: usageLines(SPEC) });
  } finally {
    await open?.close();
  }
}
