// Secrets never reach output. One rule, for HTTP header names and URL query keys alike, used by every
// trace, error message and report: a name is secret when it mentions auth, cookie, token, secret,
// password (passphrase), credential, signature or DPoP, or is a key (api-key, x-api-key, apikey,
// access_key, key, private-key) or a signature (sig). Values under such names print as "(redacted)";
// so does a URL's whole userinfo, the user too: a token is often the user (https://TOKEN@host, an API key
// as a Basic user with an empty password). Query strings and fragments are redacted alike.

const SECRET_NAME = /auth|cookie|token|secret|pass(?:w|phrase)|credential|signature|dpop|api-?_?key|access-?_?key|(?:^|[-_.])(?:key|sig)(?:$|[-_.])/i;

export const REDACTED = '(redacted)';

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = isSecretName(name) ? REDACTED : value;
  return out;
}

/**
 * The URL with its secret query (and fragment) values and its userinfo replaced, everything
 * else left byte for byte as written; text that is no URL is returned as is.
 */
export function redactUrl(text: string): string {
  try {
    new URL(text);
  } catch {
    return text;
  }
  const hash = text.indexOf('#');
  const beforeHash = hash < 0 ? text : text.slice(0, hash);
  const query = beforeHash.indexOf('?');
  const base = query < 0 ? beforeHash : beforeHash.slice(0, query);
  // userinfo: scheme://user:password@host, all of it.
  let out = base.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]+@/i, `$1${REDACTED}@`);
  if (query >= 0) out += `?${redactPairs(beforeHash.slice(query + 1))}`;
  // A fragment can carry tokens too (the implicit grant's #access_token=…).
  if (hash >= 0) out += `#${redactPairs(text.slice(hash + 1))}`;
  return out;
}

/** key=value pairs joined by '&': the values of secret keys replaced, the rest untouched. */
function redactPairs(pairs: string): string {
  return pairs
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      return isSecretName(decodeKey(pair.slice(0, eq))) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
}

function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}

/** Every URL inside free text (an error message, a server's stderr, a trace line) redacted by the same rule. */
export function redactText(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (found) => {
    const url = withoutTrailingPunctuation(found);
    return redactUrl(url) + found.slice(url.length);
  });
}

/** Punctuation that ends a sentence is not part of the URL before it, nor a ')' that closes a parenthesis opened before the URL. */
function withoutTrailingPunctuation(found: string): string {
  let url = found;
  for (;;) {
    const last = url.at(-1);
    const unbalanced = last === ')' && url.split(')').length > url.split('(').length;
    if (!(last && (/[.,;:!?\]}]/.test(last) || unbalanced))) return url;
    url = url.slice(0, -1);
  }
}
