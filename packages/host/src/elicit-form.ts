import type { ElicitParams, ElicitResult } from '@byhand/client';
import { check, expects, fieldsOf, parseTyped, type Field, type FieldValue } from './form-fields.js';
import { printable, type Terminal } from './terminal.js';

export interface PromptOptions {
  /** Who is asking, e.g. 'tools/call "book_table"'. */
  from: string;
  signal: AbortSignal;
  /** 2 or more when the server asked the same question again. */
  attempt?: number;
}

/** A field that names a secret: read without echo, never shown back. The spec says form mode must not ask for these. */
export function isSecretField(field: Field): boolean {
  const said = [field.name, field.label, field.description ?? '', field.declaredFormat ?? ''].join(' ');
  return /pass(word|phrase|code)?|secret|token|\bpin\b|api[-_ ]?key|credential/i.test(said);
}

const DECLINE = ':decline';
const CANCEL = ':cancel';

/**
 * Asks for each field of a form-mode elicitation in turn, re-asking until the answer fits.
 * ":decline" refuses the whole form, ":cancel" (or Ctrl-D, or Ctrl-C) abandons it.
 */
export async function fillForm(params: ElicitParams, terminal: Terminal, options: PromptOptions): Promise<ElicitResult> {
  const fields = fieldsOf(params.requestedSchema);
  const again = (options.attempt ?? 1) > 1 ? ` — it asks again (attempt ${options.attempt}): it did not accept the last answer` : '';
  terminal.write(
    `\nThe server asks for input (${printable(options.from)})${again}:\n  ${printable(params.message)}\n` +
      `Answer each field; Enter keeps the [default]. Type ${DECLINE} to refuse, ${CANCEL} or Ctrl-D to stop, Ctrl-C to stop the command.\n`,
  );
  const content: Record<string, FieldValue> = {};
  const secrets = new Set<string>();
  for (const field of fields) {
    const secret = isSecretField(field);
    if (secret) secrets.add(field.name);
    terminal.write(fieldIntro(field));
    if (secret) {
      terminal.write('  ⚠ this looks like a password or other secret. MCP servers must not ask for secrets in a form (spec: elicitation, form mode); it will not be shown.\n');
    }
    for (;;) {
      const line = await terminal.ask(promptFor(field), options.signal, secret);
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
  terminal.write(`Sending: ${printable(JSON.stringify(content, (key, value) => (key !== '' && secrets.has(key) ? '***' : value)))}\n`);
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
