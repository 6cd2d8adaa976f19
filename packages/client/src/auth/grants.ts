// The grants that need no browser, each a set of token request parameters (the client's own
// authentication is added by the token request, as for every grant):
//   client credentials (OAuth 2.1 §4.2; MCP extension oauth-client-credentials, SEP-1046),
//   a JWT bearer assertion from the workload's platform (RFC 7523 §2.1; workload identity, SEP-1933),
//   enterprise-managed authorization (SEP-990): the IdP's ID token exchanged at the IdP for an
//   ID-JAG (RFC 8693 token exchange), which is then the JWT bearer assertion at the MCP server's
//   authorization server.

import { AuthError, scrub } from './errors.js';

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

export type OAuthGrant =
  | { type: 'client_credentials' }
  | {
      type: 'jwt_bearer';
      /** The workload's JWT for this audience (the authorization server's issuer), e.g. read from a projected token file. */
      assertion: (audience: string, signal: AbortSignal) => string | Promise<string>;
    }
  | {
      type: 'enterprise';
      /** The user's ID token from the enterprise IdP (how it was obtained is the IdP's business). */
      idToken: (signal: AbortSignal) => string | Promise<string>;
      /** The IdP's token endpoint, and byhand's client there. */
      idp: { tokenEndpoint: string; clientId: string; clientSecret?: string };
    };

export interface GrantContext {
  /** The issuer of the MCP server's authorization server: the assertion's and ID-JAG's audience. */
  issuer: string;
  resource: string;
  scope: string | undefined;
  signal: AbortSignal;
  post: (url: string, headers: Record<string, string>, body: URLSearchParams) => Promise<Response>;
  note: (text: string) => void;
}

/** The token request for `grant`, and the secrets it carries (never to be printed). */
export async function grantRequest(grant: OAuthGrant, ctx: GrantContext): Promise<{ params: Record<string, string>; secrets: string[] }> {
  const scope: Record<string, string> = ctx.scope ? { scope: ctx.scope } : {};
  switch (grant.type) {
    case 'client_credentials':
      return { params: { grant_type: 'client_credentials', ...scope }, secrets: [] };
    case 'jwt_bearer': {
      const assertion = await grant.assertion(ctx.issuer, ctx.signal);
      return { params: { grant_type: JWT_BEARER, assertion, ...scope }, secrets: [assertion] };
    }
    case 'enterprise': {
      const idJag = await exchangeForIdJag(grant, ctx);
      return { params: { grant_type: JWT_BEARER, assertion: idJag, ...scope }, secrets: [idJag] };
    }
  }
}

/** RFC 8693 at the IdP: the ID token for an Identity Assertion JWT Authorization Grant aimed at the authorization server. */
async function exchangeForIdJag(grant: Extract<OAuthGrant, { type: 'enterprise' }>, ctx: GrantContext): Promise<string> {
  const idToken = await grant.idToken(ctx.signal);
  const { tokenEndpoint, clientId, clientSecret } = grant.idp;
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE,
    requested_token_type: ID_JAG,
    subject_token: idToken,
    subject_token_type: ID_TOKEN,
    audience: ctx.issuer,
    resource: ctx.resource,
    ...(ctx.scope ? { scope: ctx.scope } : {}),
  });
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
  if (clientSecret) headers.Authorization = `Basic ${btoa(`${formEncode(clientId)}:${formEncode(clientSecret)}`)}`;
  else body.set('client_id', clientId);
  ctx.note(`exchanging the ID token at ${new URL(tokenEndpoint).origin} for an ID-JAG for ${ctx.issuer}`);
  const response = await ctx.post(tokenEndpoint, headers, body);
  const json = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  const secrets = [idToken, clientSecret, typeof json?.access_token === 'string' ? json.access_token : undefined];
  if (!response.ok || typeof json?.access_token !== 'string') {
    const why = typeof json?.error === 'string' ? scrub(`${json.error}${typeof json.error_description === 'string' ? ` ${json.error_description}` : ''}`, secrets) : '';
    throw new AuthError('token', `the IdP's token exchange at ${new URL(tokenEndpoint).origin} failed (HTTP ${response.status}${why ? `: ${why}` : ''})`, 'the enterprise IdP would not issue an ID-JAG for this authorization server: the ID token may have expired (sign in to the IdP again), or the IdP does not allow this client or resource');
  }
  if (json.issued_token_type !== ID_JAG) {
    throw new AuthError('token', `the IdP's token exchange issued ${JSON.stringify(json.issued_token_type)}, not an ID-JAG`, 'the IdP does not support enterprise-managed authorization (SEP-990) for this client');
  }
  return json.access_token;
}

export function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}
