// What `check` answers with: values that say they are canned. Sampling gets a fixed, marked text (never a real
// model), elicitation values made from the requested schema and today's date, roots an empty folder of check's own
// (or the --root folders), so no server is shown the user's files; tool arguments come from the tool's schema (a
// default, an example, else the simplest valid value).

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Host, JsonObject, InputResponse, Root } from '@byhand/client';
import { UsageError } from '../shared/usage-error.js';
import { isObject } from './raw.js';

export const CANNED_TEXT = '[byhand check: a canned answer, not a model]';

/** What the canned answers are made from. */
export interface CannedSource {
  roots: Root[];
  /** The run's clock: a date or date-time field is answered with today. */
  now: Date;
}

/**
 * The roots check offers: the --root folders, or else an empty folder of its own, removed by `dispose`. A server that
 * lists roots (a filesystem server's sandbox is the roots it is given) then sees nothing of the user's. A server on
 * another machine is offered no root at all: no local path of any kind is its business.
 */
export function cannedRoots(dirs: readonly string[], cwd: string, local: boolean): { roots: Root[]; dispose(): void } {
  if (dirs.length > 0) {
    const roots = dirs.map((dir) => {
      const path = resolve(cwd, dir);
      if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--root ${dir}: ${path} is not a directory`);
      return { uri: pathToFileURL(path).href, name: basename(path) || path };
    });
    return { roots, dispose: () => undefined };
  }
  if (!local) return { roots: [], dispose: () => undefined };
  const empty = mkdtempSync(join(tmpdir(), 'byhand-check-root-'));
  return { roots: [{ uri: pathToFileURL(empty).href, name: 'byhand check: an empty folder' }], dispose: () => rmSync(empty, { recursive: true, force: true }) };
}

/** The simplest value `schema` accepts, preferring what the schema itself offers. */
export function valueFor(schema: unknown, now: Date, depth = 0): unknown {
  if (!isObject(schema) || depth > 8) return null;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const options: unknown = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options) && options.length > 0) return valueFor(options[0], now, depth + 1);
  const type: unknown = Array.isArray(schema.type) ? (schema.type as unknown[]).find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return cannedString(schema, now);
    case 'integer':
    case 'number':
      return cannedNumber(schema, type);
    case 'boolean':
      return true;
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: Math.min(min, 8) }, () => valueFor(schema.items, now, depth + 1));
    }
    case 'null':
      return null;
    default:
      return objectFor(schema, now, depth);
  }
}

function cannedNumber(schema: JsonObject, type: 'integer' | 'number'): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + (type === 'integer' ? 1 : 0.5) : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - (type === 'integer' ? 1 : 0.5) : undefined;
  const value = min ?? (max !== undefined && max < 1 ? max : 1);
  return type === 'integer' ? Math.ceil(value) : value;
}

function cannedString(schema: JsonObject, now: Date): string {
  if (schema.format === 'uri' || schema.format === 'uri-reference') return 'https://example.com/byhand-check';
  if (schema.format === 'email') return 'check@example.com';
  if (schema.format === 'date') return now.toISOString().slice(0, 10);
  if (schema.format === 'date-time') return now.toISOString();
  if (schema.format === 'time') return now.toISOString().slice(11, 19);
  const text = 'byhand check';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return text.padEnd(min, '.').slice(0, Math.max(min, Math.min(max, text.length)));
}

/** Only the required properties: the simplest object that validates. */
function objectFor(schema: JsonObject, now: Date, depth: number): JsonObject {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.map((key) => [key, valueFor(properties[key], now, depth + 1)]));
}

/** The arguments to call a tool with, from its inputSchema. */
export function argumentsFor(inputSchema: unknown, now: Date): JsonObject {
  const value = valueFor(isObject(inputSchema) ? { ...inputSchema, type: 'object' } : { type: 'object' }, now);
  return isObject(value) ? value : {};
}

/** One canned answer to an input request, as the bare result the server reads. */
export function cannedAnswer(request: unknown, source: CannedSource): InputResponse | undefined {
  if (!isObject(request)) return undefined;
  const params = isObject(request.params) ? request.params : {};
  switch (request.method) {
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: CANNED_TEXT }, model: 'byhand-check-canned', stopReason: 'endTurn' };
    case 'elicitation/create':
      return params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: argumentsFor(params.requestedSchema, source.now) as Record<string, string> };
    case 'roots/list':
      return { roots: source.roots.map((root) => ({ ...root })) };
    default:
      return undefined;
  }
}

/** The host byhand's client runs the MRTR rounds with: every answer canned. */
export function cannedHost(source: CannedSource): Host {
  return {
    sample: async (params) => cannedAnswer({ method: 'sampling/createMessage', params }, source) as never,
    elicit: async (params) => cannedAnswer({ method: 'elicitation/create', params }, source) as never,
    roots: async () => cannedAnswer({ method: 'roots/list' }, source) as never,
  };
}
