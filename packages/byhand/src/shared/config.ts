// The server lists people already have: the `mcpServers` JSON of desktop clients and editors
// (Claude Desktop, Claude Code, Cursor, Windsurf) and VS Code's `mcp.json` (`servers`, with `type`
// and `inputs`), read as JSONC. Variables in env, headers, url, command, args and cwd are expanded;
// a server whose entry cannot be used keeps its place with the reason, so one bad entry never
// hides the rest. Shapes: each client's own documentation.

import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isSecretName, type Target } from '@byhand/client';
import { JsoncError, parseJsonc } from './jsonc.js';

/** A VS Code `inputs` entry: asked for at the terminal, or given with --input id=value. */
export interface InputSpec {
  id: string;
  description?: string;
  password: boolean;
}

export interface ServerEntry {
  name: string;
  /** How to show it, when not by its name (the embedded toolboxes show their titles). */
  label?: string;
  /** What was asked for, for display: the URL or the command line. */
  target: string;
  connect?: Target;
  /** Why the entry cannot be probed, naming the file and the field. */
  error?: string;
  /** `"disabled": true`: listed, never started. */
  disabled?: boolean;
  /** The file the entry came from. */
  file?: string;
  /** The host's scope, when the file holds more than one: "Claude Code local scope for /the/folder". */
  scope?: string;
  /** Where a credential in its headers came from, for when the server refuses it: the field, and the input typed for it. */
  credential?: string;
  /** `${input:id}` values the entry needs and was not given; `withInputs` makes it usable. */
  missingInputs?: InputSpec[];
  withInputs?: (values: Readonly<Record<string, string>>) => ServerEntry;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** The file is not JSONC at all: a broken file, not one of another shape, so nothing in it can be trusted to be meant. */
export class ConfigSyntaxError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigSyntaxError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export interface ConfigOptions {
  /** `${workspaceFolder}`: the folder the config belongs to; default the parent of `.vscode`/`.cursor`, else the file's folder. */
  workspaceFolder?: string;
  /** --input id=value. */
  inputs?: Readonly<Record<string, string>>;
  /**
   * Claude Code's local scope: the servers ~/.claude.json keeps for one folder, under `projects.<folder>.mcpServers`
   * (what `claude mcp add` writes by default). None for the folder is no error: most folders have none.
   */
  project?: string;
  /** Told each value a variable or an input put into an entry, so what is printed can leave it out (secret-values.ts). */
  onSecret?: (value: string, variable?: string) => void;
}

interface Context {
  env: Env;
  workspaceFolder: string;
  inputs: Readonly<Record<string, string>>;
  declared: Map<string, InputSpec>;
  /** Inputs referenced and not given, collected while expanding one entry. */
  missing: Map<string, InputSpec>;
  onSecret: (value: string, variable?: string) => void;
}

export function loadConfig(file: string, env: Env = process.env, options: ConfigOptions = {}): ServerEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(code === 'ENOENT' ? `${file}: no such file` : `${file}: cannot read it (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = parseJsonc(text);
  } catch (error) {
    if (!(error instanceof JsoncError)) throw error;
    throw new ConfigSyntaxError(`${file}:${error.line}:${error.column}: not valid JSON (${error.why})`);
  }
  if (options.project === undefined) return parseConfig(json, file, env, options);
  const project = isObject(json) && isObject(json.projects) ? json.projects[options.project] : undefined;
  if (!isObject(project) || !isObject(project.mcpServers) || Object.keys(project.mcpServers).length === 0) return [];
  const scope = `Claude Code local scope for ${options.project}`;
  return parseConfig(project, `${file}: projects[${JSON.stringify(options.project)}]`, env, options).map((entry) => ({ ...entry, file, scope }));
}

export function parseConfig(json: unknown, file: string, env: Env = process.env, options: ConfigOptions = {}): ServerEntry[] {
  if (!isObject(json)) throw new ConfigError(`${file}: expected a JSON object with "mcpServers" or "servers"`);
  const key = serversKey(json);
  if (!key) throw new ConfigError(`${file}: no "mcpServers" (desktop clients, editors) or "servers" (VS Code mcp.json) object`);
  const servers = key === 'mcp.servers' ? (json.mcp as Record<string, unknown>).servers : json[key];
  if (!isObject(servers)) throw new ConfigError(`${file}: "${key}" must be an object mapping names to servers`);
  const inputsJson = key === 'mcp.servers' ? (json.mcp as Record<string, unknown>).inputs : json.inputs;
  const ctx: Context = { env, workspaceFolder: options.workspaceFolder ?? workspaceOf(file), inputs: options.inputs ?? {}, declared: declaredInputs(inputsJson), missing: new Map(), onSecret: options.onSecret ?? (() => {}) };
  const entries = Object.entries(servers).map(([name, value]) => ({ ...parseEntry(name, value, `${file}: ${key}.${name}`, ctx), file }));
  if (entries.length === 0) throw new ConfigError(`${file}: "${key}" lists no servers`);
  return entries;
}

function serversKey(json: Record<string, unknown>): 'mcpServers' | 'servers' | 'mcp.servers' | undefined {
  return 'mcpServers' in json ? 'mcpServers' : 'servers' in json ? 'servers' : isObject(json.mcp) && 'servers' in json.mcp ? 'mcp.servers' : undefined;
}

/** A config's server objects as written, nothing expanded: what a person is asked to trust. Empty when it is not a config. */
export function rawServers(json: unknown): [string, unknown][] {
  if (!isObject(json)) return [];
  const key = serversKey(json);
  const servers = key === undefined ? undefined : key === 'mcp.servers' ? (json.mcp as Record<string, unknown>).servers : json[key];
  return isObject(servers) ? Object.entries(servers) : [];
}

function declaredInputs(value: unknown): Map<string, InputSpec> {
  const declared = new Map<string, InputSpec>();
  if (!Array.isArray(value)) return declared;
  for (const item of value) {
    if (!isObject(item) || typeof item.id !== 'string') continue;
    declared.set(item.id, { id: item.id, ...(typeof item.description === 'string' ? { description: item.description } : {}), password: item.password === true });
  }
  return declared;
}

/** What an entry points at, for a line about it: its URL or command, whichever it has. */
function targetOf(value: Record<string, unknown>): string {
  const target = [value.url, value.serverUrl, value.command].find((v) => typeof v === 'string');
  return typeof target === 'string' ? target : '?';
}

function parseEntry(name: string, value: unknown, where: string, ctx: Context): ServerEntry {
  if (!isObject(value)) return { name, target: '?', error: `${where}: expected an object with "command" or "url"` };
  if (value.disabled === true) return { name, target: targetOf(value), disabled: true };
  ctx.missing = new Map();
  let entry: ServerEntry;
  try {
    entry = build(name, value, where, ctx);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    entry = { name, target: targetOf(value), error: error.message };
  }
  if (ctx.missing.size === 0) return entry;
  // Never send the placeholder: the entry waits for its inputs, and says which.
  const missingInputs = [...ctx.missing.values()];
  const given = ctx.inputs;
  return {
    name,
    target: entry.target,
    error: `${where}: needs ${missingInputs.map((i) => `\${input:${i.id}}${i.description ? ` (${i.description})` : ''}`).join(', ')}: give --input ${missingInputs.map((i) => `${i.id}=VALUE`).join(' --input ')}`,
    missingInputs,
    withInputs: (values) => parseEntry(name, value, where, { ...ctx, inputs: { ...given, ...values } }),
  };
}

/** What an entry runs or contacts as its file writes it, nothing expanded: the fields its type selects, and no others. */
export type EntryShape =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: 'http'; urlKey: 'url' | 'serverUrl'; url: string; headers: Record<string, string>; sse: boolean };

const HTTP_TYPES = ['http', 'streamable-http', 'streamableHttp', 'sse'];

/**
 * Which of "command" and "url" an entry runs: the one its "type" names, else the one it has. An entry whose fields
 * disagree (a stdio type with a url, an http type with a command, both and no type) is refused rather than guessed,
 * so what a person is shown before trusting a folder is what runs.
 */
export function entryShape(value: Record<string, unknown>, where: string): EntryShape {
  if (value.type !== undefined && (typeof value.type !== 'string' || (!HTTP_TYPES.includes(value.type) && value.type !== 'stdio'))) {
    throw new ConfigError(`${where}.type: unknown transport ${JSON.stringify(value.type)} (expected stdio, http or sse)`);
  }
  const type = value.type;
  // Windsurf calls the URL serverUrl.
  const urlKey = value.url === undefined && value.serverUrl !== undefined ? 'serverUrl' : 'url';
  const url = optionalString(value, urlKey, where);
  const command = optionalString(value, 'command', where);
  if (type === undefined && url !== undefined && command !== undefined) {
    throw new ConfigError(`${where}: has both "command" (a stdio server) and "${urlKey}" (an http one), and no "type" to say which runs: remove the one that is not meant`);
  }
  if (type !== undefined ? HTTP_TYPES.includes(type) : url !== undefined) {
    if (command !== undefined) throw new ConfigError(`${where}: "type": "${type}" contacts its "${urlKey}", yet the entry also has a "command": remove the one that is not meant`);
    if (!url) throw new ConfigError(`${where}.url: an http server needs a "url"`);
    // "sse" is the deprecated HTTP+SSE transport (2024-11-05): spoken as asked, not detected.
    return { kind: 'http', urlKey, url, headers: strings(value.headers, `${where}.headers`), sse: type === 'sse' };
  }
  if (url !== undefined) throw new ConfigError(`${where}: "type": "stdio" runs its "command", yet the entry also has a "${urlKey}": remove the one that is not meant`);
  if (!command) throw new ConfigError(`${where}: needs "command" (stdio) or "url" (http)`);
  const args = value.args === undefined ? [] : value.args;
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw new ConfigError(`${where}.args: must be an array of strings`);
  const cwd = optionalString(value, 'cwd', where);
  return { kind: 'stdio', command, args, env: strings(value.env, `${where}.env`), ...(cwd !== undefined ? { cwd } : {}) };
}

function build(name: string, value: Record<string, unknown>, where: string, ctx: Context): ServerEntry {
  const shape = entryShape(value, where);
  if (shape.kind === 'http') {
    const expanded = expand(shape.url, `${where}.${shape.urlKey}`, ctx);
    const headers = expandAll(shape.headers, `${where}.headers`, ctx);
    if (ctx.missing.size === 0) {
      try {
        new URL(expanded);
      } catch {
        throw new ConfigError(`${where}.${shape.urlKey}: "${expanded}" is not a URL`);
      }
    }
    const credential = credentialField(shape.headers, `${where}.headers`);
    return { name, target: expanded, connect: { url: expanded, headers, ...(shape.sse ? { transport: 'sse' as const } : {}) }, ...(credential ? { credential } : {}) };
  }
  const expandedArgs = shape.args.map((a, i) => expand(a, `${where}.args[${i}]`, ctx));
  const cmd = expand(shape.command, `${where}.command`, ctx);
  return {
    name,
    target: [cmd, ...expandedArgs].join(' '),
    connect: { command: cmd, args: expandedArgs, env: expandAll(shape.env, `${where}.env`, ctx), ...(shape.cwd !== undefined ? { cwd: expand(shape.cwd, `${where}.cwd`, ctx) } : {}) },
  };
}

const VARIABLE = /\$\{input:([^}]+)\}|\$\{(workspaceFolder|userHome)\}|\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** The environment variables a text would read when expanded (`${userHome}` reads HOME). */
export function variablesIn(text: string): string[] {
  return [...text.matchAll(VARIABLE)].flatMap(([, , folder, braced, , bare]) => (folder === 'userHome' ? ['HOME'] : braced !== undefined || bare !== undefined ? [braced ?? bare] : []));
}

/** The `${input:id}` ids a text asks for. */
export function inputsIn(text: string): string[] {
  return [...text.matchAll(VARIABLE)].flatMap(([, input]) => (input !== undefined ? [input] : []));
}

/**
 * `${env:VAR}` (VS Code, Cursor), `${VAR}` and `${VAR:-default}` (Claude Code), `$VAR`,
 * `${workspaceFolder}`, `${userHome}` and `${input:id}` (VS Code). An unset variable is an error
 * naming the field: silently sending an empty token is worse than stopping.
 */
function expand(text: string, where: string, ctx: Context): string {
  return text.replace(VARIABLE, (whole: string, input?: string, folder?: string, braced?: string, fallback?: string, bare?: string): string => {
    if (input !== undefined) {
      const given = ctx.inputs[input];
      if (given !== undefined) {
        ctx.onSecret(given);
        return given;
      }
      ctx.missing.set(input, ctx.declared.get(input) ?? { id: input, password: false });
      return whole;
    }
    if (folder === 'workspaceFolder') return ctx.workspaceFolder;
    if (folder === 'userHome') {
      const home = ctx.env.HOME ?? ctx.env.USERPROFILE;
      if (home) return home;
      throw new ConfigError(`${where}: \${userHome} needs HOME (or USERPROFILE) set`);
    }
    const name = (braced ?? bare)!; // the pattern's last two alternatives always capture one
    const value = ctx.env[name];
    if (value !== undefined && value !== '') {
      ctx.onSecret(value, name);
      return value;
    }
    // A default is written in the file, so it is no secret.
    if (fallback !== undefined) return fallback;
    throw new ConfigError(`${where}: ${whole} refers to ${name}, which is not set`);
  });
}

/** `.vscode/mcp.json` and `.cursor/mcp.json` belong to the folder above; other files to their own folder. */
function workspaceOf(file: string): string {
  const folder = dirname(file);
  return /[\\/]\.(vscode|cursor)$/.test(folder) ? dirname(folder) : folder;
}

function strings(value: unknown, where: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new ConfigError(`${where}: must be an object of strings`);
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new ConfigError(`${where}.${key}: must be a string`);
  }
  return value as Record<string, string>;
}

function expandAll(map: Record<string, string>, where: string, ctx: Context): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([key, v]) => [key, expand(v, `${where}.${key}`, ctx)]));
}

/** "FILE: mcpServers.NAME.headers.Authorization, typed for ${input:token}": the first header with a secret's name. */
function credentialField(headers: Record<string, string>, where: string): string | undefined {
  const name = Object.keys(headers).find(isSecretName);
  if (name === undefined) return undefined;
  const input = /\$\{input:([^}]+)\}/.exec(String(headers[name]))?.[1];
  return `${where}.${name}${input !== undefined ? `, typed for \${input:${input}}` : ''}`;
}

function optionalString(value: Record<string, unknown>, key: string, where: string): string | undefined {
  const v = value[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') throw new ConfigError(`${where}.${key}: must be a non-empty string`);
  return v;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
