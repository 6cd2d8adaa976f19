// The flags of every command that reaches a server, defined once: where the server comes from
// (config, discovery, the bundled toolboxes, an ad-hoc URL or command line) and how to talk to it.

import { toolboxNames } from '@byhand/servers/registry';
import { choiceFlag, booleanFlag, listFlag, msFlag, stringFlag, type Flag, type Values } from './kit.js';
import { UsageError } from './usage-error.js';

export const SOURCE_FLAGS: Record<string, Flag> = {
  config: { type: 'string', arg: 'FILE', help: 'servers from this mcpServers / VS Code mcp.json file (JSONC)', default: 'discovered: ./.mcp.json, ./.vscode/mcp.json, ./.cursor/mcp.json, then your Claude Desktop, Claude Code, Cursor, Windsurf and VS Code configs' },
  // A getter: help is read when shown, so a toolbox registered after this module loaded is named too.
  embedded: {
    type: 'boolean',
    get help() {
      return `use the bundled toolboxes (${toolboxNames()}), not a config`;
    },
  },
  trust: { type: 'boolean', help: "run this folder's own MCP config (.mcp.json, .vscode/mcp.json, .cursor/mcp.json) for this command, without remembering it (`byhand trust` remembers)" },
  input: { type: 'string', arg: 'ID=VALUE', multiple: true, help: "a value for a VS Code ${input:ID} (otherwise asked at the terminal)" },
  header: { type: 'string', arg: 'K:V', multiple: true, help: 'an HTTP header for the server' },
  env: { type: 'string', arg: 'K=V', multiple: true, help: 'an environment variable for a stdio server' },
  cwd: { type: 'string', arg: 'DIR', help: 'the working directory of a stdio server' },
  transport: { type: 'string', arg: 'T', help: 'sse: speak the deprecated HTTP+SSE transport (2024-11-05) to a URL or config entry, not detect it; http or stdio: what a word that is neither a URL nor a known name is (default: detected)' },
};

export const CONNECT_FLAGS: Record<string, Flag> = {
  era: { type: 'string', arg: 'E', help: 'auto, modern or legacy', default: 'auto' },
  timeout: { type: 'string', arg: 'MS', help: 'per-request timeout in milliseconds', default: '30000' },
  trace: { type: 'boolean', help: 'print every wire message to stderr' },
  json: { type: 'boolean', help: 'print results (and errors) as JSON on stdout' },
};

/** --meta, for the commands that send a request of the caller's choosing (request-meta.ts reads it). */
export const META_FLAG: Record<string, Flag> = {
  meta: { type: 'string', arg: 'K=V', multiple: true, help: "a key for the request's params._meta; the value is JSON when it parses (3, true, {\"a\":1}), else text" },
};

export type EraChoice = 'auto' | 'modern' | 'legacy';

export interface SourceFlags {
  config?: string;
  embedded: boolean;
  /** --trust: the folder's own config runs for this command. */
  trust: boolean;
  inputs: Record<string, string>;
  headers: Record<string, string>;
  env: Record<string, string>;
  cwd?: string;
  transport?: 'http' | 'stdio' | 'sse';
}

export interface ConnectFlags {
  era: EraChoice;
  timeoutMs: number;
  trace: boolean;
  json: boolean;
}

export function sourceFlags(values: Values): SourceFlags {
  const config = stringFlag(values, 'config');
  const embedded = booleanFlag(values, 'embedded');
  if (config !== undefined && embedded) throw new UsageError('--config and --embedded exclude each other: one says which file, the other says no file', true);
  const transport = stringFlag(values, 'transport');
  if (transport !== undefined && transport !== 'http' && transport !== 'stdio' && transport !== 'sse') throw new UsageError(`--transport must be http, stdio or sse, not ${JSON.stringify(transport)}`, true);
  const cwd = stringFlag(values, 'cwd');
  return {
    ...(config !== undefined ? { config } : {}),
    embedded,
    trust: booleanFlag(values, 'trust'),
    inputs: pairs(listFlag(values, 'input'), '=', '--input', 'ID=VALUE'),
    headers: pairs(listFlag(values, 'header'), ':', '--header', 'Name: value'),
    env: pairs(listFlag(values, 'env'), '=', '--env', 'NAME=value'),
    ...(cwd !== undefined ? { cwd } : {}),
    ...(transport !== undefined ? { transport } : {}),
  };
}

export function connectFlags(values: Values, defaultTimeoutMs = 30_000): ConnectFlags {
  return {
    era: choiceFlag(values, 'era', ['auto', 'modern', 'legacy'] as const, 'auto'),
    timeoutMs: msFlag(values, 'timeout', defaultTimeoutMs),
    trace: booleanFlag(values, 'trace'),
    json: booleanFlag(values, 'json'),
  };
}

function pairs(words: string[], separator: string, flag: string, shape: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const word of words) {
    const at = word.indexOf(separator);
    if (at <= 0) throw new UsageError(`${flag} takes ${shape}, not ${JSON.stringify(word)}`, true);
    // A header is written "Name: value"; an environment value is taken as typed.
    out[word.slice(0, at).trim()] = separator === ':' ? word.slice(at + 1).trim() : word.slice(at + 1);
  }
  return out;
}
