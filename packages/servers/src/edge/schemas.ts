// Tool and prompt schemas made once per process. The modern era builds a fresh McpServer per request, and the SDK
// keys its JSON Schema cache on that instance (McpServer._toolInputSchemaJson, @modelcontextprotocol/server
// dist/mcp-oHn3ureC.mjs), so a zod schema registered as-is is converted again on every tools/call and tools/list;
// a zod schema built inside the register function is also compiled (and walked for recursion) again on first parse.

import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';

type JsonSchema = Record<string, unknown>;
type JsonSchemaOptions = Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0];

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * A zod object schema as a Standard Schema whose JSON Schema is converted once per target and shared, frozen, by
 * every server instance. Validation is zod's own. `shape` stays visible for the SDK's prompt completion
 * (getSchemaShape reads it to find completable() arguments).
 */
export function sharedSchema<S extends z.ZodObject>(schema: S): StandardSchemaWithJSON<z.input<S>, z.output<S>> & { shape: S['shape'] } {
  const standard = schema['~standard'] as unknown as StandardSchemaWithJSON<z.input<S>, z.output<S>>['~standard'];
  const converted = new Map<string, JsonSchema>();
  const once = (io: 'input' | 'output') => (options: JsonSchemaOptions) => {
    const key = `${io}\0${JSON.stringify(options)}`;
    let json = converted.get(key);
    if (json === undefined) {
      json = deepFreeze(standard.jsonSchema[io](options));
      converted.set(key, json);
    }
    return json;
  };
  return {
    '~standard': {
      version: 1,
      vendor: standard.vendor,
      validate: standard.validate,
      ...(standard.types !== undefined ? { types: standard.types } : {}),
      jsonSchema: { input: once('input'), output: once('output') },
    },
    shape: schema.shape,
  };
}
