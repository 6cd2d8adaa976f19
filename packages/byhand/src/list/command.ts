// `byhand list SERVER [tools|resources|templates|prompts]`: what a server offers, with each tool's
// arguments (human) or the whole schemas (--json), in either era.

import { fail } from '../shared/fail.js';
import { processIO, type CommandIO } from '../shared/io.js';
import { helpText, parseCommand, usageLines, type CommandSpec } from '../shared/kit.js';
import { notice } from '../shared/output.js';
import { eraLine, openServer, type OpenServer } from '../shared/open-server.js';
import { serverAndWords } from '../shared/resolve-server.js';
import { META_FLAG, requestMeta } from '../shared/request-meta.js';
import { CONNECT_FLAGS, connectFlags, SOURCE_FLAGS, sourceFlags } from '../shared/server-flags.js';
import { fetchListing, KINDS, listingText, type Kind } from '../shared/show-lists.js';
import { didYouMean } from '../shared/did-you-mean.js';
import { UsageError } from '../shared/usage-error.js';

export const SPEC: CommandSpec = {
  name: 'list',
  synopsis: ['byhand list SERVER [tools|resources|templates|prompts ...]', 'byhand list [options] -- COMMAND [ARGS ...]'],
  about: 'Lists what a server offers: tools with their arguments, resources, resource templates and prompts.',
  flags: { ...SOURCE_FLAGS, ...CONNECT_FLAGS, ...META_FLAG },
  notes: `With no kind, all four are listed. --json prints the server's own objects (inputSchema,
outputSchema, annotations) under tools, resources, resourceTemplates and prompts.
SERVER is a config name, a bundled toolbox, an http(s) URL, or a command line after --.`,
};

export async function listCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  let json = args.includes('--json');
  let open: OpenServer | undefined;
  let what = 'byhand list';
  try {
    const parsed = parseCommand(SPEC, args);
    if (parsed.help) return void io.stdout.write(`${helpText(SPEC)}\n`), 0;
    const flags = connectFlags(parsed.values);
    json = flags.json;
    const meta = requestMeta(parsed.values);
    const { server, words: kindWords } = serverAndWords('list', parsed);
    const kinds = kindWords.map((word) => {
      const kind = word === 'resource-templates' ? 'templates' : word;
      if (!(KINDS as readonly string[]).includes(kind)) throw new UsageError(`byhand list: no kind ${JSON.stringify(word)}${didYouMean(word, KINDS)}: give ${KINDS.join(', ')}`, true);
      return kind as Kind;
    });
    what = `list what ${server.word ?? server.command!.join(' ')} offers`;
    open = await openServer(server, sourceFlags(parsed.values), flags, io);
    notice(io, `${open.server.describe}; ${eraLine(open.client)}`);
    const listing = await fetchListing(open.client, kinds.length > 0 ? kinds : KINDS, meta);
    io.stdout.write(json ? `${JSON.stringify(listing, null, 2)}\n` : listingText(listing));
    return 0;
  } catch (error) {
    return fail(error, io, { what, json, usage: usageLines(SPEC) });
  } finally {
    await open?.close();
  }
}
