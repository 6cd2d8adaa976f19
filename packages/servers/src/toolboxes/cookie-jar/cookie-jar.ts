// The Cookie Jar: short notes that forget themselves. Contract: exactly 3 tools, 1 resource, 1 prompt.
// Forgetting early is the one destructive act, so it asks the user first, and the confirmation only counts when it
// answers a question this server actually asked (the round-2 requestState is bound to the same note id).

import { inputRequired, type McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { guardedStorage, type StorageFailureReport } from './jar/guarded-store.js';
import { memoryStore } from './jar/memory-store.js';
import { JarFullError, MAX_NOTE_LENGTH, MAX_PAGE, MAX_TTL_SECONDS, type JarStorage, type Note } from './jar/storage.js';
import { elicitOutcome, text } from '../../edge/mrtr.js';
import { sharedSchema } from '../../edge/schemas.js';
import type { BuildContext, ToolboxSpec } from '../../edge/toolbox.js';

export const JAR_URI = 'jar://notes';
/** Notes per list page and per prompt: a model gets a page, never the whole jar. */
const PAGE = 50;

interface ForgetState {
  asked: number;
}

function describe(note: Note): string {
  return `#${note.id} "${note.text}" (forgets itself at ${note.expiresAt})`;
}

const PutSchema = sharedSchema(
  z.object({
    text: z.string().min(1).max(MAX_NOTE_LENGTH).describe(`the note, at most ${MAX_NOTE_LENGTH} characters`),
    ttl_seconds: z.number().int().min(1).max(MAX_TTL_SECONDS).default(3600).describe('how long the jar remembers it'),
  }),
);

const ListSchema = sharedSchema(
  z.object({
    after: z.number().int().min(0).default(0).describe('list notes after this id (the previous page\'s next)'),
    limit: z.number().int().min(1).max(MAX_PAGE).default(PAGE).describe(`at most this many notes (up to ${MAX_PAGE})`),
  }),
);

const ForgetSchema = sharedSchema(z.object({ id: z.number().int().min(1).describe('the note id, as list_notes shows it') }));

const RecallSchema = sharedSchema(z.object({ topic: z.string().optional().describe('only notes about this') }));

/** Said on every put to a jar in memory: each `byhand call` starts the bundled jar afresh, so nothing is kept between them. */
const IN_MEMORY = '; kept in this process only (byhand serve --db FILE keeps notes)';

function registerJar(server: McpServer, ctx: BuildContext, store: JarStorage): void {
  server.registerTool(
    'put_note',
    {
      title: 'Put a note in the jar',
      description: 'Stores a short note that is forgotten after ttl_seconds.',
      inputSchema: PutSchema,
    },
    async ({ text: note, ttl_seconds }) => {
      try {
        const stored = await store.put(note, ttl_seconds);
        return { ...text(`Put ${describe(stored)}${store.inMemory === true ? IN_MEMORY : ''}`), structuredContent: { note: stored } };
      } catch (error) {
        if (error instanceof JarFullError) return text(error.message, true);
        throw error;
      }
    },
  );

  server.registerTool(
    'list_notes',
    {
      title: 'List the notes',
      description: `Lists the notes the jar still remembers, oldest first, ${PAGE} at a time; pass \`after\` (the \`next\` of the previous page) for more.`,
      inputSchema: ListSchema,
      annotations: { readOnlyHint: true },
    },
    async ({ after, limit }) => {
      const { notes, next } = await store.page(after, limit);
      const more = next === undefined ? '' : `\n(more: call list_notes with after=${next})`;
      return {
        ...text(notes.length === 0 ? (after === 0 ? 'The jar is empty.' : 'No more notes.') : notes.map(describe).join('\n') + more),
        structuredContent: { notes, ...(next !== undefined ? { next } : {}) },
      };
    },
  );

  server.registerTool(
    'forget_note',
    {
      title: 'Forget a note now',
      description: 'Forgets a note before its time, after you confirm.',
      inputSchema: ForgetSchema,
      annotations: { destructiveHint: true },
    },
    async ({ id }, call) => {
      const note = await store.get(id);
      if (note === undefined) return text(`There is no note #${id} in the jar (it may already have been forgotten).`, true);
      const asked = ctx.state.read<ForgetState>(call)?.asked === id;
      const answer = elicitOutcome(call, 'confirm');
      if (asked && (answer.kind === 'decline' || answer.kind === 'cancel')) {
        return text(`Kept ${describe(note)}: you chose to ${answer.kind}.`);
      }
      if (asked && answer.kind === 'accept') {
        if (answer.content.confirm !== true) return text(`Kept ${describe(note)}: not confirmed.`);
        const gone = await store.forget(id);
        return gone ? text(`Forgot note #${id}.`) : text(`Note #${id} was already gone.`);
      }
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: `Forget note #${id} "${note.text}" now?`,
            requestedSchema: {
              type: 'object',
              properties: { confirm: { type: 'boolean', title: 'Forget it', default: false } },
              required: ['confirm'],
            },
          }),
        },
        requestState: await ctx.state.mint<ForgetState>({ asked: id }, call),
      });
    },
  );

  server.registerResource(
    'notes',
    JAR_URI,
    {
      title: "The jar's contents",
      description: `The oldest ${MAX_PAGE} notes still remembered (list_notes pages through the rest)`,
      mimeType: 'application/json',
      cacheHint: { ttlMs: 0, cacheScope: 'private' },
    },
    async (uri) => {
      const { notes, next } = await store.page(0, MAX_PAGE);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ notes, more: next !== undefined }, null, 2) }] };
    },
  );

  server.registerPrompt(
    'recall',
    {
      title: 'Recall',
      description: 'Asks the model to recall what the jar remembers, optionally about one topic.',
      argsSchema: RecallSchema,
    },
    async ({ topic }) => {
      // A prompt goes to a model whole: a page, not the jar, however full it is.
      const { notes, next } = await store.page(0, PAGE);
      const listing =
        notes.length === 0
          ? '(the jar is empty)'
          : notes.map((n) => `- ${n.text} (until ${n.expiresAt})`).join('\n') + (next !== undefined ? `\n(only the oldest ${PAGE} notes)` : '');
      return {
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: `${topic ? `What do these notes say about ${topic}?` : 'Remind me what these notes say.'}\n${listing}`,
            },
          },
        ],
      };
    },
  );
}

export interface CookieJarOptions {
  /** Where the notes live (memory by default; SQLite and PostgreSQL stores are in `@byhand/servers/node`). The toolbox closes it. */
  jar?: JarStorage;
  now?: () => number;
  /** Gets the detail of a storage failure a client was told of only by its id; the console by default. */
  onStorageFailure?: StorageFailureReport;
}

const logStorageFailure: StorageFailureReport = (id, error) => console.error(`The Cookie Jar: storage failure ${id}: ${error.message}`);

export function cookieJarSpec(options: CookieJarOptions = {}): ToolboxSpec {
  const store = guardedStorage(options.jar ?? memoryStore(options.now !== undefined ? { now: options.now } : {}), options.onStorageFailure ?? logStorageFailure);
  return {
    instructions: 'A jar of short notes. Each note forgets itself after its TTL; forget_note forgets one early, after you confirm.',
    register: (server, ctx) => registerJar(server, ctx, store),
    ready: () => store.ready(),
    dispose: () => store.close(),
  };
}
