import type { ElicitParams, ElicitResult } from '@byhand/client';
import { check, expects, fieldsOf, parseTyped, type Field, type FieldValue } from './form-fields.js';
import { printable, type Terminal } from './terminal.js';

export interface PromptOptions {
  /** Who is asking, e.g. 'tools/call "book_table"'. */
  from: string;
  signal: AbortSignal;
}

const DECLINE = ':decline';
const CANCEL = ':cancel';

/**
 * Asks for each field of a form-mode elicitation in turn, re-asking until the answer fits.
 * ":decline" refuses the whole form, ":cancel" (or Ctrl-D, or Ctrl-C) abandons it.
 */
export async function fillForm(params: ElicitParams, terminal: Terminal, options: PromptOptions): Promise<ElicitResult> {
  const fields = fieldsOf(params.requestedSchema);
  terminal.write(
    `\nThe server asks for input (${printable(options.from)}):\n  ${printable(params.message)}\n` +
      `Answer each field; Enter keeps the [default]. Type ${DECLINE} to refuse, ${CANCEL} or Ctrl-D to stop.\n`,
  );
  const content: Record<string, FieldValue> = {};
  for (const field of fields) {
    terminal.write(fieldIntro(field));
    for (;;) {
      const line = await terminal.ask(promptFor(field), options.signal);
      if (line === null || line.trim() === CANCEL) return { action: 'cancel' };
      if (line.trim() === DECLINE) return { action: 'decline' };
      if (line.trim() === '') {
        if (field.default !== undefined) {
          const fallback = check(field, field.default);
          if (fallback.ok) {
            content[field.name] = fallback.value;
            break;
          }
          terminal.write(`  ✗ the server's default for ${printable(field.label)} is invalid (${fallback.problem}); type a value\n`);
          continue;
        }
        if (!field.required) break;
        terminal.write(`  ✗ ${printable(field.label)} is required; type a value, or ${DECLINE} / ${CANCEL}\n`);
        continue;
      }
      const answer = parseTyped(field, line);
      if (answer.ok) {
        content[field.name] = answer.value;
        break;
      }
      terminal.write(`  ✗ ${printable(field.label)}: ${answer.problem}. Try again.\n`);
    }
  }
  terminal.write(`Sending: ${printable(JSON.stringify(content))}\n`);
  return { action: 'accept', content };
}

function fieldIntro(field: Field): string {
  const lines = [`\n${printable(field.label)}${field.required ? ' (required)' : ' (optional)'} — ${expects(field)}`];
  if (field.description) lines.push(`  ${printable(field.description)}`);
  if (field.kind === 'choice' || field.kind === 'choices') {
    field.choices.forEach((c, i) => lines.push(`  ${i + 1}) ${printable(c.label)}`));
  }
  return lines.join('\n') + '\n';
}

function promptFor(field: Field): string {
  const shown = defaultShown(field);
  return `${printable(field.label)}${shown === undefined ? '' : ` [${printable(shown)}]`}: `;
}

function defaultShown(field: Field): string | undefined {
  switch (field.kind) {
    case 'boolean':
      return field.default === undefined ? undefined : field.default ? 'y' : 'n';
    case 'choice': {
      const at = field.choices.findIndex((c) => c.value === field.default);
      return at < 0 ? field.default : `${at + 1}) ${field.choices[at].label}`;
    }
    case 'choices':
      return field.default
        ?.map((v) => {
          const at = field.choices.findIndex((c) => c.value === v);
          return at < 0 ? v : String(at + 1);
        })
        .join(',');
    default:
      return field.default === undefined ? undefined : String(field.default);
  }
}
