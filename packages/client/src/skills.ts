// The skills extension (`io.modelcontextprotocol/skills`, SEP-2640), client side: list a server's skills, get one by
// URI, and load a skill's files only when asked, each verified against the skill's entry before anything uses it.
// Rules from the extension's specification (modelcontextprotocol/ext-skills, specification/stable/skills.mdx:
// "Integrity and Verification", "Limits", "Listing Skills"): a file's byte length must equal the entry's `size` and
// its SHA-256 the entry's `digest`; a SKILL.md's frontmatter must equal the entry's field by field; only files the
// entry lists may be read; nothing is fetched on connect or on listing. The SEP defines no client capability, so
// the client declares nothing. A separate entry point (`@byhand/client/skills`), so `connect` does not carry it.

import type { Client } from './client.js';
import { McpError, ProtocolError } from './errors.js';
import { FrontmatterError, frontmatterBlock, parseFrontmatter } from './frontmatter.js';
import type { JsonObject } from './types.js';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** What the skills functions need of a client (a connected `Client` has it). */
export type SkillsClient = Pick<Client, 'request' | 'readResource' | 'serverCapabilities'>;

export interface SkillResource {
  uri: string;
  /** `sha256:` and 64 lowercase hex digits, over the file's raw bytes. */
  digest: string;
  /** The file's length in bytes. */
  size: number;
}

export interface SkillEntry {
  /** The skill's SKILL.md. */
  uri: string;
  frontmatter: { name: string; description: string; [field: string]: unknown };
  /** Every file of the skill, or "dynamic" when the server can publish no digests. */
  resources: SkillResource[] | 'dynamic';
}

/** The per-skill limits every host must accept (Limits); a larger skill is refused before any file is read. */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

export interface ListSkillsOptions {
  /** Pages of skills/list read at most (default 50): a server that keeps returning a cursor is stopped. */
  maxPages?: number;
  /** Entries kept at most (default 5000). */
  maxSkills?: number;
  signal?: AbortSignal;
}

export interface LoadOptions {
  /** Load a skill whose entry says "dynamic" (no digests, so only its frontmatter can be checked). Default false. */
  allowDynamic?: boolean;
  signal?: AbortSignal;
}

/** Content the client refused because it is not what the skill's entry promised. */
export class SkillVerificationError extends McpError {
  readonly uri: string;
  constructor(uri: string, what: string) {
    super(
      'protocol',
      `refused ${uri}: ${what}`,
      'the content is not what the skill listing promised (changed since it was listed, or rewritten on the way); it was not used: list the skills again (or get this one) and load it afresh',
    );
    this.name = 'SkillVerificationError';
    this.uri = uri;
  }
}

/** True when the server declared the extension (capabilities.extensions). */
export function declaresSkills(client: Pick<SkillsClient, 'serverCapabilities'>): boolean {
  const extensions = client.serverCapabilities.extensions;
  return extensions !== null && typeof extensions === 'object' && Object.hasOwn(extensions, SKILLS_EXTENSION);
}

function requireDeclared(client: SkillsClient, method: string): void {
  if (!declaresSkills(client)) {
    throw new ProtocolError(`${method}: the server does not declare the ${SKILLS_EXTENSION} extension`, 'this server serves no skills through the extension; its skill:// resources, if any, are ordinary resources');
  }
}

/** Every skills/list page, up to the bounds. Reads no skill file. */
export async function listSkills(client: SkillsClient, options: ListSkillsOptions = {}): Promise<SkillEntry[]> {
  requireDeclared(client, 'skills/list');
  const maxPages = options.maxPages ?? 50;
  const maxSkills = options.maxSkills ?? 5000;
  const skills: SkillEntry[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await client.request('skills/list', cursor === undefined ? {} : { cursor }, options.signal ? { signal: options.signal } : {});
    if (!Array.isArray(result.skills)) throw new ProtocolError('skills/list answered without a skills array', 'this is a server bug: the result is {skills: [...], nextCursor?}');
    for (const skill of result.skills as unknown[]) {
      if (skills.length >= maxSkills) throw new ProtocolError(`skills/list listed more than ${maxSkills} skills`, 'raise maxSkills if this server really serves that many');
      skills.push(entryFrom(skill, 'skills/list'));
    }
    const next = result.nextCursor;
    if (typeof next !== 'string' || next === '') return skills;
    if (seen.has(next)) throw new ProtocolError(`skills/list returned the cursor '${next}' twice`, 'the server paginates in a circle: this is a server bug');
    seen.add(next);
    cursor = next;
  }
  throw new ProtocolError(`skills/list had more than ${maxPages} pages`, 'the server keeps returning a nextCursor; raise maxPages if the catalog really is that large');
}

/** skills/get: the entry of the skill whose SKILL.md is at `uri`, listed or not. Reads no skill file. */
export async function getSkill(client: SkillsClient, uri: string, options: { signal?: AbortSignal } = {}): Promise<SkillEntry> {
  requireDeclared(client, 'skills/get');
  const result = await client.request('skills/get', { uri }, options.signal ? { signal: options.signal } : {});
  const entry = entryFrom(result.skill, 'skills/get');
  if (entry.uri !== uri) throw new ProtocolError(`skills/get ${uri} answered with the entry of ${entry.uri}`, 'this is a server bug: the entry must be the one asked for');
  return entry;
}

function entryFrom(value: unknown, method: string): SkillEntry {
  const bad = (why: string) => new ProtocolError(`${method} returned an invalid skill entry: ${why}`, 'this is a server bug: an entry is {uri, frontmatter: {name, description, ...}, resources: [{uri, digest, size}] or "dynamic"}');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bad('not an object');
  const entry = value as JsonObject;
  if (typeof entry.uri !== 'string') throw bad('no uri');
  const frontmatter = entry.frontmatter as JsonObject | undefined;
  if (frontmatter === null || typeof frontmatter !== 'object' || Array.isArray(frontmatter) || typeof frontmatter.name !== 'string' || typeof frontmatter.description !== 'string') {
    throw bad(`${entry.uri}: frontmatter without a name and a description`);
  }
  const resources = entry.resources;
  if (resources !== 'dynamic') {
    if (!Array.isArray(resources)) throw bad(`${entry.uri}: resources is neither an array nor "dynamic"`);
    for (const file of resources as JsonObject[]) {
      if (typeof file?.uri !== 'string' || typeof file.digest !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(file.digest) || !Number.isSafeInteger(file.size) || (file.size as number) < 0) {
        throw bad(`${entry.uri}: a resources entry is not {uri, digest: "sha256:<64 hex>", size}`);
      }
    }
  }
  return value as SkillEntry;
}

/** A skill whose SKILL.md was read and verified; its other files are read, and verified, only when asked for. */
export interface LoadedSkill {
  entry: SkillEntry;
  /** The SKILL.md, verified. */
  text: string;
  /** One of the skill's files by URI or by path relative to the skill's root (`references/GUIDE.md`), verified. */
  readFile(uriOrPath: string, options?: { signal?: AbortSignal }): Promise<string>;
}

/**
 * Loads a skill: reads its SKILL.md (now, not before), checks size, digest and frontmatter against the entry, and
 * throws SkillVerificationError rather than return anything that fails. The entry is held: later reads resolve only
 * to files it lists.
 */
export async function loadSkill(client: SkillsClient, entry: SkillEntry, options: LoadOptions = {}): Promise<LoadedSkill> {
  if (entry.resources === 'dynamic') {
    if (options.allowDynamic !== true) throw new SkillVerificationError(entry.uri, 'its entry publishes no digests ("dynamic"), so nothing it serves can be verified; pass allowDynamic to load it anyway');
  } else {
    const total = entry.resources.reduce((sum, file) => sum + file.size, 0);
    if (entry.resources.length > SKILL_LIMITS.files || total > SKILL_LIMITS.bytes) {
      throw new SkillVerificationError(entry.uri, `the skill has ${entry.resources.length} files and ${total} bytes, over the limits of ${SKILL_LIMITS.files} files and ${SKILL_LIMITS.bytes} bytes a host must accept`);
    }
  }
  const root = entry.uri.endsWith('/SKILL.md') ? entry.uri.slice(0, -'SKILL.md'.length) : undefined;
  const read = (uri: string, signal?: AbortSignal) => readVerified(client, entry, uri, signal);
  const text = await read(entry.uri, options.signal);
  compareFrontmatter(entry, text);
  return {
    entry,
    text,
    readFile(uriOrPath, readOptions = {}) {
      const uri = /^[a-z][a-z0-9+.-]*:/i.test(uriOrPath) || root === undefined ? uriOrPath : root + uriOrPath;
      return read(uri, readOptions.signal);
    },
  };
}

async function readVerified(client: SkillsClient, entry: SkillEntry, uri: string, signal?: AbortSignal): Promise<string> {
  const listed = entry.resources === 'dynamic' ? undefined : entry.resources.find((file) => file.uri === uri);
  if (entry.resources !== 'dynamic' && listed === undefined) throw new SkillVerificationError(uri, `the skill's entry does not list this file, so it is not part of the skill that was listed`);
  // A "dynamic" entry lists nothing, but a skill's files are still only its SKILL.md and what lies under its root.
  if (entry.resources === 'dynamic' && uri !== entry.uri && !uri.startsWith(entry.uri.slice(0, entry.uri.lastIndexOf('/') + 1))) {
    throw new SkillVerificationError(uri, `it is outside the directory of ${entry.uri}, so it is not a file of that skill`);
  }
  const result = await client.readResource(uri, signal ? { signal } : {});
  const content = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
  if (content === undefined || (typeof content.text !== 'string' && typeof content.blob !== 'string')) {
    throw new ProtocolError(`resources/read ${uri} answered without the file's text or blob`, 'this is a server bug: a skill file is read as any other resource');
  }
  const bytes = typeof content.text === 'string' ? new TextEncoder().encode(content.text) : fromBase64(content.blob as string);
  if (listed !== undefined) {
    if (bytes.byteLength !== listed.size) throw new SkillVerificationError(uri, `it is ${bytes.byteLength} bytes, and the skill's entry says ${listed.size}`);
    const digest = await sha256(bytes);
    if (digest !== listed.digest) throw new SkillVerificationError(uri, `its SHA-256 is ${digest}, and the skill's entry says ${listed.digest}`);
  }
  return typeof content.text === 'string' ? content.text : new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** Field by field: a SKILL.md whose frontmatter differs from the entry's is not the skill that was listed. */
function compareFrontmatter(entry: SkillEntry, text: string): void {
  const block = frontmatterBlock(text);
  if (block === undefined) throw new SkillVerificationError(entry.uri, 'the SKILL.md does not begin with a --- frontmatter block');
  let file: JsonObject;
  try {
    file = parseFrontmatter(block);
  } catch (error) {
    if (error instanceof FrontmatterError) throw new SkillVerificationError(entry.uri, `its frontmatter cannot be read (${error.message}), so it cannot be compared with the entry`);
    throw error;
  }
  const listed = entry.frontmatter as JsonObject;
  for (const field of new Set([...Object.keys(file), ...Object.keys(listed)])) {
    if (!sameJson(file[field], listed[field])) {
      throw new SkillVerificationError(entry.uri, `its frontmatter field "${field}" is ${JSON.stringify(file[field]) ?? 'absent'} in the file and ${JSON.stringify(listed[field]) ?? 'absent'} in the skill's entry`);
    }
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as JsonObject)[k], (b as JsonObject)[k]));
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
