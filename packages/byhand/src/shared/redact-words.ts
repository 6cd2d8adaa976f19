// A command line printed back (the checkpoint's "what it probed", call's first line, error messages) must not show the
// secrets people pass to stdio servers as words: `--api-key VALUE`, `--token=VALUE`, `API_KEY=VALUE`,
// `Authorization: Bearer VALUE`. Names are judged by the client's one rule (packages/client/src/redact.ts
// isSecretName); URLs by its redactText.

import { isSecretName, REDACTED, redactText } from '@byhand/client';

/** `--name=value`, `-n=value`, `NAME=value`, `Name:value` (a header given as one word). */
const PAIR = /^(-{0,2}[A-Za-z_][\w.-]*)([=:])(.+)$/;
/** `--name`, `Name:`: the value is the next word. */
const NAMES_NEXT = /^(?:-{1,2}([^=\s]+)|([A-Za-z_][\w.-]*):)$/;
/** An auth scheme: the credential is the next word (a trailing backslash escaped the space between them). */
const SCHEME = /^(bearer|basic|dpop)\\?$/i;

/** The text with every URL redacted and every secret-named word's value replaced; spacing and quotes kept. */
export function redactWords(text: string): string {
  let hideNext = false;
  /** The quote a hidden value opened and has not closed yet: its words are hidden up to the closing one. */
  let hidingUntil = '';
  const out: string[] = [];
  for (const part of redactText(text).split(/(\s+)/)) out.push(word(part));
  return out.join('');

  function word(part: string): string {
    if (part.trim() === '') return part;
    if (hidingUntil !== '') {
      // The words inside the quote go, with the space before each.
      out.pop();
      if (!part.endsWith(hidingUntil)) return '';
      hidingUntil = '';
      return part.at(-1)!;
    }
    const [, open = '', bare = part, close = ''] = /^(['"]?)(.*?)(['"]?)$/s.exec(part) ?? [];
    if (hideNext) {
      if (open !== '' && close === '' && !SCHEME.test(bare)) {
        hideNext = false;
        hidingUntil = open;
        return `${open}${REDACTED}`;
      }
      // "Authorization: Bearer x" names a scheme first; the secret is the word after it.
      hideNext = SCHEME.test(bare);
      return hideNext ? part : `${open}${REDACTED}${close}`;
    }
    const pair = PAIR.exec(bare);
    if (pair && !pair[3].startsWith('//')) {
      if (!isSecretName(pair[1].replace(/^-+/, ''))) return part;
      hideNext = SCHEME.test(pair[3]);
      return hideNext ? part : `${open}${pair[1]}${pair[2]}${REDACTED}${close}`;
    }
    const named = NAMES_NEXT.exec(bare);
    hideNext = named ? isSecretName(named[1] ?? named[2]) : SCHEME.test(bare);
    return part;
  }
}
