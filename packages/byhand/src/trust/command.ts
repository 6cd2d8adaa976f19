// `byhand trust [DIR]`, `--revoke [DIR]`, `--list`: the folders whose own MCP config byhand may run
// (shared/trust.ts keeps them). Trusting shows what will run first, as the question at a terminal does.

import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { printable } from '@byhand/host';
import { runCommand } from '../shared/command.js';
import { processIO, type CommandIO } from '../shared/io.js';
import { booleanFlag } from '../shared/kit.js';
import { notice } from '../shared/output.js';
import { whatItRuns } from '../shared/project-trust.js';
import { forgetTrust, readProject, readRecords, rememberTrust, trustFile } from '../shared/trust.js';
import { UsageError } from '../shared/usage-error.js';
import { SPEC } from './spec.js';

export async function trustCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runCommand(SPEC, args, io, async ({ parsed }) => {
    const revoke = booleanFlag(parsed.values, 'revoke');
    const list = booleanFlag(parsed.values, 'list');
    if (parsed.positionals.length > 1 || parsed.rest !== undefined) throw new UsageError('byhand trust takes at most one folder', true);
    if (revoke && list) throw new UsageError('--revoke and --list exclude each other', true);
    const given = parsed.positionals[0] ?? '.';
    const dir = resolve(io.cwd, given);
    if (list) {
      if (parsed.positionals.length > 0) throw new UsageError('--list takes no folder: it lists them all', true);
      return listTrusted(io);
    }
    if (revoke) {
      const folder = existsSync(dir) ? realpathSync(dir) : dir;
      if (!forgetTrust(folder, io.env)) throw new UsageError(`nothing was answered for ${folder}: \`byhand trust --list\` shows the folders that were`);
      notice(io, `forgot ${folder}: its config is asked about again`);
      return 0;
    }
    if (!existsSync(dir)) throw new UsageError(`no folder ${given}`);
    const project = readProject(dir);
    if (project === undefined) throw new UsageError(`${realpathSync(dir)} has no MCP config of its own (.mcp.json, .vscode/mcp.json or .cursor/mcp.json) to trust`);
    io.stderr.write(`${whatItRuns(project).map((line) => printable(line)).join('\n')}\n`);
    rememberTrust(project, true, io.env);
    notice(io, `trusted ${project.folder} as it is now (kept in ${trustFile(io.env)})`);
    return 0;
  });
}

function listTrusted(io: CommandIO): number {
  const records = readRecords(io.env);
  if (records.length === 0) notice(io, 'no folder trusted or refused yet');
  for (const record of records) {
    const now = existsSync(record.folder) ? readProject(record.folder) : undefined;
    const state = now?.sha256 === record.sha256 ? '' : now === undefined ? ' (its config is gone)' : ' (changed since: asked again)';
    io.stdout.write(`${printable(`${record.trusted ? 'trusted' : 'refused'}  ${record.folder}  ${record.files.join(', ')}  ${record.at}${state}`)}\n`);
  }
  return 0;
}
