// What `check` answers with: values that say they are canned. Sampling gets a fixed, marked text (never a real
// model), elicitation values made from the requested schema, roots the working folder; tool arguments come from the
// tool's schema (a default, an example, else the simplest valid value).

import { pathToFileURL } from 'node:url';
import type { Host, JsonObject, InputResponse } from '@byhand/client';
import { isObject } from './raw.js';

export const CANNED_TEXT = '[byhand check: a canned answer, not a model]';

/** The simplest value `schema` accepts, preferring what the schema itself offers. */
export function valueFor(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 8) return null;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const options: unknown = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options) && options.length > 0) return valueFor(options[0], depth + 1);
  const type: unknown = Array.isArray(schema.type) ? (schema.type as unknown[]).find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return cannedString(schema);
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
    case 'boolean':
      return true;
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: Math.min(min, 8) }, () => valueFor(schema.items, depth + 1));
    }
    case 'null':
      return null;
    default:
      return objectFor(schema, depth);
  }
}

function cannedString(schema: JsonObject): string {
  if (schema.format === 'uri' || schema.format === 'uri-reference') return 'https://example.com/byhand-check';
  if (schema.format === 'email') return 'check@example.com';
  if (schema.format === 'date') return '2026-01-01';
  if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
  const text = 'byhand check';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return text.padEnd(min, '.').slice(0, Math.max(min, Math.min(max, text.length)));
}

/** Only the required properties: the simplest object that validates. */
function objectFor(schema: JsonObject, depth: number): JsonObject {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.map((key) => [key, valueFor(properties[key], depth + 1)]));
}

/** The arguments to call a tool with, from its inputSchema. */
export function argumentsFor(inputSchema: unknown): JsonObject {
  const value = valueFor(isObject(inputSchema) ? { ...inputSchema, type: 'object' } : { type: 'object' });
  return isObject(value) ? value : {};
}

/** One canned answer to an input request, as the bare result the server reads. */
export function cannedAnswer(request: unknown, cwd: string): InputResponse | undefined {
  if (!isObject(request)) return undefined;
  const params = isObject(request.params) ? request.params : {};
  switch (request.method) {
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: CANNED_TEXT }, model: 'byhand-check-canned', stopReason: 'endTurn' };
    case 'elicitation/create':
      return params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: argumentsFor(params.requestedSchema) as Record<string, string> };
    case 'roots/list':
      return { roots: [{ uri: pathToFileURL(cwd).href, name: 'byhand check: the working folder' }] };
    default:
      return undefined;
  }
}

/** The host byhand's client runs the MRTR rounds with: every answer canned. */
export function cannedHost(cwd: string): Host {
  return {
    sample: async (params) => cannedAnswer({ method: 'sampling/createMessage', params }, cwd) as never,
    elicit: async (params) => cannedAnswer({ method: 'elicitation/create', params }, cwd) as never,
    roots: async () => cannedAnswer({ method: 'roots/list' }, cwd) as never,
  };
}
