// The 2025-03-26 authorization discovery, for servers that publish no Protected Resource Metadata
// (spec 2025-03-26 basic/authorization §2.3.2 "Server Metadata Discovery", §2.3.3 "Fallbacks for
// Servers without Metadata Discovery"): the authorization base URL is the MCP server's URL without
// its path; its RFC 8414 metadata is at /.well-known/oauth-authorization-server there, and without
// it the endpoints are /authorize, /token and /register at that origin.

import { getJson, requireSecure, type AuthorizationServerMetadata, type Fetch, type Note, type ProtectedResourceMetadata } from './discovery.js';

export async function legacyDiscovery(serverUrl: string, fetchFn: Fetch, signal: AbortSignal, note: Note): Promise<{ prm: ProtectedResourceMetadata; as: AuthorizationServerMetadata }> {
  const url = new URL(serverUrl);
  const base = url.origin;
  requireSecure(base, 'authorization base URL');
  // The token is still for this server only (RFC 8707), named by its own URL.
  const resource = `${base}${url.pathname}`;
  const metadataUrl = `${base}/.well-known/oauth-authorization-server`;
  const response = await getJson(metadataUrl, fetchFn, signal);
  const doc = response.ok ? (response.json as Partial<AuthorizationServerMetadata> | undefined) : undefined;
  if (doc && typeof doc === 'object' && typeof doc.authorization_endpoint === 'string' && typeof doc.token_endpoint === 'string') {
    // 2025-03-26 named no issuer to compare with: the document is the server's own (same origin),
    // and its issuer, if on that origin, is what the redirect's iss is then checked against.
    const issuer = typeof doc.issuer === 'string' && sameOrigin(doc.issuer, base) ? doc.issuer : base;
    for (const key of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const) {
      if (typeof doc[key] === 'string') requireSecure(doc[key], key.replace('_', ' '));
    }
    note(`no protected resource metadata: using the 2025-03-26 authorization server metadata at ${metadataUrl}`);
    return { prm: { resource, authorization_servers: [issuer] }, as: { ...(doc as AuthorizationServerMetadata), issuer } };
  }
  note(`no protected resource or authorization server metadata: using the 2025-03-26 default endpoints at ${base}`);
  return {
    prm: { resource, authorization_servers: [base] },
    // PKCE S256 was already required in 2025-03-26, so it is assumed rather than advertised here.
    as: { issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, registration_endpoint: `${base}/register`, code_challenge_methods_supported: ['S256'] },
  };
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
