// Where hosts keep their MCP configs, so `byhand checkpoint` and `byhand call NAME` work on the
// servers a person already has. The project's files first (the folder byhand runs in), then the
// user's, on the Linux, macOS and Windows paths alike: the file that exists decides, so one test
// HOME can hold them all. Paths: each client's own documentation.

import { existsSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, ConfigSyntaxError, loadConfig, type ConfigOptions, type ServerEntry } from './config.js';
import { embeddedNames } from './embedded.js';
import { UsageError } from './usage-error.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface ConfigFile {
  path: string;
  /** Which host writes it: "Claude Code (project)", "VS Code (user)". */
  host: string;
  /** Claude Code's local scope: the folder whose entry under `projects` is read, not the file's top level. */
  project?: string;
}

/** The configs that come with a folder: they run only once the folder is trusted (trust.ts). */
export function projectFiles(cwd: string): ConfigFile[] {
  return [
    { path: join(cwd, '.mcp.json'), host: 'Claude Code (project)' },
    { path: join(cwd, '.vscode', 'mcp.json'), host: 'VS Code (workspace)' },
    { path: join(cwd, '.cursor', 'mcp.json'), host: 'Cursor (project)' },
  ];
}

export function isProjectFile(file: ConfigFile): boolean {
  return file.host.endsWith('(workspace)') || file.host.endsWith('(project)');
}

export function candidateFiles(cwd: string, env: Env): ConfigFile[] {
  const project = projectFiles(cwd);
  const home = env.HOME ?? env.USERPROFILE;
  if (!home) return project;
  const xdg = env.XDG_CONFIG_HOME ?? join(home, '.config');
  const mac = join(home, 'Library', 'Application Support');
  const appData = env.APPDATA;
  const perOs = (host: string, ...tail: string[]): ConfigFile[] =>
    [xdg, mac, ...(appData ? [appData] : [])].map((base) => ({ path: join(base, ...tail), host }));
  const claude = join(home, '.claude.json');
  return [
    // `claude mcp add` writes here by default, keyed by the folder's real path; it outranks the project's .mcp.json.
    { path: claude, host: 'Claude Code (local)', project: realFolder(cwd) },
    ...project,
    ...perOs('Claude Desktop', 'Claude', 'claude_desktop_config.json'),
    { path: claude, host: 'Claude Code (user)' },
    { path: join(home, '.cursor', 'mcp.json'), host: 'Cursor (user)' },
    { path: join(home, '.codeium', 'windsurf', 'mcp_config.json'), host: 'Windsurf' },
    ...perOs('VS Code (user)', 'Code', 'User', 'mcp.json'),
  ];
}

export interface Discovered {
  /** Every usable entry, the first of each name kept. */
  entries: ServerEntry[];
  /** The files read, in order, with how many servers each gave. */
  read: { file: ConfigFile; count: number }[];
  /** What a person should know: unreadable files, shadowed names. */
  notices: string[];
  /** The notices about one name (shadowed entries, a bundled toolbox shadowed), for a command that uses only it. */
  about: Map<string, string[]>;
  /** Project files left unread because the folder is not trusted. */
  untrusted: ConfigFile[];
  /** Files that are not JSONC, each with where it stops being so (`FILE:LINE:COLUMN: …`). */
  broken: { file: ConfigFile; error: string }[];
  /** Every path looked at, for doctor. */
  looked: ConfigFile[];
}

/**
 * `projectTrusted`: whether the folder's own configs may run. When not, they are not even expanded
 * (a `${VAR}` in them reads nothing), so they can neither run nor shadow a user entry or a bundled name.
 */
export function discoverConfigs(cwd: string, env: Env, inputs: Readonly<Record<string, string>>, projectTrusted: boolean, onSecret?: ConfigOptions['onSecret']): Discovered {
  const looked = candidateFiles(cwd, env);
  const found: Discovered = { entries: [], read: [], notices: [], about: new Map(), untrusted: [], broken: [], looked };
  const seen = new Map<string, string>();
  for (const file of looked) {
    if (!existsSync(file.path) || !statSync(file.path).isFile()) continue;
    const project = isProjectFile(file);
    if (project && !projectTrusted) {
      found.untrusted.push(file);
      continue;
    }
    let entries: ServerEntry[];
    try {
      // Claude Code's local scope belongs to the folder as the user's own config does: ~/.claude.json is theirs.
      entries = loadConfig(file.path, env, { inputs, ...(onSecret !== undefined ? { onSecret } : {}), ...(project || file.project !== undefined ? { workspaceFolder: cwd } : {}), ...(file.project !== undefined ? { project: file.project } : {}) });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      if (error instanceof ConfigSyntaxError) {
        found.broken.push({ file, error: error.message });
        continue;
      }
      // ~/.claude.json is Claude Code's whole state; most of them hold no user-scope servers.
      if (file.host === 'Claude Code (user)' && /no "mcpServers"/.test(error.message)) continue;
      found.notices.push(`skipped ${error.message}`);
      continue;
    }
    // A folder with no local-scope servers was not read for any.
    if (file.project !== undefined && entries.length === 0) continue;
    let kept = 0;
    for (const entry of entries) {
      const first = seen.get(entry.name);
      if (first !== undefined) {
        const shadowed = `${entry.name} in ${file.path} is shadowed by the one in ${first}`;
        found.notices.push(shadowed);
        found.about.set(entry.name, [...(found.about.get(entry.name) ?? []), shadowed]);
        continue;
      }
      seen.set(entry.name, file.path);
      found.entries.push(entry);
      if (embeddedNames().includes(entry.name)) {
        const shadows = `${entry.name} in ${file.path} shadows the bundled toolbox ${entry.name} (--embedded reaches the toolbox)`;
        found.notices.push(shadows);
        found.about.set(entry.name, [...(found.about.get(entry.name) ?? []), shadows]);
      }
      kept++;
    }
    found.read.push({ file, count: kept });
  }
  return found;
}

function realFolder(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

/**
 * A broken file stops the command (exit 2): skipped, it would read as "no config found", and a name it defines
 * would quietly reach a bundled toolbox or another file's entry instead.
 */
export function refuseBroken(found: Pick<Discovered, 'broken'>): void {
  const first = found.broken[0];
  if (first === undefined) return;
  throw new UsageError(`${first.error}: fix the file (${first.file.host}), or name another with --config FILE (--embedded uses the bundled toolboxes)`);
}
