// `byhand doctor`: what byhand would use here and why: the sampling provider and model (from the
// environment, by selectProvider's rules), the config files it looks for and which it would read,
// whether this folder's own config is trusted, and where logins are kept. It starts nothing and sends nothing.

import { existsSync } from 'node:fs';
import { credentialsFile } from '@byhand/client/auth/file-store';
import { ProviderConfigError, selectProvider } from '@byhand/host';
import { discoverConfigs, isProjectFile, type ConfigFile } from '../shared/discover.js';
import { secretsOf } from '../shared/secret-values.js';
import { readProject, storedTrust, TrustStoreError } from '../shared/trust.js';
import { runCommand } from '../shared/command.js';
import { processIO, type CommandIO } from '../shared/io.js';
import { booleanFlag } from '../shared/kit.js';
import { UsageError } from '../shared/usage-error.js';
import { SPEC } from './spec.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface Provider {
  name: string;
  endpoint?: string;
  model: string;
  why: string;
  error?: string;
}

/** The provider selectProvider picks, and the rule that picked it, in words. */
export function explainProvider(env: Env): Provider {
  const choice = env.BYHAND_PROVIDER?.trim().toLowerCase();
  const why = choice
    ? `BYHAND_PROVIDER=${env.BYHAND_PROVIDER}`
    : env.BYHAND_OPENAI_BASE_URL
      ? 'BYHAND_OPENAI_BASE_URL is set (it wins over ANTHROPIC_API_KEY, which is often just present in the shell)'
      : env.ANTHROPIC_API_KEY
        ? 'ANTHROPIC_API_KEY is set and BYHAND_OPENAI_BASE_URL is not'
        : 'no BYHAND_PROVIDER, BYHAND_OPENAI_BASE_URL or ANTHROPIC_API_KEY is set';
  try {
    const provider = selectProvider(env);
    const model =
      provider.name === 'offline'
        ? 'none: the offline provider is not a model'
        : provider.name === 'anthropic'
          ? (env.BYHAND_ANTHROPIC_MODEL ? `${env.BYHAND_ANTHROPIC_MODEL} (BYHAND_ANTHROPIC_MODEL)` : 'claude-haiku-5-5 (the default; BYHAND_ANTHROPIC_MODEL changes it), unless a server hint names another')
          : env.BYHAND_OPENAI_MODEL ? `${env.BYHAND_OPENAI_MODEL} (BYHAND_OPENAI_MODEL)` : 'the first model the server lists at /v1/models (BYHAND_OPENAI_MODEL names one)';
    return { name: provider.name, ...(provider.endpoint ? { endpoint: provider.endpoint } : {}), model, why };
  } catch (error) {
    if (!(error instanceof ProviderConfigError)) throw error;
    return { name: 'none', model: 'none', why, error: error.message };
  }
}

export async function doctorCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runCommand(SPEC, args, io, async ({ parsed, failure }) => {
    const json = (failure.json = booleanFlag(parsed.values, 'json'));
    if (parsed.positionals.length > 0) throw new UsageError(`byhand doctor takes no arguments (got ${parsed.positionals.join(' ')})`, true);
    const provider = explainProvider(io.env);
    // Only what was answered before: doctor asks nothing and runs nothing.
    const project = readProject(io.cwd);
    let storeRefused: string | undefined;
    const trust = project === undefined ? undefined : (() => {
      try {
        return storedTrust(project, io.env) ?? 'not asked yet';
      } catch (error) {
        if (!(error instanceof TrustStoreError)) throw error;
        storeRefused = error.message;
        return 'not asked yet';
      }
    })();
    const trusted = trust === true;
    const found = discoverConfigs(io.cwd, io.env, {}, trusted, secretsOf(io));
    // By file, not path: ~/.claude.json is read twice, for the folder's local scope and for the user scope.
    const read = new Set(found.read.map((r) => r.file));
    const trustWord = trust === true ? 'trusted' : trust === false ? 'not trusted: you said no' : storeRefused !== undefined ? 'not trusted: the answers kept are refused' : 'not trusted: not asked yet';
    const trustOf = (f: ConfigFile) => (isProjectFile(f) && existsSync(f.path) ? trustWord : undefined);
    const brokenOf = (f: ConfigFile) => found.broken.find((b) => b.file === f)?.error;
    // A broken config is the user's to fix, as it is for every command that reads it.
    const exitCode = found.broken.length > 0 ? 2 : provider.error ? 1 : 0;
    const credentials = credentialsFile(io.env);
    if (json) {
      io.stdout.write(`${JSON.stringify({
        provider,
        configs: found.looked.map((f) => ({ path: f.path, host: f.host, ...(f.project !== undefined ? { project: f.project } : {}), exists: existsSync(f.path), read: read.has(f), servers: found.read.find((r) => r.file === f)?.count ?? 0, trust: trustOf(f) ?? null, error: brokenOf(f) ?? null })),
        servers: found.entries.map((e) => ({ name: e.name, file: e.file, ...(e.scope !== undefined ? { scope: e.scope } : {}), target: e.target, disabled: e.disabled ?? false, error: e.error ?? null })),
        notices: [...(storeRefused !== undefined ? [storeRefused] : []), ...found.notices],
        credentials: { path: credentials, exists: existsSync(credentials) },
      })}\n`);
      return exitCode;
    }
    const lines = [
      `sampling provider: ${provider.name}${provider.endpoint ? ` (${provider.endpoint})` : ''}`,
      `  why: ${provider.why}`,
      ...(provider.error ? [`  ✗ ${provider.error}`] : [`  model: ${provider.model}`]),
      '',
      `configs (${found.read.length > 0 ? `${found.entries.length} server(s) from ${found.read.length} file(s)` : 'none found: the bundled toolboxes are used'}):`,
      ...found.looked.map((f) => `  ${read.has(f) ? '✓ read ' : brokenOf(f) !== undefined ? '✗ bad  ' : existsSync(f.path) ? (f.project !== undefined ? '  none ' : '✗ skip ') : '  none '} ${f.path}  ${f.host}${f.project !== undefined ? `: projects[${JSON.stringify(f.project)}]` : ''}${trustOf(f) ? ` (${trustOf(f)})` : ''}`),
      ...found.broken.map((b) => `  ✗ ${b.error}: fix the file, or every command that reads it stops here`),
      ...(trust !== undefined && !trusted ? ['  note: the folder\'s own config runs once you trust it: `byhand trust` (or --trust for one command)'] : []),
      ...(storeRefused !== undefined ? [`  note: ${storeRefused}`] : []),
      ...found.notices.map((n) => `  note: ${n}`),
      ...found.entries.map((e) => `  ${e.disabled ? '-' : e.error ? '✗' : '✓'} ${e.name}: ${e.disabled ? 'disabled' : e.error ?? e.target}${e.scope !== undefined ? ` (${e.scope})` : ''}`),
      '',
      `logins: ${credentials}${existsSync(credentials) ? '' : ' (none yet)'}`,
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
    return exitCode;
  });
}
