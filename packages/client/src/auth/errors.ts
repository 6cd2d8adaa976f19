// Authorization failures. Every one is an McpError with code 'auth' and a hint a person can act on.
// No message, hint or data ever carries a token, an authorization code, a verifier or a secret:
// what the authorization server said is passed through `scrub` with the secrets of the flow.

import { McpError, truncate } from '../errors.js';

export type AuthFailure =
  | 'discovery' // protected resource or authorization server metadata missing or invalid
  | 'resource-mismatch' // the metadata names another resource than the server asked
  | 'issuer-mismatch' // metadata issuer or the redirect's iss differs from the recorded issuer
  | 'insecure' // an authorization server endpoint that is neither https nor loopback
  | 'pkce' // the authorization server does not support S256
  | 'registration' // no way to get a client_id, or the registration was refused
  | 'state' // the redirect's state differs from the one sent
  | 'denied' // the authorization server answered the redirect with an error
  | 'token' // the token endpoint refused or answered nonsense
  | 'scope' // step-up did not help
  | 'login-required' // stored-token mode with nothing usable
  | 'browser'; // the browser step failed or timed out

export class AuthError extends McpError {
  readonly reason: AuthFailure;
  constructor(reason: AuthFailure, message: string, hint: string, options?: { cause?: unknown }) {
    super('auth', message, hint, { reason }, options);
    this.name = 'AuthError';
    this.reason = reason;
  }
}

/** Text from the other side, shortened, with every known secret replaced. */
export function scrub(text: string, secrets: Iterable<string | undefined>): string {
  let out = truncate(text, 200);
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join('(redacted)');
  return out;
}
