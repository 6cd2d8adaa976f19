// Where a bearer token may travel: a token, and the Protected Resource Metadata that decides where
// tokens go, move only over https, or over plain http to loopback for local development. Anyone on
// the path of a plain http request can read a token or rewrite the metadata (RFC 6750 §5.3: bearer
// tokens only over TLS; OAuth 2.1 §1.5 "Communication Security", which the MCP authorization spec
// requires implementations to follow).

import { AuthError } from './errors.js';

export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Whether `url` is https, or http to this machine. */
export function isSecureTransport(url: string | URL): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopback(parsed.hostname));
}

/** Refuses to put a bearer token on a request to `url` unless it travels over https or stays on this machine. */
export function requireSecureTokenTarget(url: string): void {
  if (isSecureTransport(url)) return;
  throw new AuthError(
    'insecure',
    `refusing to send an access token to ${originOf(url)} over plain http`,
    'anyone on the network path could read it: use the server\'s https URL (plain http is accepted only for localhost and 127.0.0.1)',
  );
}

/** Refuses Protected Resource Metadata fetched (or redirected to) over plain http from another host: it decides where tokens go. */
export function requireSecureMetadata(url: string): void {
  if (isSecureTransport(url)) return;
  throw new AuthError(
    'insecure',
    `refusing the protected resource metadata at ${originOf(url)}: it is served over plain http`,
    'metadata over plain http can be rewritten on the way and would send the login, and the token, elsewhere: the server must publish it over https (plain http is accepted only for localhost and 127.0.0.1)',
  );
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return JSON.stringify(url);
  }
}
