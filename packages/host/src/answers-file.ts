import { readFileSync } from 'node:fs';
import type { ElicitParams, ElicitResult, InputContext, JsonObject } from '@byhand/client';
import { AnswersFileError, NoAnswerError } from './errors.js';
import { check, expects, fieldsOf, type Field, type FieldValue } from './form-fields.js';
import { MASK } from './secrets.js';

/**
 * An --answers file answers forms without a terminal. It is one JSON object:
 *
 *   {
 *     "name": "Ada",                          field answers for any form that has the field
 *     "booking": { "date": "2026-08-01" },    answers for the input request keyed "booking" only;
 *                                             they win over the top-level ones
 *     "login": { "$action": "accept" },       URL mode: consent must be given explicitly
 *     "$action": "decline"                    decline (or cancel) every form not keyed otherwise
 *   }
 *
 * Values have their JSON types (a number for a number field, a list of strings for a multi-select)
 * and pass the same checks as typed answers. A field left out takes the schema's default; a
 * required field with neither is an error, as is a value that does not fit.
 */
export interface AnswersFile {
  path: string;
  data: JsonObject;
}

const ACTIONS = ['accept', 'decline', 'cancel'] as const;
type Action = (typeof ACTIONS)[number];

export function loadAnswers(path: string): AnswersFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new AnswersFileError(`cannot read the answers file ${path}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new AnswersFileError(`the answers file ${path} is not JSON: ${(error as Error).message}`);
  }
  if (!isSection(data)) throw new AnswersFileError(`the answers file ${path} must hold one JSON object`);
  return { path, data };
}

export function answerFromFile(file: AnswersFile, params: ElicitParams, ctx: Pick<InputContext, 'key'>): ElicitResult {
  const keyed = isSection(file.data[ctx.key]) ? (file.data[ctx.key] as JsonObject) : undefined;
  const lookup = (name: string): unknown => {
    if (keyed && name in keyed) return keyed[name];
    const top = file.data[name];
    return isSection(top) ? undefined : top;
  };
  const url = params.mode === 'url';
  const action = actionOf(lookup('$action') ?? (url ? 'decline' : 'accept'), file.path, ctx.key);
  if (url || action !== 'accept') return { action };

  const content: Record<string, FieldValue> = {};
  for (const field of fieldsOf(params.requestedSchema)) {
    const value = lookup(field.name) ?? field.default;
    if (value === undefined) {
      if (!field.required) continue;
      throw new AnswersFileError(
        `${file.path} does not answer the required field "${field.name}" (${expects(field)}) of the form "${ctx.key}"; ` +
          `add it at the top level or under "${ctx.key}"`,
      );
    }
    const checked = check(field, value);
    if (!checked.ok) {
      const got = field.secret ? MASK : JSON.stringify(value);
      throw new AnswersFileError(`${file.path}: "${field.name}" for the form "${ctx.key}" ${checked.problem} (got ${got})`);
    }
    content[field.name] = checked.value;
  }
  return { action: 'accept', content };
}

function actionOf(value: unknown, path: string, key: string): Action {
  if (ACTIONS.includes(value as Action)) return value as Action;
  throw new AnswersFileError(`${path}: "$action" for "${key}" must be accept, decline or cancel, not ${JSON.stringify(value)}`);
}

function isSection(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The error for a form with no terminal and no answer: it names --answers and shows the file to write. */
export function noAnswer(params: ElicitParams, key: string, from: string): NoAnswerError {
  const example =
    params.mode === 'url'
      ? { [key]: { $action: 'accept' } }
      : { [key]: Object.fromEntries(fieldsOf(params.requestedSchema).map((field) => [field.name, exampleValue(field)])) };
  return new NoAnswerError(
    `the server asks for ${params.mode === 'url' ? 'consent to open a URL' : 'a form'} (${from}, input "${key}"), but stdin is not a terminal ` +
      `and has no answer for it; run where you can type, or pass \`answersFile\`, a JSON object such as ${JSON.stringify(example)} ` +
      '(field answers at the top level for any form, or under the input key; "$action": "decline" or "cancel" to refuse; see the README, "The answers file")',
  );
}

/**
 * A value of the field's own JSON type, so the example is a file that works once its placeholders are edited: a
 * number as a number, a choice as one of its values (the terminal's "pick by number" is no answer in a file).
 */
function exampleValue(field: Field): unknown {
  switch (field.kind) {
    case 'string': return field.default ?? `<${expects(field)}>`;
    case 'number':
    case 'integer': return field.default ?? field.minimum ?? Math.min(0, field.maximum ?? 0);
    case 'boolean': return field.default ?? false;
    case 'choice': return field.default ?? field.choices[0]?.value;
    case 'choices': return field.default ?? field.choices.slice(0, Math.max(1, field.minItems ?? 1)).map((choice) => choice.value);
  }
}
