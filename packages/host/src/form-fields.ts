// An elicitation form's requestedSchema turned into fields, and the checks every answer passes,
// whether typed at the terminal or read from an --answers file.

import type { ElicitParams, ElicitResult, JsonObject } from '@byhand/client';
import { FormSchemaError } from './errors.js';

export type FieldValue = NonNullable<ElicitResult['content']>[string];
interface Choice { value: string; label: string }

interface FieldBase {
  name: string;
  label: string;
  description?: string;
  required: boolean;
  /** Its name, title or format says password, secret, token or PIN (its description, a password): read without echo, shown as ***. */
  secret: boolean;
}
type StringFormat = 'email' | 'uri' | 'date' | 'date-time';
export type Field =
  | (FieldBase & { kind: 'string'; minLength?: number; maxLength?: number; format?: StringFormat; default?: string })
  | (FieldBase & { kind: 'number' | 'integer'; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'choice'; choices: Choice[]; default?: string })
  | (FieldBase & { kind: 'choices'; choices: Choice[]; minItems?: number; maxItems?: number; default?: string[] });

type Checked = { ok: true; value: FieldValue } | { ok: false; problem: string };

const FORMATS: readonly StringFormat[] = ['email', 'uri', 'date', 'date-time'];

export function fieldsOf(schema: ElicitParams['requestedSchema']): Field[] {
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, prop]) => toField(name, prop, required.has(name)));
}

function toField(name: string, prop: JsonObject, required: boolean): Field {
  const base: FieldBase = {
    name,
    label: typeof prop.title === 'string' && prop.title ? prop.title : name,
    required,
    secret: looksSecret(name, prop),
    ...(typeof prop.description === 'string' && { description: prop.description }),
  };
  const num = (key: string) => (typeof prop[key] === 'number' ? { [key]: prop[key] } : {});
  const def = <T>(ok: (v: unknown) => v is T) => (ok(prop.default) ? { default: prop.default } : {});

  if (prop.type === 'string') {
    const choices = stringChoices(prop);
    if (choices) return { ...base, kind: 'choice', choices, ...def(isString) };
    const format = FORMATS.find((f) => f === prop.format);
    return { ...base, kind: 'string', ...num('minLength'), ...num('maxLength'), ...(format && { format }), ...def(isString) };
  }
  if (prop.type === 'number' || prop.type === 'integer') {
    return { ...base, kind: prop.type, ...num('minimum'), ...num('maximum'), ...def(isNumber) };
  }
  if (prop.type === 'boolean') return { ...base, kind: 'boolean', ...def(isBoolean) };
  if (prop.type === 'array') {
    const items = (prop.items ?? {}) as JsonObject;
    const choices = Array.isArray(items.enum) ? items.enum.map(String).map((v) => ({ value: v, label: v })) : titled(items.anyOf);
    if (choices) {
      return { ...base, kind: 'choices', choices, ...num('minItems'), ...num('maxItems'), ...def(isStringArray) };
    }
  }
  throw new FormSchemaError(`form field "${name}" has a schema elicitation does not allow: ${JSON.stringify(prop)}`);
}

// Whole words only, so "pin" flags "pin" and "card_pin" but not "shipping" or "pinned".
const SECRET_WORDS = new Set([
  'password', 'passwords', 'passwd', 'passphrase', 'passcode', 'secret', 'secrets', 'token', 'tokens',
  'pin', 'otp', 'apikey', 'credential', 'credentials', 'cvv', 'cvc',
]);
const ASKING_WORDS = new Set(['password', 'passwd', 'passphrase', 'passcode', 'apikey']);

/**
 * A field that asks for a secret. The spec says servers must not ask for passwords, API keys or
 * other secrets in form mode (2026-07-28 client/elicitation.mdx),
 * so the person is told, and the value is never echoed.
 */
export function looksSecret(name: string, prop: JsonObject): boolean {
  // The name, title and format say what the field is; a description often only mentions one ("printed next to
  // your PIN", "up to 100 tokens"), so only the words that hardly appear without asking for one count there.
  const says = (text: unknown, secret: (word: string) => boolean) => {
    if (typeof text !== 'string') return false;
    const words = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/);
    return words.some((word, i) => secret(word) || (word === 'api' && words[i + 1] === 'key'));
  };
  return [name, prop.title, prop.format].some((text) => says(text, (word) => SECRET_WORDS.has(word))) || says(prop.description, (word) => ASKING_WORDS.has(word));
}

/** Single-select enums in all three spellings: enum, enum + legacy enumNames, oneOf const/title. */
function stringChoices(prop: JsonObject): Choice[] | undefined {
  if (Array.isArray(prop.enum)) {
    const names = Array.isArray(prop.enumNames) ? prop.enumNames : [];
    return prop.enum.map((v, i) => ({ value: String(v), label: typeof names[i] === 'string' ? names[i] : String(v) }));
  }
  return titled(prop.oneOf);
}

function titled(options: unknown): Choice[] | undefined {
  if (!Array.isArray(options)) return undefined;
  return options.map((o: { const?: unknown; title?: unknown }) => ({
    value: String(o.const),
    label: typeof o.title === 'string' ? o.title : String(o.const),
  }));
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** Whether a value (already typed, as JSON gives it) satisfies the field. */
export function check(field: Field, value: unknown): Checked {
  const bad = (problem: string): Checked => ({ ok: false, problem });
  switch (field.kind) {
    case 'string': {
      if (!isString(value)) return bad('expected text');
      const length = [...value].length;
      if (field.minLength !== undefined && length < field.minLength) return bad(`needs at least ${field.minLength} characters`);
      if (field.maxLength !== undefined && length > field.maxLength) return bad(`takes at most ${field.maxLength} characters`);
      if (field.format && !FORMAT_CHECKS[field.format](value)) return bad(`must be ${FORMAT_NAMES[field.format]}`);
      return { ok: true, value };
    }
    case 'number':
    case 'integer': {
      if (!isNumber(value)) return bad('expected a number');
      if (field.kind === 'integer' && !Number.isInteger(value)) return bad('expected a whole number');
      if (field.minimum !== undefined && value < field.minimum) return bad(`must be at least ${field.minimum}`);
      if (field.maximum !== undefined && value > field.maximum) return bad(`must be at most ${field.maximum}`);
      return { ok: true, value };
    }
    case 'boolean':
      return isBoolean(value) ? { ok: true, value } : bad('expected true or false');
    case 'choice':
      return isString(value) && field.choices.some((c) => c.value === value)
        ? { ok: true, value }
        : bad(`expected one of ${field.choices.map((c) => JSON.stringify(c.value)).join(', ')}`);
    case 'choices': {
      if (!isStringArray(value)) return bad('expected a list of choices');
      const unknown = value.find((v) => !field.choices.some((c) => c.value === v));
      if (unknown !== undefined) return bad(`${JSON.stringify(unknown)} is not one of the choices`);
      if (new Set(value).size !== value.length) return bad('lists a choice twice');
      if (field.minItems !== undefined && value.length < field.minItems) return bad(`pick at least ${field.minItems}`);
      if (field.maxItems !== undefined && value.length > field.maxItems) return bad(`pick at most ${field.maxItems}`);
      return { ok: true, value };
    }
  }
}

/** Reads what was typed at the prompt (never empty: an empty line means "default" or "skip"). */
export function parseTyped(field: Field, text: string): Checked {
  const t = text.trim();
  switch (field.kind) {
    case 'string':
      return check(field, text);
    case 'number':
    case 'integer':
      return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? check(field, Number(t)) : { ok: false, problem: 'expected a number' };
    case 'boolean': {
      const yes = /^(y|yes|true|1)$/i.test(t);
      return yes || /^(n|no|false|0)$/i.test(t) ? check(field, yes) : { ok: false, problem: 'answer y or n' };
    }
    case 'choice': {
      const choice = resolveChoice(field.choices, t);
      return choice ? check(field, choice) : { ok: false, problem: `type a number from 1 to ${field.choices.length}` };
    }
    case 'choices': {
      const parts = /^\d+(\s+\d+)+$/.test(t) ? t.split(/\s+/) : t.split(',').map((p) => p.trim()).filter(Boolean);
      const values: string[] = [];
      for (const part of parts) {
        const choice = resolveChoice(field.choices, part);
        if (!choice) return { ok: false, problem: `"${part}" is not a choice; type numbers such as 1,3` };
        if (!values.includes(choice)) values.push(choice);
      }
      return check(field, values);
    }
  }
}

/** A choice by its number, its exact value, or its label in any case. */
function resolveChoice(choices: Choice[], typed: string): string | undefined {
  if (/^\d+$/.test(typed)) return choices[Number(typed) - 1]?.value;
  const lower = typed.toLowerCase();
  return (choices.find((c) => c.value === typed) ?? choices.find((c) => c.value.toLowerCase() === lower || c.label.toLowerCase() === lower))?.value;
}

/** What an answer should look like, in a few words, for the prompt. */
export function expects(field: Field): string {
  const range = (lo?: number, hi?: number, unit = '') =>
    lo !== undefined && hi !== undefined ? ` from ${lo} to ${hi}${unit}`
      : lo !== undefined ? ` of at least ${lo}${unit}`
      : hi !== undefined ? ` of at most ${hi}${unit}` : '';
  switch (field.kind) {
    case 'string':
      return field.format ? FORMAT_NAMES[field.format] : `text${range(field.minLength, field.maxLength, ' characters')}`;
    case 'number': return `a number${range(field.minimum, field.maximum)}`;
    case 'integer': return `a whole number${range(field.minimum, field.maximum)}`;
    case 'boolean': return 'y or n';
    case 'choice': return 'pick one by number';
    case 'choices': return `pick${range(field.minItems, field.maxItems)} by number, e.g. 1,3`;
  }
}

const FORMAT_NAMES: Record<StringFormat, string> = {
  email: 'an email address',
  uri: 'a URI such as https://example.com/',
  date: 'a date as YYYY-MM-DD',
  'date-time': 'a date and time such as 2026-07-28T09:30:00Z',
};

const FORMAT_CHECKS: Record<StringFormat, (s: string) => boolean> = {
  email: (s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s),
  uri: (s) => /^[a-z][a-z0-9+.-]*:\S*$/i.test(s) && URL.canParse(s),
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && calendarDay(s),
  'date-time': (s) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)),
};

/** 2026-02-30 matches the pattern but is no day; Date rolls it over, so compare the round trip. */
function calendarDay(s: string): boolean {
  const time = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(s);
}
