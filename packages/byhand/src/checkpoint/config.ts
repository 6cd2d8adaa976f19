// The server lists people already have: the `mcpServers` JSON of desktop clients and editors
// (Claude Desktop, Cursor, Claude Code) and VS Code's `mcp.json` (`servers`, with `type`). Variable
// references in env, headers, url, command and args are expanded; a server whose entry cannot be
// used keeps its place with the reason, so one bad entry never hides the rest.

import { readFileSync } from 'node:fs';
import type { Target } from '@byhand/client';

export interface ServerEntry {
  name: string;
  /** How to show it, when not by its name (the embedded toolboxes show their titles). */
  label?: string;
  /** What was asked for, for display: the URL or the command line. */
  target: string;
  connect?: Target;
  /** Why the entry cannot be probed, naming the file and the field. */
  error?: string;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export function loadConfig(file: string, env: Env = process.env): ServerEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(code === 'ENOENT' ? `${file}: no such file` : `${file}: cannot read it (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  return parseConfig(json, file, env);
}

export function parseConfig(json: unknown, file: string, env: Env = process.env): ServerEntry[] {
  if (!isObject(json)) throw new ConfigError(`${file}: expected a JSON object with "mcpServers" or "servers"`);
  const key = 'mcpServers' in json ? 'mcpServers' : 'servers' in json ? 'servers' : isObject(json.mcp) && 'servers' in json.mcp ? 'mcp.servers' : undefined;
  if (!key) throw new ConfigError(`${file}: no "mcpServers" (desktop clients, editors) or "servers" (VS Code mcp.json) object`);
  const servers = key === 'mcp.servers' ? (json.mcp as Record<string, unknown>).servers : json[key];
  if (!isObject(servers)) throw new ConfigError(`${file}: "${key}" must be an object mapping names to servers`);
  const entries = Object.entries(servers).map(([name, value]) => parseEntry(name, value, `${file}: ${key}.${name}`, env));
  if (entries.length === 0) throw new ConfigError(`${file}: "${key}" lists no servers`);
  return entries;
}

function parseEntry(name: string, value: unknown, where: string, env: Env): ServerEntry {
  if (!isObject(value)) return { name, target: '?', error: `${where}: expected an object with "command" or "url"` };
  try {
    const type = typeof value.type === 'string' ? value.type : undefined;
    const url = optionalString(value, 'url', where);
    const command = optionalString(value, 'command', where);
    const isHttp = type ? ['http', 'streamable-http', 'streamableHttp'].includes(type) : url !== undefined && command === undefined;
    if (type === 'sse') throw new ConfigError(`${where}.type: "sse" is the deprecated HTTP+SSE transport, which byhand does not speak; use the server's Streamable HTTP URL`);
    if (type && !isHttp && type !== 'stdio') throw new ConfigError(`${where}.type: unknown transport "${type}" (expected stdio or http)`);
    if (isHttp) {
      if (!url) throw new ConfigError(`${where}.url: an http server needs a "url"`);
      const expanded = expand(url, `${where}.url`, env);
      try {
        new URL(expanded);
      } catch {
        throw new ConfigError(`${where}.url: "${expanded}" is not a URL`);
      }
      const headers = stringMap(value.headers, `${where}.headers`, env);
      return { name, target: expanded, connect: { url: expanded, headers } };
    }
    if (!command) throw new ConfigError(`${where}: needs "command" (stdio) or "url" (http)`);
    const args = value.args === undefined ? [] : value.args;
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw new ConfigError(`${where}.args: must be an array of strings`);
    const expandedArgs = args.map((a, i) => expand(a, `${where}.args[${i}]`, env));
    const cmd = expand(command, `${where}.command`, env);
    const cwd = optionalString(value, 'cwd', where);
    return {
      name,
      target: [cmd, ...expandedArgs].join(' '),
      connect: { command: cmd, args: expandedArgs, env: stringMap(value.env, `${where}.env`, env), ...(cwd ? { cwd: expand(cwd, `${where}.cwd`, env) } : {}) },
    };
  } catch (error) {
    if (error instanceof ConfigError) return { name, target: String(value.url ?? value.command ?? '?'), error: error.message };
    throw error;
  }
}

/**
 * `${env:VAR}` (VS Code, Cursor), `${VAR}` and `${VAR:-default}` (Claude Code) and `$VAR`. An unset
 * variable is an error naming the field: silently sending an empty token is worse than stopping.
 */
export function expand(text: string, where: string, env: Env): string {
  return text.replace(/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced, fallback, bare) => {
    const name = braced ?? bare;
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    throw new ConfigError(`${where}: ${whole} refers to ${name}, which is not set`);
  });
}

function stringMap(value: unknown, where: string, env: Env): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new ConfigError(`${where}: must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new ConfigError(`${where}.${key}: must be a string`);
    out[key] = expand(v, `${where}.${key}`, env);
  }
  return out;
}

function optionalString(value: Record<string, unknown>, key: string, where: string): string | undefined {
  const v = value[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') throw new ConfigError(`${where}.${key}: must be a non-empty string`);
  return v;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
