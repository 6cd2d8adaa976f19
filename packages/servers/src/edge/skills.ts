// A SkillSource (SEP-2640, io.modelcontextprotocol/skills) over skills held in memory, for the SDK's SkillsExtension
// (node_modules/@modelcontextprotocol/server/dist/ext/skills, `SkillsExtension.attach` registers skills/list,
// skills/get, resources/directory/read and the skill:// resource template). The SDK's own SkillCatalog needs an
// awaited `load()` before the first server is built; a toolbox builds its servers synchronously (one per modern
// request), so this source computes its entries on first use instead. Digests are the SDK's `skillEntry`, which hashes
// with Web Crypto: nothing here imports from node:.

import { ProtocolError, ProtocolErrorCode, type Resource } from '@modelcontextprotocol/server';
import { DIRECTORY_MIME_TYPE, skillEntry, type Skill, type SkillReadResult, type SkillSource } from '@modelcontextprotocol/server/ext/skills';

/** Skills by skill path (`pdf-processing`, `acme/billing/refunds`), each a record of its files by relative path. */
export type SkillFilesByPath = Readonly<Record<string, Readonly<Record<string, string>>>>;

const BASE = 'skill://';

/** The mimeType a skill file is served with, from its extension (the SEP asks text/markdown for SKILL.md). */
function mimeTypeOf(path: string): string {
  if (path.endsWith('.md')) return 'text/markdown';
  if (path.endsWith('.py')) return 'text/x-python';
  if (path.endsWith('.json')) return 'application/json';
  return 'text/plain';
}

interface Index {
  /** Entries in listing order. */
  skills: Skill[];
  byUri: Map<string, Skill>;
  files: Map<string, string>;
  /** Directory URI (no trailing slash) -> its direct children. */
  directories: Map<string, Map<string, Resource>>;
}

async function buildIndex(skills: SkillFilesByPath): Promise<Index> {
  const index: Index = { skills: [], byUri: new Map(), files: new Map(), directories: new Map() };
  for (const [skillPath, files] of Object.entries(skills)) {
    const entry = await skillEntry(skillPath, files);
    index.skills.push(entry);
    index.byUri.set(entry.uri, entry);
    for (const [path, text] of Object.entries(files)) {
      const uri = `${BASE}${skillPath}/${path}`;
      index.files.set(uri, text);
      // Every directory level from the skill root down to the file's own folder is a directory resource.
      const segments = path.split('/');
      let dir = `${BASE}${skillPath}`;
      for (const [depth, name] of segments.entries()) {
        const children = index.directories.get(dir) ?? new Map<string, Resource>();
        index.directories.set(dir, children);
        const child = `${dir}/${name}`;
        const last = depth === segments.length - 1;
        children.set(child, { uri: child, name, mimeType: last ? mimeTypeOf(name) : DIRECTORY_MIME_TYPE });
        dir = child;
      }
    }
  }
  return index;
}

/** Entries per skills/list page: small, so a listing of two skills already exercises the cursor. */
const PAGE_SIZE = 1;

function pageStart(cursor: string | undefined, total: number): number {
  if (cursor === undefined) return 0;
  const start = /^\d+$/.test(cursor) ? Number(cursor) : NaN;
  if (!(start > 0 && start < total)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown skills/list cursor ${JSON.stringify(cursor)}`);
  return start;
}

/** A SkillSource over `skills`; the SKILL.md files appear in resources/list with name and description from their frontmatter. */
export function memorySkillSource(skills: SkillFilesByPath): SkillSource {
  let built: Promise<Index> | undefined;
  const index = () => (built ??= buildIndex(skills));
  return {
    async list({ cursor }) {
      const { skills: all } = await index();
      const start = pageStart(cursor, all.length);
      const next = start + PAGE_SIZE;
      return { skills: all.slice(start, next), ...(next < all.length ? { nextCursor: String(next) } : {}) };
    },
    async get(uri) {
      return (await index()).byUri.get(uri);
    },
    async read(uri): Promise<SkillReadResult | undefined> {
      const text = (await index()).files.get(uri);
      return text === undefined ? undefined : { text, mimeType: mimeTypeOf(uri) };
    },
    async readDirectory(uri) {
      const children = (await index()).directories.get(uri);
      return children === undefined ? undefined : { resources: [...children.values()] };
    },
    async listResources() {
      return (await index()).skills.map((skill) => ({
        uri: skill.uri,
        name: skill.frontmatter.name,
        description: skill.frontmatter.description,
        mimeType: 'text/markdown',
      }));
    },
  };
}
