// WWW-Authenticate (RFC 9110 §11.6.1, RFC 6750 §3): one or more challenges, each a scheme and
// either a token68 or comma-separated auth-params whose values are tokens or quoted strings.

export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** Every challenge in the header; scheme lower-cased, parameter names lower-cased. */
export function parseWwwAuthenticate(header: string | null | undefined): Challenge[] {
  const challenges: Challenge[] = [];
  if (!header) return challenges;
  const text = header;
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && /[\s]/.test(text[i])) i++;
  };
  const readToken = () => {
    const start = i;
    while (i < text.length && /[!#$%&'*+.^_`|~0-9A-Za-z-]/.test(text[i])) i++;
    return text.slice(start, i);
  };
  const readQuoted = () => {
    let out = '';
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\' && i + 1 < text.length) i++;
      out += text[i++];
    }
    i++; // closing quote
    return out;
  };
  let current: Challenge | undefined;
  while (i < text.length) {
    skipSpace();
    if (text[i] === ',') {
      i++;
      continue;
    }
    const token = readToken();
    if (!token) {
      i++; // stray character: skip it
      continue;
    }
    skipSpace();
    if (text[i] === '=' && current) {
      // auth-param (or a token68 ending in '='; we only need params)
      i++;
      skipSpace();
      const value = text[i] === '"' ? readQuoted() : readToken();
      current.params[token.toLowerCase()] = value;
      continue;
    }
    if (text[i] === '=' && !current) {
      i++; // malformed: a parameter before any scheme
      continue;
    }
    // A new scheme; what follows may be a token68 or params.
    current = { scheme: token.toLowerCase(), params: {} };
    challenges.push(current);
    // token68 (RFC 9110 §11.2): the whole rest of this challenge, up to a comma or the end.
    const token68 = /^\s*([A-Za-z0-9._~+/-]+=*)\s*(?:,|$)/.exec(text.slice(i));
    if (token68 && !/^\s*[A-Za-z0-9._~+/-]+\s*=\s*[^=,\s]/.test(text.slice(i))) {
      current.params.token68 = token68[1]!;
      i += token68[0].length;
    }
  }
  return challenges;
}

/** The Bearer challenge's parameters, or an empty object when there is none. */
export function bearerParams(header: string | null | undefined): Record<string, string> {
  return parseWwwAuthenticate(header).find((c) => c.scheme === 'bearer')?.params ?? {};
}

export function scopeSet(scope: string | undefined): string[] {
  return scope ? [...new Set(scope.split(/\s+/).filter(Boolean))] : [];
}
