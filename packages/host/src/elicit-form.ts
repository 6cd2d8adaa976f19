import type { ElicitParams, ElicitResult } from '@byhand/client';
import { noAnswer } from './answers-file.js';
import { check, expects, fieldsOf, parseTyped, type Field, type FieldValue } from './form-fields.js';
import { MASK, Secrets } from './secrets.js';
import { printable, type Terminal } from './terminal.js';

export interface PromptOptions {
  /** Who is asking, e.g. 'tools/call "book_table"'. */
  from: string;
  /** The input request's key, for the error that names --answers. */
  key: string;
  /** How many times in a row the server has asked this same request (InputContext.again). */
  again: number;
  signal: AbortSignal;
}

const DECLINE = ':decline';
const CANCEL = ':cancel';

/**
 * Asks for each field of a form-mode elicitation in turn, re-asking until the answer fits.
 * ":decline" refuses the whole form, ":cancel" (or Ctrl-D) abandons it; Ctrl-C interrupts the
 * command. With no terminal, running out of input is an error that names --answers.
 */
export async function fillForm(params: ElicitParams, terminal: Terminal, options: PromptOptions): Promise<ElicitResult> {
  const fields = fieldsOf(params.requestedSchema);
  const again =
    options.again > 0
      ? `The server asks again for the same form (${ordinal(options.again + 1)} time in a row): it did not take the last answer, or did not read it.\n`
      : '';
  terminal.write(
    `\n${again}The server asks for input (${printable(options.from)}):\n  ${printable(params.message)}\n` +
      `Answer each field; Enter keeps the [default]. Type ${DECLINE} to refuse, ${CANCEL} or Ctrl-D to stop, Ctrl-C to stop the command.\n`,
  );
  const content: Record<string, FieldValue> = {};
  for (const field of fields) {
    terminal.write(fieldIntro(field));
    for (;;) {
      const line = await terminal.ask(promptFor(field), options.signal, { secret: field.secret });
      if (line === null && !terminal.interactive) throw noAnswer(params, options.key, options.from);
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
  const result: ElicitResult = { action: 'accept', content };
  terminal.write(`Sending: ${printable(JSON.stringify(Secrets.masked(fields, result).content))}\n`);
  return result;
}

function ordinal(n: number): string {
  return n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;
}

function fieldIntro(field: Field): string {
  const lines = [`\n${printable(field.label)}${field.required ? ' (required)' : ' (optional)'} — ${expects(field)}`];
  if (field.description) lines.push(`  ${printable(field.description)}`);
  if (field.secret) {
    lines.push(
      '  ! this looks like a secret (a password, token or PIN). Servers must not ask for secrets in a form (MCP spec,',
      `    elicitation); type it only if you trust this server. It is not shown as you type, and shows as ${MASK} afterwards.`,
    );
  }
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
  if (field.secret && field.default !== undefined) return MASK;
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
