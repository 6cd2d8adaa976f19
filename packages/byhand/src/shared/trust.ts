// Which project folders the user trusts to run their MCP config. A config in the folder byhand runs
// in came with the folder (a clone, a download): it starts nothing and contacts nothing until the
// user says so. The answer is kept in byhand's config folder, keyed by the folder's real path and a
// sha256 of its config files, so a changed file is asked about again. The rule: docs/wire.md, "Trust".

import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { configDir, notOwnAlone } from '@byhand/client/auth/file-store';
import { projectFiles, type ConfigFile } from './discover.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface ProjectConfig {
  /** The folder's real path: the key, so a symlink or `..` reaches the same answer. */
  folder: string;
  files: { file: ConfigFile; text: string }[];
  /** Over every project file's name and content: any change asks again. */
  sha256: string;
}

export interface TrustRecord {
  folder: string;
  sha256: string;
  trusted: boolean;
  /** The files it covered, relative to the folder. */
  files: string[];
  at: string;
}

/** The folder's project configs, or undefined when it has none. */
export function readProject(cwd: string): ProjectConfig | undefined {
  const folder = realpathSync(cwd);
  const files = projectFiles(folder)
    .filter((file) => existsSync(file.path) && statSync(file.path).isFile())
    .map((file) => ({ file, text: readable(file.path) }));
  if (files.length === 0) return undefined;
  const hash = createHash('sha256');
  for (const { file, text } of files) hash.update(`${relative(folder, file.path)}\0${text}\0`);
  return { folder, files, sha256: hash.digest('hex') };
}

/** An unreadable file runs nothing (discovery reports it), so it counts as empty here. */
function readable(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

export function trustFile(env: Env): string {
  return join(configDir(env), 'trusted-folders.json');
}

/** The trusted folders kept where others could have written them: neither read nor written (the credentials' rule). */
export class TrustStoreError extends Error {
  constructor(file: string, why: string, fix: string) {
    super(`byhand neither reads nor keeps the trusted folders in ${file}: ${why}; ${fix}`);
    this.name = 'TrustStoreError';
  }
}

/** The store's folder and file, by the one rule the credentials follow (client auth/file-store.ts notOwnAlone). */
function checkStore(file: string): void {
  for (const path of [dirname(file), file]) {
    if (!existsSync(path)) continue;
    const refused = notOwnAlone(path);
    if (refused !== undefined) throw new TrustStoreError(file, refused.why, refused.fix);
  }
}

/** What was answered for this folder as it is now: a record for other content does not count. */
export function storedTrust(project: ProjectConfig, env: Env): boolean | undefined {
  const record = readRecords(env).find((r) => r.folder === project.folder);
  return record !== undefined && record.sha256 === project.sha256 ? record.trusted : undefined;
}

export function rememberTrust(project: ProjectConfig, trusted: boolean, env: Env): void {
  const record: TrustRecord = { folder: project.folder, sha256: project.sha256, trusted, files: project.files.map((f) => relative(project.folder, f.file.path)), at: new Date().toISOString() };
  writeRecords(env, [...readRecords(env).filter((r) => r.folder !== project.folder), record]);
}

/** Forgets the folder; false when nothing was kept for it. */
export function forgetTrust(folder: string, env: Env): boolean {
  const records = readRecords(env);
  const kept = records.filter((r) => r.folder !== folder);
  if (kept.length === records.length) return false;
  writeRecords(env, kept);
  return true;
}

/** Throws TrustStoreError where others could have written the store. */
export function readRecords(env: Env): TrustRecord[] {
  const file = trustFile(env);
  checkStore(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  // A file that is not ours to read trusts nothing.
  try {
    const json = JSON.parse(text) as { folders?: unknown };
    return Array.isArray(json.folders) ? (json.folders as unknown[]).filter(isRecord) : [];
  } catch {
    return [];
  }
}

/** Written whole to a fresh file and renamed, so a crash never leaves half a list. */
function writeRecords(env: Env, records: TrustRecord[]): void {
  const file = trustFile(env);
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  checkStore(file);
  const temporary = join(dir, `.${basename(file)}.${randomBytes(12).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, `${JSON.stringify({ folders: records }, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

function isRecord(value: unknown): value is TrustRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return typeof r.folder === 'string' && typeof r.sha256 === 'string' && typeof r.trusted === 'boolean' && Array.isArray(r.files) && typeof r.at === 'string';
}
