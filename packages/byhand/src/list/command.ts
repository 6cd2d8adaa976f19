// `byhand list SERVER [tools|resources|templates|prompts]`: what a server offers, with each tool's
// arguments (human) or the whole schemas (--json), in either era.

import { appsExtension } from '@byhand/client';
import { processIO, type CommandIO } from '../shared/io.js';
import { requestMeta } from '../shared/request-meta.js';
import { runServerCommand } from '../shared/server-command.js';
import { fetchListing, KINDS, listingText, type Kind } from '../shared/show-lists.js';
import { didYouMean } from '../shared/did-you-mean.js';
import { UsageError } from '../shared/usage-error.js';
import { SPEC } from './spec.js';

export async function listCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runServerCommand(SPEC, args, io, async ({ parsed, flags, server, words, open }) => {
    const meta = requestMeta(parsed.values);
    const kinds = words.map((word) => {
      const kind = word === 'resource-templates' ? 'templates' : word;
      if (!(KINDS as readonly string[]).includes(kind)) throw new UsageError(`byhand list: no kind ${JSON.stringify(word)}${didYouMean(word, KINDS)}: give ${KINDS.join(', ')}`, true);
      return kind as Kind;
    });
    // MCP Apps declared, so a server that lists its UI tools only to a host that can render them (apps.mdx, a SHOULD)
    // shows them, each with its view.
    const { client } = await open(`list what ${server.word ?? server.command!.join(' ')} offers`, { extensions: appsExtension() });
    const listing = await fetchListing(client, kinds.length > 0 ? kinds : KINDS, meta);
    io.stdout.write(flags.json ? `${JSON.stringify(listing)}\n` : listingText(listing));
    return 0;
  });
}
