// Secrets never reach output. One rule, for HTTP header names and URL query keys alike, used by every
// trace, error message and report: a name is secret when it mentions auth, cookie, token, secret,
// password, credential, signature or DPoP, or is a key (api-key, x-api-key, apikey, access_key, key).
// Values under such names print as "(redacted)"; so does the password of a URL's userinfo.

const SECRET_NAME = /auth|cookie|token|secret|passw|credential|signature|dpop|api-?_?key|access-?_?key|(?:^|[-_.])key(?:$|[-_.])/i;

export const REDACTED = '(redacted)';

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = isSecretName(name) ? REDACTED : value;
  return out;
}

/** The URL with its secret query values and userinfo password replaced; text that is no URL is returned as is. */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  let changed = false;
  if (url.password) {
    url.password = 'redacted';
    changed = true;
  }
  for (const key of new Set(url.searchParams.keys())) {
    if (!isSecretName(key)) continue;
    url.searchParams.set(key, REDACTED);
    changed = true;
  }
  return changed ? url.href : text;
}

/** Every URL inside free text (an error message, a server's stderr) redacted by the same rule. */
export function redactText(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (url) => redactUrl(url));
}
