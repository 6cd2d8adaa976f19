// Whether this command may run the configs of the folder it runs in: --trust, else what the user
// answered before for the folder as it is now, else one y/N question at a terminal listing what would
// run and be contacted. Without a terminal nothing is asked and one line says how to trust it.

import { relative } from 'node:path';
import { printable } from '@byhand/host';
import { ConfigError, entryShape, inputsIn, isObject, rawServers, variablesIn, type EntryShape } from './config.js';
import { askLine } from './inputs.js';
import type { CommandIO } from './io.js';
import { JsoncError, parseJsonc } from './jsonc.js';
import { notice, shellQuote } from './output.js';
import { readProject, rememberTrust, storedTrust, TrustStoreError, type ProjectConfig } from './trust.js';

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
  const stored = storedTrustOrSay(project, io);
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
  try {
    rememberTrust(project, trusted, io.env);
  } catch (error) {
    if (!(error instanceof TrustStoreError)) throw error;
    notice(io, `your answer holds for this command only: ${error.message}`);
  }
  if (!trusted) notice(io, skippedLine(project, 'you did not trust it'));
  return trusted;
}

/** The answer kept for the folder; none, said why, when the store is where others could have written it. */
function storedTrustOrSay(project: ProjectConfig, io: Pick<CommandIO, 'env' | 'stderr'>): boolean | undefined {
  try {
    return storedTrust(project, io.env);
  } catch (error) {
    if (!(error instanceof TrustStoreError)) throw error;
    notice(io, error.message);
    return undefined;
  }
}

function skippedLine(project: ProjectConfig, why: string): string {
  const files = project.files.map((f) => relative(project.folder, f.file.path)).join(', ');
  return `skipped the MCP servers of this folder's ${files} (${why}): --trust runs them for this command, \`byhand trust\` trusts the folder`;
}

/**
 * The question's body: for each entry, exactly what trusting the folder lets it do, as its file writes it (nothing
 * expanded, nothing hidden: a literal is what runs): the command line as it is spawned with the environment and folder
 * it is given, or the URL with the headers it is sent; then the environment variables and inputs they read. An entry
 * whose fields disagree is shown as refused, as loading it refuses it.
 */
export function whatItRuns(project: ProjectConfig): string[] {
  const lines = [`byhand: ${project.folder} has MCP servers of its own, which run only if you trust the folder:`];
  const variables = new Set<string>();
  const inputs = new Set<string>();
  for (const { file, text } of project.files) {
    const name = relative(project.folder, file.path);
    lines.push(`  ${name}`);
    let json: unknown;
    try {
      json = parseJsonc(text);
    } catch (error) {
      if (!(error instanceof JsoncError)) throw error;
      lines.push(`    not valid JSON at ${error.line}:${error.column} (${error.why}): nothing in it runs, and once trusted every command stops at it`);
      continue;
    }
    const servers = rawServers(json);
    if (servers.length === 0) lines.push('    (no servers byhand can read)');
    for (const [server, value] of servers) {
      if (!isObject(value)) {
        lines.push(`    ${shown(server)}: refused: not an object with "command" or "url"`);
        continue;
      }
      if (value.disabled === true) {
        lines.push(`    ${shown(server)}: "disabled": true, so it runs nothing`);
        continue;
      }
      let shape: EntryShape;
      try {
        shape = entryShape(value, server);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        lines.push(`    refused, so it runs nothing: ${shown(error.message)}`);
        continue;
      }
      lines.push(...entryLines(server, shape));
      const read = shape.kind === 'stdio' ? [shape.command, ...shape.args, ...Object.values(shape.env), shape.cwd ?? ''] : [shape.url, ...Object.values(shape.headers)];
      for (const variable of variablesIn(read.join('\n'))) variables.add(variable);
      for (const input of inputsIn(read.join('\n'))) inputs.add(input);
    }
  }
  lines.push(`  environment variables they read: ${variables.size > 0 ? [...variables].join(', ') : 'none'}`);
  if (inputs.size > 0) lines.push(`  values they ask you for: ${[...inputs].map((id) => `\${input:${id}}`).join(', ')}`);
  return lines;
}

function entryLines(server: string, shape: EntryShape): string[] {
  if (shape.kind === 'http') {
    return [
      `    ${shown(server)}: contacts ${shown(shape.url)}${shape.sse ? ' (HTTP+SSE)' : ''}`,
      ...Object.entries(shape.headers).map(([name, value]) => `      header ${shown(name)}: ${shown(value)}`),
    ];
  }
  return [
    `    ${shown(server)}: runs ${[shape.command, ...shape.args].map((word) => shellQuote(shown(word))).join(' ')}`,
    ...Object.entries(shape.env).map(([name, value]) => `      with ${shown(name)}=${shellQuote(shown(value))}`),
    ...(shape.cwd !== undefined ? [`      in the folder ${shellQuote(shown(shape.cwd))}`] : []),
  ];
}

/** One line stays one line: a line break or tab in a value is shown escaped, so a value cannot draw lines of its own. */
function shown(text: string): string {
  return text.replace(/[\n\r\t]/g, (c) => JSON.stringify(c).slice(1, -1));
}
