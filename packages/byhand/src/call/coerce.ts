// key=value words turned into the JSON a tool's inputSchema asks for. A shell has only strings, so
// the schema decides: "2" is 2 for an integer and "2" for a string. Only types and enums are checked
// here, enough to catch a typo before anything is sent; ranges and lengths are the server's to judge.

import type { JsonObject, Prompt, Tool } from '@byhand/client';
import { didYouMean } from '../shared/did-you-mean.js';
import { UsageError } from '../shared/usage-error.js';

type Schema = JsonObject;

/** A value that does not fit its schema; the caller adds which argument it was. */
class Misfit extends Error {}

export function coerceToolArguments(tool: Tool, pairs: readonly string[]): JsonObject {
  const schema = tool.inputSchema ?? {};
  const properties = isObject(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  // JSON Schema allows extra properties by default, but the SDK's zod schemas drop them silently, so a
  // misspelt name would vanish; only an explicit additionalProperties lets unknown names through.
  const extra = schema.additionalProperties === true ? {} : isObject(schema.additionalProperties) ? (schema.additionalProperties) : undefined;
  const json = jsonArguments(tool.name, pairs);
  const args: JsonObject = json ?? {};
  if (json !== undefined) {
    // Typed by the JSON itself, so nothing is coerced; names are checked as key=value's are.
    for (const key of Object.keys(json)) if (properties[key] === undefined && extra === undefined) throw unknownArgument(tool.name, key, Object.keys(properties));
  }
  for (const [key, raw] of json !== undefined ? [] : splitPairs(tool.name, pairs)) {
    const property = properties[key] ?? extra;
    if (property === undefined) throw unknownArgument(tool.name, key, Object.keys(properties));
    let value: unknown;
    try {
      value = coerce(raw, property, schema);
    } catch (error) {
      if (!(error instanceof Misfit)) throw error;
      throw new UsageError(`${tool.name}: ${key}=${JSON.stringify(raw)} ${error.message}`);
    }
    if (key in args) {
      // Repeating an array argument adds to it (tag=a tag=b); repeating anything else is a slip.
      if (!Array.isArray(args[key]) || !Array.isArray(value)) throw new UsageError(`${tool.name}: ${key} is given twice`);
      args[key] = [...(args[key] as unknown[]), ...(value as unknown[])];
    } else args[key] = value;
  }
  const missing = required.filter((name) => !(name in args));
  if (missing.length > 0) {
    const described = missing.map((name) => describe(name, properties[name] ?? {}, true));
    throw new UsageError(`${tool.name}: missing required argument${missing.length > 1 ? 's' : ''} ${described.join(', ')}`);
  }
  return args;
}

/** Prompt arguments are strings by definition (spec server/prompts.mdx); only names and presence are checked. */
export function promptArguments(prompt: Prompt, pairs: readonly string[]): Record<string, string> {
  const declared = prompt.arguments ?? [];
  const names = declared.map((a) => a.name);
  const args: Record<string, string> = {};
  for (const [key, value] of splitPairs(prompt.name, pairs)) {
    if (!names.includes(key)) throw unknownArgument(prompt.name, key, names);
    if (key in args) throw new UsageError(`${prompt.name}: ${key} is given twice`);
    args[key] = value;
  }
  const missing = declared.filter((a) => a.required && !(a.name in args));
  if (missing.length > 0) {
    const described = missing.map((a) => `${a.name}${a.description ? ` (${a.description})` : ''}`);
    throw new UsageError(`${prompt.name}: missing required argument${missing.length > 1 ? 's' : ''} ${described.join(', ')}`);
  }
  return args;
}

/** How an argument reads in a message: `depth (brief|full, default "brief")`. */
function describe(name: string, schema: Schema, required: boolean): string {
  const parts = [Array.isArray(schema.enum) ? schema.enum.map(String).join('|') : typeName(schema)];
  if (typeof schema.description === 'string') parts.push(schema.description);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  else if (!required) parts.push('optional');
  return `${name} (${parts.join(', ')})`;
}

/** The arguments as one JSON object (`call SERVER TOOL '{"a":1}'`), when that is the one word given. */
function jsonArguments(owner: string, pairs: readonly string[]): JsonObject | undefined {
  if (pairs.length !== 1 || !pairs[0].trimStart().startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(pairs[0]);
  } catch (error) {
    throw new UsageError(`${owner}: the arguments are not a JSON object (${(error as Error).message}); give one JSON object, or key=value words`, true);
  }
  if (!isObject(value)) throw new UsageError(`${owner}: the arguments must be one JSON object, or key=value words`, true);
  return value;
}

function splitPairs(owner: string, pairs: readonly string[]): [string, string][] {
  return pairs.map((pair) => {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`${owner}: expected key=value (or all the arguments as one JSON object, '{"key": value}'), got ${JSON.stringify(pair)}`, true);
    return [pair.slice(0, eq), pair.slice(eq + 1)];
  });
}

function unknownArgument(owner: string, key: string, known: string[]): UsageError {
  if (known.length === 0) return new UsageError(`${owner} takes no arguments, but got ${key}=`);
  return new UsageError(`${owner} has no argument ${JSON.stringify(key)}${didYouMean(key, known)}; it takes ${known.join(', ')}`);
}

function coerce(raw: string, given: Schema, root: Schema): unknown {
  const schema = resolve(given, root);
  if (Array.isArray(schema.enum)) {
    const match: unknown = schema.enum.find((option) => String(option) === raw);
    if (match === undefined) throw new Misfit(`is not one of ${schema.enum.map(String).join(', ')}`);
    return match;
  }
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (alternatives) return firstFit(alternatives.filter(isObject).map((alt) => () => coerce(raw, alt, root)), `fits none of ${typeName(schema)}`);
  const types = typesOf(schema);
  if (types.length === 0) return untyped(raw);
  // Strings last: "null" or "3" should become null or 3 when the schema allows both.
  const ordered = [...types.filter((t) => t !== 'string'), ...types.filter((t) => t === 'string')];
  return firstFit(ordered.map((type) => () => asType(raw, type, schema, root)), types.length > 1 ? `is not ${types.join(' or ')}` : undefined);
}

function asType(raw: string, type: string, schema: Schema, root: Schema): unknown {
  switch (type) {
    case 'string':
      return raw;
    case 'integer':
      if (!/^[+-]?\d+$/.test(raw.trim()) || !Number.isSafeInteger(Number(raw))) throw new Misfit('is not a whole number');
      return Number(raw);
    case 'number':
      if (raw.trim() === '' || !Number.isFinite(Number(raw))) throw new Misfit('is not a number');
      return Number(raw);
    case 'boolean': {
      const word = raw.trim().toLowerCase();
      if (['true', 'yes', '1'].includes(word)) return true;
      if (['false', 'no', '0'].includes(word)) return false;
      throw new Misfit('is not true or false');
    }
    case 'null':
      if (raw !== 'null') throw new Misfit('is not null');
      return null;
    case 'array': {
      const items = isObject(schema.items) ? (schema.items) : {};
      if (raw.trimStart().startsWith('[')) {
        const parsed = parseJson(raw, 'a JSON array');
        if (!Array.isArray(parsed)) throw new Misfit('is not a JSON array');
        return parsed.map((item, i) => check(item, items, root, `item ${i + 1}`));
      }
      if (raw.trim() === '') return [];
      return raw.split(',').map((part, i) => within(`item ${i + 1}`, () => coerce(part.trim(), items, root)));
    }
    case 'object': {
      const parsed = raw.trimStart().startsWith('{') ? parseJson(raw, 'a JSON object') : undefined;
      if (!isObject(parsed)) throw new Misfit('is not a JSON object, such as {"key":"value"}');
      return parsed;
    }
    default:
      throw new Misfit(`has a schema type byhand does not know (${type})`);
  }
}

/** A value that came as JSON (inside [..]) already has a type; a string in it is read as typed on the command line. */
function check(value: unknown, given: Schema, root: Schema, where: string): unknown {
  const schema = resolve(given, root);
  return within(where, () => {
    if (typeof value === 'string') return coerce(value, schema, root);
    if (Array.isArray(schema.enum) && !schema.enum.some((option) => option === value)) throw new Misfit(`is not one of ${schema.enum.map(String).join(', ')}`);
    const types = typesOf(schema);
    if (types.length > 0 && !types.some((type) => fits(value, type))) throw new Misfit(`is not ${types.join(' or ')}`);
    return value;
  });
}

function fits(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return false;
  }
}

function firstFit(attempts: (() => unknown)[], summary: string | undefined): unknown {
  let first: Misfit | undefined;
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch (error) {
      if (!(error instanceof Misfit)) throw error;
      first ??= error;
    }
  }
  throw summary !== undefined || first === undefined ? new Misfit(summary ?? 'fits no schema') : first;
}

function within(where: string, work: () => unknown): unknown {
  try {
    return work();
  } catch (error) {
    if (error instanceof Misfit) throw new Misfit(`(${where}) ${error.message}`);
    throw error;
  }
}

/** Follows local references (#/$defs/address), which zod and hand-written schemas both use. */
function resolve(schema: Schema, root: Schema): Schema {
  let current = schema;
  // A bound, since a schema may refer to itself.
  for (let hops = 0; typeof current.$ref === 'string' && current.$ref.startsWith('#') && hops < 16; hops++) {
    const path = current.$ref.slice(1).split('/').filter(Boolean).map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'));
    let target: unknown = root;
    for (const part of path) target = isObject(target) ? target[part] : undefined;
    if (!isObject(target)) throw new Misfit(`has a schema reference byhand cannot follow (${current.$ref})`);
    current = target;
  }
  return current;
}

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type.map(String);
  return typeof schema.type === 'string' ? [schema.type] : [];
}

function typeName(schema: Schema): string {
  const types = typesOf(schema);
  if (types.includes('array') && isObject(schema.items)) return `list of ${typeName(schema.items)}`;
  if (types.length > 0) return types.join('|');
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];
  return alternatives.length > 0 ? alternatives.filter(isObject).map((alt) => typeName(alt)).join('|') : 'any';
}

/** A schema that says nothing: {..} and [..] are taken as JSON when they parse, anything else as text. */
function untyped(raw: string): unknown {
  const start = raw.trimStart()[0];
  if (start !== '{' && start !== '[') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function parseJson(raw: string, what: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new Misfit(`is not ${what} (${(error as Error).message})`);
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
