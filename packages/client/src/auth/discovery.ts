// Finding the authorization server (spec 2026-07-28 basic/authorization/authorization-server-discovery):
// Protected Resource Metadata (RFC 9728) from the challenge's resource_metadata, else the path-based
// well-known URI, else the root one; then Authorization Server Metadata (RFC 8414, OpenID Discovery)
// in the spec's order, each document's issuer checked against the issuer it was built from.

import { fromReadableStream, readText } from '../transport/bytes.js';
import { LimitError } from '../errors.js';
import { AuthError } from './errors.js';
import { isLoopback, requireSecureMetadata } from './transport-security.js';


export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  [key: string]: unknown;
}

export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  response_types_supported?: string[];
  grant_types_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  authorization_response_iss_parameter_supported?: boolean;
  client_id_metadata_document_supported?: boolean;
  [key: string]: unknown;
}

export type Fetch = typeof fetch;

const METADATA_MAX_BYTES = 1024 * 1024;
export type Note = (text: string) => void;

/** The Protected Resource Metadata document's URLs to try, best first. */
export function resourceMetadataUrls(serverUrl: string, fromChallenge?: string): string[] {
  const url = new URL(serverUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const urls: string[] = [];
  if (fromChallenge) {
    try {
      urls.push(new URL(fromChallenge, url).href);
    } catch {
      // an unparsable resource_metadata is as good as none
    }
  }
  if (path) urls.push(`${url.origin}/.well-known/oauth-protected-resource${path}`);
  urls.push(`${url.origin}/.well-known/oauth-protected-resource`);
  return [...new Set(urls)];
}

/** The Protected Resource Metadata, or undefined when the server publishes none (a 2025-03-26 server: backcompat.ts). */
export async function fetchResourceMetadata(serverUrl: string, fromChallenge: string | undefined, fetchFn: Fetch, signal: AbortSignal, note: Note): Promise<{ metadata: ProtectedResourceMetadata; url: string } | undefined> {
  const tried: string[] = [];
  for (const url of resourceMetadataUrls(serverUrl, fromChallenge)) {
    requireSecureMetadata(url);
    const response = await getJson(url, fetchFn, signal);
    tried.push(`${url} (${response.status || 'unreachable'})`);
    if (!response.ok) continue;
    requireSecureMetadata(response.url);
    const doc = response.json as Partial<ProtectedResourceMetadata> | undefined;
    if (!doc || typeof doc !== 'object' || typeof doc.resource !== 'string') {
      throw new AuthError('discovery', `the protected resource metadata at ${url} has no "resource"`, 'the MCP server publishes broken OAuth metadata (RFC 9728): tell its operator');
    }
    const servers = Array.isArray(doc.authorization_servers) ? doc.authorization_servers.filter((s): s is string => typeof s === 'string') : [];
    if (servers.length === 0) {
      throw new AuthError('discovery', `the protected resource metadata at ${url} names no authorization server`, 'the MCP server publishes no "authorization_servers": tell its operator');
    }
    note(`protected resource metadata from ${url}`);
    return { metadata: { ...doc, resource: doc.resource, authorization_servers: servers }, url };
  }
  note(`no protected resource metadata (tried ${tried.join(', ')})`);
  return undefined;
}

/**
 * The resource in the metadata must be the server we asked (RFC 9728 §3.3, §7.3): the same origin,
 * and a path that is the server's or a parent of it. A mismatch is refused before anything is sent
 * anywhere else.
 */
export function checkResource(serverUrl: string, resource: string): void {
  try {
    new URL(resource);
  } catch {
    throw new AuthError('resource-mismatch', `the protected resource metadata names ${JSON.stringify(resource)}, which is not a URL`, 'the MCP server publishes broken OAuth metadata: tell its operator');
  }
  if (!covers(serverUrl, resource)) {
    throw new AuthError(
      'resource-mismatch',
      `the protected resource metadata of ${serverUrl} is for another resource (${resource})`,
      'refused: a token for that resource must not be requested for this server; the server is misconfigured or something in between is not what it claims',
    );
  }
}

/** Whether a token for `resource` may be sent to `serverUrl`: same origin, and the server at or below its path. */
export function covers(serverUrl: string, resource: string): boolean {
  let ours: URL;
  let theirs: URL;
  try {
    ours = new URL(serverUrl);
    theirs = new URL(resource);
  } catch {
    return false;
  }
  const base = theirs.pathname.replace(/\/+$/, '');
  const path = ours.pathname.replace(/\/+$/, '');
  return ours.origin === theirs.origin && !theirs.hash && (path === base || path.startsWith(`${base}/`));
}

/**
 * Whether the server publishes OAuth metadata, so that a login could get it a token: protected resource metadata
 * (RFC 9728, where the challenge or the well-known paths say), or the 2025-03-26 authorization server metadata at
 * its origin (backcompat.ts). A refused credential is only worth replacing by a login when this holds.
 */
export async function advertisesOAuth(serverUrl: string, fromChallenge: string | undefined, signal: AbortSignal, fetchFn: Fetch = (input, init) => fetch(input, init)): Promise<boolean> {
  const urls = [...resourceMetadataUrls(serverUrl, fromChallenge), `${new URL(serverUrl).origin}/.well-known/oauth-authorization-server`];
  for (const url of urls) {
    const answer = await getJson(url, fetchFn, signal).catch(() => undefined);
    if (answer?.ok && typeof answer.json === 'object' && answer.json !== null) return true;
  }
  return false;
}

/** Authorization Server Metadata URLs for an issuer, in the spec's order. */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  if (!path) return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

export async function fetchAuthorizationServerMetadata(issuer: string, fetchFn: Fetch, signal: AbortSignal, note: Note): Promise<AuthorizationServerMetadata> {
  requireSecure(issuer, 'authorization server');
  const tried: string[] = [];
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const response = await getJson(url, fetchFn, signal);
    tried.push(`${url} (${response.status || 'unreachable'})`);
    if (!response.ok) continue;
    const doc = response.json as Partial<AuthorizationServerMetadata> | undefined;
    if (!doc || typeof doc !== 'object') continue;
    // RFC 8414 §3.3 / OpenID Discovery §4.3: identical, by simple string comparison, or not used at all.
    if (doc.issuer !== issuer) {
      throw new AuthError(
        'issuer-mismatch',
        `the authorization server metadata at ${url} claims issuer ${JSON.stringify(doc.issuer)}, not ${issuer}`,
        'refused (RFC 8414 §3.3): the metadata is not that authorization server\'s own; it is misconfigured or impersonated',
      );
    }
    if (typeof doc.authorization_endpoint !== 'string' || typeof doc.token_endpoint !== 'string') {
      throw new AuthError('discovery', `the authorization server metadata at ${url} lacks authorization_endpoint or token_endpoint`, 'the authorization server publishes incomplete metadata: tell its operator');
    }
    for (const key of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const) {
      if (typeof doc[key] === 'string') requireSecure(doc[key], key.replace('_', ' '));
    }
    note(`authorization server metadata from ${url}`);
    return doc as AuthorizationServerMetadata;
  }
  throw new AuthError('discovery', `no authorization server metadata for ${issuer} (tried ${tried.join(', ')})`, 'the authorization server named by the MCP server publishes no RFC 8414 or OpenID metadata; check that it is up');
}

/** OAuth endpoints are https, or loopback for local development (OAuth 2.1 §1.5). */
export function requireSecure(url: string, what: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AuthError('discovery', `the ${what} ${JSON.stringify(url)} is not a URL`, 'the OAuth metadata is broken: tell the server\'s operator');
  }
  if (parsed.protocol === 'https:') return;
  if (parsed.protocol === 'http:' && isLoopback(parsed.hostname)) return;
  throw new AuthError('insecure', `the ${what} ${parsed.origin} is not https`, 'refused: OAuth endpoints must use https (plain http is accepted only on localhost)');
}

/** `url` is where the document finally came from, after any redirect. */
export async function getJson(url: string, fetchFn: Fetch, signal: AbortSignal): Promise<{ ok: boolean; status: number; url: string; json?: unknown }> {
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { Accept: 'application/json' }, signal, redirect: 'follow' });
  } catch (error) {
    if (signal.aborted) throw error;
    return { ok: false, status: 0, url };
  }
  const final = response.url || url;
  // Metadata is a few KB: a server that streams more is cut off (a LimitError), not read whole.
  const text = response.body ? await readText(fromReadableStream(response.body), METADATA_MAX_BYTES, `the metadata at ${url}`).catch((error: unknown) => {
    if (error instanceof LimitError) throw error;
    return '';
  }) : '';
  if (!response.ok) return { ok: false, status: response.status, url: final };
  try {
    return { ok: true, status: response.status, url: final, json: JSON.parse(text) };
  } catch {
    return { ok: false, status: response.status, url: final };
  }
}
