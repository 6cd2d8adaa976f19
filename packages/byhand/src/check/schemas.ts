// Schemas and results: every inputSchema and outputSchema is valid JSON Schema 2020-12 (ajv, as the SDK's servers
// use), tool names follow the spec's pattern, descriptions are there, annotations agree with each other, and a
// result's structuredContent validates against the tool's outputSchema.

import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Tool } from '@byhand/client';
import { add, argumentsOf, type CheckContext } from './context.js';
import { isObject } from './raw.js';

// The spec's tool name rule (2025-11-25 server/tools "Tool names"): 1 to 128 of A-Z a-z 0-9 _ - .
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

// strict off: unknown keywords (x-mcp-header, examples from other drafts) are allowed by 2020-12.
const OPTIONS = { strict: false, allErrors: false, validateFormats: false };

type Validator = Ajv | Ajv2019 | Ajv2020;

// One validator per dialect: a new one compiles its meta-schemas first, many times the cost of a tool's schema.
const validators = new Map<string, Validator>();

/**
 * The validator for the schema's dialect: 2020-12 unless its $schema names another (the spec allows that), with
 * draft-07 and 2019-09 understood; undefined for a dialect ajv does not know.
 */
function validatorFor(schema: unknown): Validator | undefined {
  const named = isObject(schema) && typeof schema.$schema === 'string' ? schema.$schema : undefined;
  const dialect = named === undefined || named.includes('2020-12') ? '2020-12' : named.includes('draft-07') ? 'draft-07' : named.includes('2019-09') ? '2019-09' : undefined;
  if (dialect === undefined) return undefined;
  let ajv = validators.get(dialect);
  if (ajv === undefined) {
    ajv = dialect === '2020-12' ? new Ajv2020(OPTIONS) : dialect === 'draft-07' ? new Ajv(OPTIONS) : new Ajv2019(OPTIONS);
    validators.set(dialect, ajv);
  }
  return ajv;
}

/**
 * The schema compiled, and then forgotten by the shared validator: two servers' schemas with the same $id must not
 * meet. The compiled function keeps working.
 */
function compiled(schema: unknown): ValidateFunction | undefined {
  const ajv = validatorFor(schema);
  if (ajv === undefined) return undefined;
  try {
    return ajv.compile(schema as object);
  } finally {
    ajv.removeSchema(schema as object);
  }
}

/** A compile error, or undefined when the schema is valid. */
function schemaProblem(schema: unknown): string | undefined {
  if (!isObject(schema)) return 'is not an object';
  if (schema.type !== 'object') return `has type ${JSON.stringify(schema.type ?? null)}, not "object"`;
  try {
    compiled(schema);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

export function checkSchemas(ctx: CheckContext): void {
  if (ctx.tools.length === 0) return;
  const problems: { tool: string; what: string }[] = [];
  const undescribed: string[] = [];
  const badNames: string[] = [];
  const contradictions: string[] = [];
  for (const tool of ctx.tools) {
    const input = schemaProblem(tool.inputSchema);
    if (input) problems.push({ tool: tool.name, what: `inputSchema ${input}` });
    if (tool.outputSchema !== undefined) {
      const output = schemaProblem(tool.outputSchema);
      if (output) problems.push({ tool: tool.name, what: `outputSchema ${output}` });
    }
    if (!TOOL_NAME.test(tool.name)) badNames.push(tool.name);
    if (typeof tool.description !== 'string' || tool.description.trim() === '') undescribed.push(tool.name);
    const a = tool.annotations;
    if (a?.readOnlyHint === true && a.destructiveHint === true) contradictions.push(tool.name);
  }
  add(ctx, problems.length === 0
    ? { area: 'schemas', id: 'schemas.valid', status: 'pass', title: `${ctx.tools.length} tool schema(s) are valid JSON Schema (2020-12 unless $schema says otherwise)` }
    : { area: 'schemas', id: 'schemas.valid', status: 'error', title: `invalid schema(s): ${problems.map((p) => p.tool).join(', ')}`, got: problems.map((p) => `${p.tool}: ${p.what}`).join('; '), why: 'a client validates arguments (and results) against these schemas; an invalid one breaks the tool for every client that checks', fix: 'make each inputSchema/outputSchema a JSON Schema 2020-12 object schema ({"type": "object", ...}); with the SDK, build it from zod' });
  add(ctx, badNames.length === 0
    ? { area: 'schemas', id: 'schemas.names', status: 'pass', title: 'tool names follow the spec pattern' }
    : { area: 'schemas', id: 'schemas.names', status: 'warn', title: `tool names outside the spec pattern: ${badNames.join(', ')}`, why: 'hosts may refuse or rename tools whose names are not 1-128 of A-Z a-z 0-9 _ - .', fix: 'rename the tools' });
  if (undescribed.length > 0) add(ctx, { area: 'schemas', id: 'schemas.descriptions', status: 'warn', title: `tools without a description: ${undescribed.join(', ')}`, why: 'a model picks tools by their descriptions', fix: 'give every tool a description' });
  if (contradictions.length > 0) add(ctx, { area: 'schemas', id: 'schemas.annotations', status: 'warn', title: `tools both readOnlyHint and destructiveHint: ${contradictions.join(', ')}`, why: 'a read-only tool cannot be destructive; a host cannot tell which to believe', fix: 'drop destructiveHint from read-only tools' });
}

/** A complete tools/call result, against its tool's outputSchema. */
export function checkResult(ctx: CheckContext, tool: Tool, result: Record<string, unknown>, yours = false): void {
  const id = `schemas.result:${tool.name}`;
  if (result.isError === true) {
    // A tool's own refusal of arguments made from its schema is not a fault of the server: its result is not checked.
    add(ctx, { area: 'schemas', id, status: yours ? 'warn' : 'skip', title: `${tool.name} returned a tool error (isError) with ${argumentsOf({ yours })}`, sent: `tools/call ${tool.name}`, got: JSON.stringify(result.content ?? null).slice(0, 200), why: 'check could not see a successful result, so its shape and outputSchema were not checked', fix: `give ${yours ? 'other ' : ''}arguments with --call ${tool.name}=JSON to check it` });
    return;
  }
  if (!Array.isArray(result.content)) {
    add(ctx, { area: 'schemas', id, status: 'error', title: `${tool.name}: the result has no content array`, got: JSON.stringify(result).slice(0, 200), why: 'every tools/call result carries content (a client shows it to the model)', fix: 'return {content: [...]}' });
    return;
  }
  if (tool.outputSchema === undefined) return;
  if (!isObject(result.structuredContent)) {
    add(ctx, { area: 'schemas', id, status: 'error', title: `${tool.name} declares an outputSchema but returned no structuredContent`, why: 'the spec requires structured results that conform to a declared outputSchema', fix: 'return structuredContent matching the outputSchema' });
    return;
  }
  let validate;
  try {
    validate = compiled(tool.outputSchema);
  } catch {
    return; // reported by checkSchemas
  }
  if (validate === undefined) return;
  add(ctx, validate(result.structuredContent)
    ? { area: 'schemas', id, status: 'pass', title: `${tool.name}: structuredContent matches its outputSchema` }
    : { area: 'schemas', id, status: 'error', title: `${tool.name}: structuredContent does not match its outputSchema`, got: validateErrors(validate.errors), why: 'a client that validates the result rejects it', fix: 'return structuredContent that matches the outputSchema, or fix the schema' });
}

function validateErrors(errors: { instancePath: string; message?: string }[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
}
