import type { ElicitResult } from '@byhand/client';
import type { Field } from './form-fields.js';

export const MASK = '***';

/**
 * The secrets typed into forms (or read from an answers file) during this command, so that every
 * line the command prints about them (confirmations, narration, --trace, errors) shows *** instead.
 */
export class Secrets {
  readonly #values = new Set<string>();

  /** Remembers the secret fields' values of an accepted answer. */
  remember(fields: Field[], result: ElicitResult): void {
    if (result.action !== 'accept') return;
    for (const field of fields) {
      const value = result.content?.[field.name];
      if (field.secret && value !== undefined && String(value) !== '') this.#values.add(String(value));
    }
  }

  /** The answer as it may be shown: secret fields as ***. */
  static masked(fields: Field[], result: ElicitResult): ElicitResult {
    if (result.action !== 'accept' || !result.content) return result;
    const content = { ...result.content };
    for (const field of fields) if (field.secret && field.name in content) content[field.name] = MASK;
    return { ...result, content };
  }

  /** Text with every remembered secret replaced by ***, raw or as it appears inside a JSON string. */
  mask(text: string): string {
    let out = text;
    for (const value of this.#values) {
      for (const form of new Set([value, JSON.stringify(value).slice(1, -1)])) {
        // At word edges only, so a PIN 1234 masks the value "1234" but not a port 41234.
        const pattern = `${/^\w/.test(form) ? '(?<!\\w)' : ''}${escape(form)}${/\w$/.test(form) ? '(?!\\w)' : ''}`;
        out = out.replace(new RegExp(pattern, 'g'), MASK);
      }
    }
    return out;
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
