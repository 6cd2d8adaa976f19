// Whether this command may run the configs of the folder it runs in: --trust, else what the user
// answered before for the folder as it is now, else one y/N question at a terminal listing what would
// run and be contacted. Without a terminal nothing is asked and one line says how to trust it.

import { relative } from 'node:path';
import { printable } from '@byhand/host';
import { rawServers, variablesIn } from './config.js';
import { askLine } from './inputs.js';
import type { CommandIO } from './io.js';
import { notice } from './output.js';
import { redactWords } from './redact-words.js';
import { readProject, rememberTrust, storedTrust, type ProjectConfig } from './trust.js';

/** True when the command's folder has no config of its own, or the user trusts it. */
export function trustProject(once: boolean, io: Pick<CommandIO, 'env' | 'stdin' | 'stderr' | 'cwd' | 'memory' | 'interrupt'>): Promise<boolean> {
  const project = readProject(io.cwd);
  if (project === undefined) return Promise.resolve(true);
  let decision = io.memory.trust.get(project.folder);
  if (decision === undefined) {
    decision = decide(project, once, io);
    io.memory.trust.set(project.folder, decision);
  }
  return decision;
}

async function decide(project: ProjectConfig, once: boolean, io: Pick<CommandIO, 'env' | 'stdin' | 'stderr' | 'interrupt'>): Promise<boolean> {
  if (once) return true;
  const stored = storedTrust(project, io.env);
  if (stored !== undefined) {
    if (!stored) notice(io, skippedLine(project, 'you did not trust it'));
    return stored;
  }
  if (io.stdin.isTTY !== true) {
    notice(io, skippedLine(project, 'not trusted yet, and there is no terminal to ask at'));
    return false;
  }
  io.stderr.write(`${whatItRuns(project).map((line) => printable(line)).join('\n')}\n`);
  const answer = await askLine('Trust this folder and run them? [y/N] ', false, io);
  if (answer === null) return false;
  const trusted = /^y(es)?$/i.test(answer.trim());
  rememberTrust(project, trusted, io.env);
  if (!trusted) notice(io, skippedLine(project, 'you did not trust it'));
  return trusted;
}

function skippedLine(project: ProjectConfig, why: string): string {
  const files = project.files.map((f) => relative(project.folder, f.file.path)).join(', ');
  return `skipped the MCP servers of this folder's ${files} (${why}): --trust runs them for this command, \`byhand trust\` trusts the folder`;
}

/** The question's body: each command line and URL, redacted, and the environment variables they read. */
export function whatItRuns(project: ProjectConfig): string[] {
  const lines = [`byhand: ${project.folder} has MCP servers of its own, which run only if you trust the folder:`];
  const variables = new Set<string>();
  for (const { file, text } of project.files) {
    lines.push(`  ${relative(project.folder, file.path)}`);
    const servers = rawServers(text);
    if (servers.length === 0) lines.push('    (no servers byhand can read)');
    for (const [name, value] of servers) {
      lines.push(`    ${name}: ${redactWords(targetOf(value))}`);
      for (const variable of variablesIn(JSON.stringify(value))) variables.add(variable);
    }
  }
  lines.push(`  environment variables they read: ${variables.size > 0 ? [...variables].join(', ') : 'none'}`);
  return lines;
}

/** The URL or the command line, as written. */
function targetOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '?';
  const entry = value as Record<string, unknown>;
  const url = entry.url ?? entry.serverUrl;
  if (typeof url === 'string') return url;
  if (typeof entry.command !== 'string') return '?';
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  return [entry.command, ...args].join(' ');
}
