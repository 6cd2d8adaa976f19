// OAuth for byhand's HTTP transport, by hand (spec 2026-07-28 basic/authorization): on a 401 the
// challenge leads to the Protected Resource Metadata, its resource is checked against the server,
// the authorization server's metadata is fetched and its issuer checked; the client is identified
// (pre-registered, a Client ID Metadata Document, or Dynamic Client Registration); then the
// authorization code flow with PKCE S256, state and the resource indicator, the redirect's iss
// checked (RFC 9207) before the code goes anywhere. Tokens are refreshed when they expire; a 403
// insufficient_scope asks once for the union of the scopes held and the scopes challenged.
// Without a browser, a configured grant (grants.ts) replaces the code flow; tokens may be DPoP-bound
// (dpop.ts); a server without Protected Resource Metadata gets the 2025-03-26 discovery (backcompat.ts).

import type { AuthRequest, HttpAuth } from '../transport/http/http.js';
import { legacyDiscovery } from './backcompat.js';
import { parseWwwAuthenticate, scopeSet } from './challenge.js';
import {
  checkResource, covers, fetchAuthorizationServerMetadata, fetchResourceMetadata,
  type AuthorizationServerMetadata, type Fetch, type ProtectedResourceMetadata,
} from './discovery.js';
import { createDpop, importDpopKey, type Dpop } from './dpop.js';
import { AuthError, scrub } from './errors.js';
import { formEncode, grantRequest, JWT_BEARER, type OAuthGrant } from './grants.js';
import { clientAssertion, importPrivateKey, type JwsAlgorithm } from './jwt.js';
import { createPkce, randomString } from './pkce.js';
import { requireSecureTokenTarget } from './transport-security.js';
import { memoryStore, serverKey, type CredentialDocument, type CredentialStore, type StoredClient, type StoredTokens } from './store.js';

export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** The key of a pre-registered client that authenticates with private_key_jwt (RFC 7523 §2.2). */
export interface ClientKey {
  /** A PKCS#8 PEM, or a Web Crypto signing key. */
  privateKey: string | CryptoKey;
  /** Default 'ES256'. */
  alg?: JwsAlgorithm;
  /** The key id the authorization server knows the public key by, if it needs one. */
  kid?: string;
}

export interface OAuthOptions {
  /**
   * The browser step: show `url` to the person (or a user agent), resolve with the URL the
   * authorization server redirected to (carrying code, state and iss). Without it the provider only
   * uses stored tokens (refreshing them), and a server that wants more throws an AuthError
   * whose hint says to log in.
   */
  authorize?: (url: URL, signal: AbortSignal) => Promise<URL>;
  /** Where the authorization server sends the browser back; required with `authorize`. */
  redirectUri?: string;
  /** A pre-registered client. Used as given, with whatever authorization server the server names, unless `clientIssuer` says whose it is. */
  clientId?: string;
  clientSecret?: string;
  /** The issuer the pre-registered client belongs to: with another one, the provider refuses (SEP-2352). */
  clientIssuer?: string;
  /** The pre-registered client's key for private_key_jwt (then the default method). */
  clientKey?: ClientKey;
  /** How to authenticate at the token endpoint; by default chosen from the server's list. */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /**
   * A grant that needs no browser, used instead of the authorization code flow: client credentials,
   * a workload's JWT (workload identity), or enterprise-managed authorization (ID-JAG).
   * client credentials and enterprise need `clientId` (with `clientSecret` or `clientKey`).
   */
  grant?: OAuthGrant;
  /**
   * DPoP-bound tokens (RFC 9449): true always asks for one, false never; 'auto' (default) asks when
   * the authorization server lists ES256 in dpop_signing_alg_values_supported and the MCP server
   * challenges with the DPoP scheme or says it takes DPoP in its metadata (RFC 9728 §2).
   */
  dpop?: boolean | 'auto';
  /**
   * The DPoP key pair (ES256). Default: one made by the provider, whose private key is stored with
   * the tokens bound to it (so another process can present them). A key given here is never stored.
   */
  dpopKey?: CryptoKeyPair;
  /**
   * The https URL of byhand's Client ID Metadata Document, used as client_id where the
   * authorization server advertises `client_id_metadata_document_supported`. The document must be
   * hosted there and list the redirect URIs (see `clientMetadataDocument`). Default: none, so
   * dynamic registration is used.
   */
  clientMetadataUrl?: string;
  /** Shown by the authorization server; default 'byhand'. */
  clientName?: string;
  /** For Dynamic Client Registration (SEP-837); default 'native' (a CLI on the user's machine). */
  applicationType?: 'native' | 'web';
  /** Scopes to ask for in addition to what the server asks. */
  scope?: string;
  /** Ask for offline_access (a refresh token) where the authorization server lists it. Default true. */
  offlineAccess?: boolean;
  store?: CredentialStore;
  fetch?: typeof fetch;
  /** The hint when a login is needed and `authorize` is absent, in the caller's terms (the CLI names `byhand login`). */
  loginHint?: (serverUrl: string) => string;
  /** What the provider is doing, in plain words, never with a secret in it. */
  onEvent?: (text: string) => void;
  /** The clock, for tests. */
  now?: () => number;
}

export interface OAuthProvider extends HttpAuth {
  /** The stored token for the request's URL, refreshed when it is about to expire; `{}` when none will do. */
  headers(request: AuthRequest): Promise<Record<string, string>>;
  /** Forget this server's tokens (registrations stay: they belong to the authorization server). */
  forget(serverUrl: string): Promise<void>;
  /** Whether a token is stored for this server, without revealing it. */
  status(serverUrl: string): Promise<{ issuer: string; expiresAt?: number; refreshable: boolean; scope?: string } | undefined>;
}

interface Discovered {
  prm: ProtectedResourceMetadata;
  resource: string;
  issuer: string;
  as: AuthorizationServerMetadata;
  /** Whether to ask for a DPoP-bound token. */
  dpop: boolean;
}

/** Refresh this long before the stated expiry. */
const EXPIRY_SKEW_MS = 30_000;

export function createOAuth(options: OAuthOptions = {}): OAuthProvider {
  return new OAuth(options);
}

/** The Client ID Metadata Document to host at `clientId` (draft-ietf-oauth-client-id-metadata-document). */
export function clientMetadataDocument(clientId: string, redirectUris: string[] = ['http://127.0.0.1/callback', 'http://localhost/callback'], clientName = 'byhand') {
  return {
    client_id: clientId,
    client_name: clientName,
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
  };
}

class OAuth implements OAuthProvider {
  private readonly store: CredentialStore;
  private readonly fetch: Fetch;
  private readonly now: () => number;
  private readonly note: (text: string) => void;
  /** The access token last put on a request to each server, to tell "refused" from "replaced". */
  private readonly lastSent = new Map<string, string>();
  /** Per server key, why the stored token was not sent, so asking for a login can say it. */
  private readonly unusable = new Map<string, string>();
  private readonly refreshTried = new Set<string>();
  private readonly stepUps = new Map<string, Set<string>>();
  private readonly metadata = new Map<string, AuthorizationServerMetadata>();
  private readonly dpop: Dpop;
  /** Signers for bound tokens whose key was stored with them, by thumbprint. */
  private readonly restored = new Map<string, Dpop>();
  private readonly nonces = new Map<string, string>();
  private signingKey: Promise<CryptoKey> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: OAuthOptions) {
    this.store = options.store ?? memoryStore();
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.now = options.now ?? Date.now;
    this.note = options.onEvent ?? (() => undefined);
    if (options.authorize && !options.redirectUri) throw new TypeError('createOAuth: redirectUri is required with authorize');
    if ((options.grant?.type === 'client_credentials' || options.grant?.type === 'enterprise') && !options.clientId) {
      throw new TypeError(`createOAuth: the ${options.grant.type} grant needs clientId`);
    }
    this.dpop = createDpop(options.dpopKey, this.now, this.nonces);
    if (options.clientMetadataUrl !== undefined) {
      const url = new URL(options.clientMetadataUrl);
      if (url.protocol !== 'https:' || url.pathname === '/') throw new TypeError('createOAuth: clientMetadataUrl must be an https URL with a path');
    }
  }

  async headers(request: AuthRequest): Promise<Record<string, string>> {
    const { url, method } = request;
    const key = serverKey(url);
    let doc = await this.store.read();
    let entry = doc.servers[key];
    let tokens: StoredTokens | undefined = entry?.tokens[entry.issuer];
    // Whatever the store says, a token goes only to the resource it was requested for.
    if (tokens && !covers(url, tokens.resource)) tokens = undefined;
    if (tokens && !(await this.presentable(tokens))) tokens = undefined;
    if (entry && tokens && this.expired(tokens)) {
      const why = this.expiry(tokens);
      if (!tokens.refresh_token) {
        this.unusable.set(key, why);
        tokens = undefined;
      } else {
        const stale = tokens;
        tokens = await this.locked(async (): Promise<StoredTokens | undefined> => {
          doc = await this.store.read();
          entry = doc.servers[key];
          const fresh = entry?.tokens[entry.issuer];
          if (!entry || !fresh) return undefined;
          if (fresh.access_token !== stale.access_token && !this.expired(fresh)) return fresh;
          return this.refresh(key, entry.issuer, fresh, request.signal).catch(() => undefined);
        });
        if (!tokens) this.unusable.set(key, `${why}, and refreshing it failed`);
      }
    }
    // A bound token is presented with a proof from its own key (refreshed ones too, so checked here).
    const signer = tokens?.dpop_jkt ? await this.signerFor(tokens) : undefined;
    if (!tokens || (tokens.dpop_jkt && !signer)) {
      this.lastSent.delete(key);
      return {};
    }
    requireSecureTokenTarget(url);
    this.unusable.delete(key);
    this.lastSent.set(key, tokens.access_token);
    if (!signer) return { Authorization: `Bearer ${tokens.access_token}` };
    return { Authorization: `DPoP ${tokens.access_token}`, DPoP: await signer.proof({ method, url, accessToken: tokens.access_token }) };
  }

  challenged(challenge: { status: number; headers: Headers; url: string }, signal: AbortSignal): Promise<boolean> {
    return this.locked(() => this.handle(challenge, signal));
  }

  /** RFC 9449 §8.2 (and §9 for a resource server): a new nonce may come on any answer; the next proof carries it. */
  answered({ header, url }: { header(name: string): string | null; url: string }): void {
    this.dpop.observe(url, { get: header });
  }

  async forget(serverUrl: string): Promise<void> {
    const key = serverKey(serverUrl);
    await this.store.update((doc) => void delete doc.servers[key]);
    this.lastSent.delete(key);
  }

  async status(serverUrl: string) {
    const entry = (await this.store.read()).servers[serverKey(serverUrl)];
    const tokens = entry?.tokens[entry.issuer];
    if (!entry || !tokens) return undefined;
    return { issuer: entry.issuer, refreshable: Boolean(tokens.refresh_token), ...(tokens.expires_at !== undefined ? { expiresAt: tokens.expires_at } : {}), ...(tokens.scope ? { scope: tokens.scope } : {}) };
  }

  private async handle({ status, headers, url }: { status: number; headers: Headers; url: string }, signal: AbortSignal): Promise<boolean> {
    const key = serverKey(url);
    const challenges = parseWwwAuthenticate(headers.get('www-authenticate'));
    const dpopChallenge = challenges.find((c) => c.scheme === 'dpop');
    // RFC 9449 §9: the resource server wants a nonce in the proof; one retry per new nonce.
    if (dpopChallenge?.params.error === 'use_dpop_nonce') return this.dpop.observe(url, headers);
    const params = (challenges.find((c) => c.scheme === 'bearer') ?? dpopChallenge)?.params ?? {};
    const sent = this.lastSent.get(key);
    const doc = await this.store.read();
    const current = currentTokens(doc, key);
    // Another request replaced the token while this one was refused: try again with the new one.
    if (current && current.access_token !== sent && !this.expired(current) && covers(url, current.resource) && (await this.presentable(current))) return true;

    const found = await this.discover(url, key, params.resource_metadata, doc, dpopChallenge !== undefined, signal);
    const stored = doc.servers[key]?.tokens[found.issuer];
    // Tokens requested for another resource than the one the server now names are not used, not even
    // refreshed; nor are tokens bound to a key this provider does not hold.
    const held = stored?.resource === found.resource && (await this.presentable(stored)) ? stored : undefined;

    if (status === 403) return this.stepUp(url, key, found, held, params, signal);

    if (held && held.access_token !== sent && !this.expired(held)) {
      await this.save(key, found, held);
      return true;
    }
    if (held?.refresh_token && !this.refreshTried.has(held.refresh_token)) {
      this.refreshTried.add(held.refresh_token);
      try {
        await this.refresh(key, found.issuer, held, signal);
        return true;
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        this.note(`the refresh token was not accepted (${error.message}); authorizing again`);
      }
    }
    const previous = held ? scopeSet(held.requested_scope) : [];
    const wanted = params.scope ? scopeSet(params.scope) : (found.prm.scopes_supported ?? []);
    await this.obtain(url, key, found, [...new Set([...wanted, ...previous])], signal);
    return true;
  }

  private async stepUp(url: string, key: string, found: Discovered, held: StoredTokens | undefined, params: Record<string, string>, signal: AbortSignal): Promise<boolean> {
    const challenged = scopeSet(params.scope);
    const previous = scopeSet(held?.requested_scope);
    const union = [...new Set([...previous, ...challenged])];
    const signature = [...union].sort().join(' ');
    const tried = this.stepUps.get(key) ?? new Set<string>();
    this.stepUps.set(key, tried);
    if (challenged.length > 0 && challenged.every((s) => previous.includes(s))) {
      throw new AuthError('scope', `${url} still answers insufficient_scope although the token was requested with ${params.scope}`, 'the authorization server granted less than asked, or the account lacks that permission: ask the server\'s operator');
    }
    if (tried.has(signature)) {
      throw new AuthError('scope', `${url} still answers insufficient_scope after authorizing ${signature || 'the challenged scopes'}`, 'giving up rather than asking again: the account may lack that permission');
    }
    tried.add(signature);
    this.note(`the server wants more scope (${params.scope ?? 'unnamed'}): authorizing again with ${signature}`);
    await this.obtain(url, key, found, union, signal);
    return true;
  }

  /** New tokens for these scopes: by the configured grant, else by the browser. */
  private obtain(url: string, key: string, found: Discovered, scopes: string[], signal: AbortSignal): Promise<void> {
    if (!this.options.grant) return this.authorizeFlow(url, key, found, this.withOffline(scopes, found.as), signal);
    // No offline_access: these grants are simply run again when the token expires (RFC 6749 §4.4.3).
    const all = [...new Set([...scopes, ...scopeSet(this.options.scope)])].filter((s) => s !== 'offline_access');
    return this.grantFlow(key, found, this.options.grant, all.length ? all.join(' ') : undefined, signal);
  }

  private async grantFlow(key: string, found: Discovered, grant: OAuthGrant, scope: string | undefined, signal: AbortSignal): Promise<void> {
    // A workload's JWT may be the only credential (RFC 7523 §3.1: client authentication is optional).
    const client: StoredClient = this.options.clientId ? this.preRegistered(found.issuer, found.as) : { client_id: '', token_endpoint_auth_method: 'none', via: 'pre-registered' };
    const post = (url: string, headers: Record<string, string>, body: URLSearchParams) => this.post(url, { headers, body: body.toString(), signal }, 'token');
    const request = await grantRequest(grant, { issuer: found.issuer, resource: found.resource, scope, signal, post, note: this.note });
    const tokens = await this.tokenRequest(found.as, client, found.resource, request.params, scope, signal, request.secrets, found.dpop ? this.dpop : undefined);
    await this.save(key, found, tokens);
    this.note(`${grant.type.replace('_', ' ')} grant from ${found.issuer}${tokens.dpop_jkt ? ' (DPoP-bound)' : ''}`);
  }

  private async discover(serverUrl: string, key: string, resourceMetadata: string | undefined, doc: CredentialDocument, dpopChallenged: boolean, signal: AbortSignal): Promise<Discovered> {
    const published = await fetchResourceMetadata(serverUrl, resourceMetadata, this.fetch, signal, this.note);
    if (!published) {
      const legacy = await legacyDiscovery(serverUrl, this.fetch, signal, this.note);
      const issuer = legacy.prm.authorization_servers[0];
      this.metadata.set(issuer, legacy.as);
      return { ...legacy, resource: legacy.prm.resource, issuer, dpop: this.wantsDpop(legacy.as, legacy.prm, dpopChallenged) };
    }
    const prm = published.metadata;
    checkResource(serverUrl, prm.resource);
    // Prefer an authorization server this server's tokens came from, else the first one listed.
    const tokens = doc.servers[key]?.tokens ?? {};
    const issuer = prm.authorization_servers.find((s) => tokens[s]) ?? prm.authorization_servers[0];
    let as = this.metadata.get(issuer);
    if (!as) {
      as = await fetchAuthorizationServerMetadata(issuer, this.fetch, signal, this.note);
      this.metadata.set(issuer, as);
    }
    return { prm, resource: prm.resource, issuer, as, dpop: this.wantsDpop(as, prm, dpopChallenged) };
  }

  private wantsDpop(as: AuthorizationServerMetadata, prm: ProtectedResourceMetadata, challenged: boolean): boolean {
    const mode = this.options.dpop ?? 'auto';
    if (mode !== 'auto') return mode;
    const es256 = (list: unknown) => Array.isArray(list) && list.includes('ES256');
    // RFC 9728 §2: the resource server's own DPoP fields count as much as a DPoP challenge.
    return es256(as.dpop_signing_alg_values_supported) && (challenged || prm.dpop_bound_access_tokens_required === true || es256(prm.dpop_signing_alg_values_supported));
  }

  private withOffline(scopes: string[], as: AuthorizationServerMetadata): string | undefined {
    const extra = scopeSet(this.options.scope);
    let all = [...new Set([...scopes, ...extra])];
    const offered = as.scopes_supported?.includes('offline_access') === true;
    if (!offered) all = all.filter((s) => s !== 'offline_access');
    else if (this.options.offlineAccess !== false && all.length > 0 && !all.includes('offline_access')) all.push('offline_access');
    return all.length ? all.join(' ') : undefined;
  }

  private async authorizeFlow(serverUrl: string, key: string, found: Discovered, scope: string | undefined, signal: AbortSignal): Promise<void> {
    const { authorize, redirectUri } = this.options;
    if (!authorize || !redirectUri) throw this.loginRequired(serverUrl, key);
    const { as, issuer } = found;
    const methods = as.code_challenge_methods_supported;
    if (!Array.isArray(methods) || !methods.includes('S256')) {
      throw new AuthError('pkce', `the authorization server ${issuer} does not list PKCE S256 in code_challenge_methods_supported`, 'refused: without PKCE an intercepted authorization code could be redeemed by someone else; the authorization server must support S256');
    }
    const client = await this.client(issuer, as, signal);
    const pkce = await createPkce();
    const state = randomString(32);
    const target = new URL(as.authorization_endpoint);
    const query = target.searchParams;
    query.set('response_type', 'code');
    query.set('client_id', client.client_id);
    query.set('redirect_uri', redirectUri);
    query.set('code_challenge', pkce.challenge);
    query.set('code_challenge_method', pkce.method);
    query.set('state', state);
    query.set('resource', found.resource);
    if (scope) query.set('scope', scope);
    this.note(`authorizing at ${target.origin}${target.pathname}${scope ? ` for ${scope}` : ''}`);

    let redirect: URL;
    try {
      redirect = await authorize(target, signal);
    } catch (error) {
      if (error instanceof AuthError) throw error;
      if (signal.aborted) throw error;
      throw new AuthError('browser', `the browser step did not finish: ${(error as Error).message}`, 'open the authorization URL again and complete the login; where no browser can run, let `authorize` print the URL and read back where the browser ended up', { cause: error });
    }
    const code = this.readRedirect(redirect, state, issuer, as.authorization_response_iss_parameter_supported === true, [pkce.verifier]);
    const tokens = await this.tokenRequest(as, client, found.resource, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: pkce.verifier }, scope, signal, [code, pkce.verifier], found.dpop ? this.dpop : undefined);
    await this.save(key, found, tokens);
    this.note(`authorized by ${issuer}${tokens.refresh_token ? ' (with a refresh token)' : ''}`);
  }

  /** The authorization response (RFC 6749 §4.1.2, RFC 9207 §2.4): the code, once everything else checks out. */
  private readRedirect(redirect: URL, state: string, issuer: string, issAdvertised: boolean, secrets: string[]): string {
    const expected = new URL(this.options.redirectUri!);
    if (redirect.origin !== expected.origin || redirect.pathname !== expected.pathname) {
      throw new AuthError('state', `the authorization response arrived at ${redirect.origin}${redirect.pathname}, not the redirect URI ${expected.origin}${expected.pathname}`, 'refused: paste the URL the browser was sent back to, from this login attempt');
    }
    const params = redirect.searchParams;
    if (params.get('state') !== state) {
      throw new AuthError('state', 'the authorization response does not carry the state this login sent', 'refused: the redirect is not from this login attempt (an old tab, or a forged link); start the login again');
    }
    const iss = params.get('iss');
    if (iss !== null && iss !== issuer) {
      throw new AuthError('issuer-mismatch', `the authorization response names issuer ${JSON.stringify(scrub(iss, secrets))}, not ${issuer}`, 'refused (RFC 9207): the response is from another authorization server than the one this login used, a possible mix-up attack; the code was not used');
    }
    if (iss === null && issAdvertised) {
      throw new AuthError('issuer-mismatch', `the authorization response carries no iss although ${issuer} says it always sends one`, 'refused (RFC 9207): the response cannot be tied to the authorization server; the code was not used');
    }
    const error = params.get('error');
    if (error !== null) {
      const description = params.get('error_description');
      throw new AuthError('denied', `the authorization server answered ${scrub(error, secrets)}${description ? `: ${scrub(description, secrets)}` : ''}`, error === 'access_denied' ? 'the login was declined; run it again to grant access' : 'the authorization server refused the request; its message says why');
    }
    const code = params.get('code');
    if (!code) throw new AuthError('denied', 'the authorization response carries no code', 'the authorization server did not complete the login; try again');
    return code;
  }

  private async client(issuer: string, as: AuthorizationServerMetadata, signal: AbortSignal): Promise<StoredClient> {
    const o = this.options;
    if (o.clientId) return this.preRegistered(issuer, as);
    if (o.clientMetadataUrl && as.client_id_metadata_document_supported === true) {
      this.note(`using the client metadata document ${o.clientMetadataUrl} as client_id`);
      return { client_id: o.clientMetadataUrl, token_endpoint_auth_method: 'none', via: 'cimd' };
    }
    const stored = (await this.store.read()).clients[issuer];
    if (stored && (!stored.redirect_uris || stored.redirect_uris.includes(o.redirectUri!))) return stored;
    if (!as.registration_endpoint) {
      throw new AuthError('registration', `the authorization server ${issuer} offers no way for byhand to register (no client metadata document support, no registration endpoint)`, 'register byhand with it yourself and pass the client id and secret as `clientId` and `clientSecret`');
    }
    return this.register(issuer, as, signal);
  }

  /** Dynamic Client Registration (RFC 7591; deprecated in 2026-07-28, kept for servers without CIMD). */
  private async register(issuer: string, as: AuthorizationServerMetadata, signal: AbortSignal): Promise<StoredClient> {
    const method = registrationMethod(as.token_endpoint_auth_methods_supported);
    const body = {
      client_name: this.options.clientName ?? 'byhand',
      redirect_uris: [this.options.redirectUri!],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: method,
      application_type: this.options.applicationType ?? 'native',
    };
    const endpoint = as.registration_endpoint!;
    const response = await this.post(endpoint, { headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body), signal }, 'registration');
    const json = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!response.ok || typeof json?.client_id !== 'string') {
      const why = oauthError(json, [typeof json?.client_secret === 'string' ? json.client_secret : undefined]);
      // A 404/405 here is most often the 2025-03-26 default /register of a server that publishes no OAuth metadata
      // at all (auth/backcompat.ts): it may not use OAuth, and want a token obtained some other way.
      const missing = response.status === 404 || response.status === 405;
      throw new AuthError(
        'registration',
        `dynamic client registration at ${endpoint} failed (HTTP ${response.status}${why ? `: ${why}` : ''})`,
        missing
          ? 'there is no registration endpoint there: if the server publishes no OAuth metadata, it may expect a token obtained elsewhere (send it in an Authorization header, `headers`), or register a client yourself and pass `clientId`'
          : 'the authorization server refused to register byhand (it may reject the loopback redirect URI or application_type "native"); register a client yourself and pass `clientId`',
      );
    }
    const answered = typeof json.token_endpoint_auth_method === 'string' ? json.token_endpoint_auth_method : undefined;
    const client: StoredClient = {
      client_id: json.client_id,
      ...(typeof json.client_secret === 'string' ? { client_secret: json.client_secret } : {}),
      token_endpoint_auth_method: answered && isMethod(answered) ? answered : method,
      via: 'dcr',
      redirect_uris: [this.options.redirectUri!],
    };
    await this.store.update((doc) => void (doc.clients[issuer] = client));
    this.note(`registered with ${issuer} (dynamic client registration)`);
    return client;
  }

  private async tokenRequest(as: AuthorizationServerMetadata, client: StoredClient, resource: string, params: Record<string, string>, requested: string | undefined, signal: AbortSignal, secrets: string[], dpop: Dpop | undefined): Promise<StoredTokens> {
    const body = new URLSearchParams(params);
    body.set('resource', resource);
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
    const method = client.token_endpoint_auth_method ?? 'none';
    const all = [...secrets, client.client_secret];
    if (method === 'client_secret_basic' && client.client_secret) {
      headers.Authorization = `Basic ${btoa(`${formEncode(client.client_id)}:${formEncode(client.client_secret)}`)}`;
    } else if (client.client_id) {
      body.set('client_id', client.client_id);
      if (method === 'client_secret_post' && client.client_secret) body.set('client_secret', client.client_secret);
      if (method === 'private_key_jwt') {
        const assertion = await this.assertion(client.client_id, as.issuer);
        all.push(assertion);
        body.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
        body.set('client_assertion', assertion);
      }
    }
    let response: Response;
    let json: Record<string, unknown> | undefined;
    // RFC 9449 §8: a use_dpop_nonce answer is retried once with the nonce it carries.
    for (let attempt = 1; ; attempt++) {
      if (dpop) headers.DPoP = await dpop.proof({ method: 'POST', url: as.token_endpoint });
      response = await this.post(as.token_endpoint, { headers, body: body.toString(), signal }, 'token');
      json = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
      const fresh = dpop?.observe(as.token_endpoint, response.headers) === true;
      if (!(attempt === 1 && fresh && response.status === 400 && json?.error === 'use_dpop_nonce')) break;
    }
    if (typeof json?.access_token === 'string') all.push(json.access_token);
    if (typeof json?.refresh_token === 'string') all.push(json.refresh_token);
    if (!response.ok || typeof json?.access_token !== 'string') {
      const why = oauthError(json, all);
      const code = typeof json?.error === 'string' ? json.error : '';
      throw new AuthError('token', `the token endpoint ${endpointName(as.token_endpoint)} refused the ${grantName(params.grant_type)} (HTTP ${response.status}${why ? `: ${why}` : ''})`, tokenHint(code, params.grant_type));
    }
    const type = (typeof json.token_type === 'string' ? json.token_type : '').toLowerCase();
    if (type !== 'bearer' && !(dpop && type === 'dpop')) {
      throw new AuthError('token', `the token endpoint issued a ${type || 'typeless'} token, not a ${dpop ? 'DPoP or ' : ''}Bearer token`, dpop ? 'byhand sends Bearer and DPoP tokens only' : 'byhand asked for a Bearer token (DPoP was not requested: see the dpop option)');
    }
    const expiresIn = typeof json.expires_in === 'number' ? json.expires_in : typeof json.expires_in === 'string' ? Number(json.expires_in) : undefined;
    const granted = typeof json.scope === 'string' ? json.scope : requested;
    const key = dpop && type === 'dpop' ? await dpop.privateJwk() : undefined;
    return {
      access_token: json.access_token,
      token_type: dpop && type === 'dpop' ? 'DPoP' : 'Bearer',
      ...(dpop && type === 'dpop' ? { dpop_jkt: await dpop.thumbprint(), ...(key ? { dpop_key: key } : {}) } : {}),
      ...(typeof json.refresh_token === 'string' ? { refresh_token: json.refresh_token } : {}),
      ...(expiresIn !== undefined && Number.isFinite(expiresIn) ? { expires_at: this.now() + expiresIn * 1000 } : {}),
      ...(granted ? { scope: granted } : {}),
      ...(requested ? { requested_scope: requested } : {}),
      resource,
    };
  }

  private async refresh(key: string, issuer: string, tokens: StoredTokens, signal: AbortSignal): Promise<StoredTokens> {
    let as = this.metadata.get(issuer);
    if (!as) {
      as = await fetchAuthorizationServerMetadata(issuer, this.fetch, signal, this.note);
      this.metadata.set(issuer, as);
    }
    const client = await this.refreshClient(issuer, as);
    let fresh: StoredTokens;
    try {
      fresh = await this.tokenRequest(as, client, tokens.resource, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }, tokens.requested_scope, signal, [tokens.refresh_token!, tokens.access_token], tokens.dpop_jkt ? await this.signerFor(tokens) : undefined);
    } catch (error) {
      // A refused refresh token is dead: drop the tokens so nobody sends them again.
      if (error instanceof AuthError) await this.store.update((doc) => void delete doc.servers[key]?.tokens[issuer]);
      throw error;
    }
    // Without a new refresh token (no rotation), the old one stays valid (RFC 6749 §6).
    if (!fresh.refresh_token) fresh.refresh_token = tokens.refresh_token!;
    if (!fresh.scope && tokens.scope) fresh.scope = tokens.scope;
    if (!fresh.requested_scope && tokens.requested_scope) fresh.requested_scope = tokens.requested_scope;
    if (fresh.dpop_jkt === tokens.dpop_jkt && tokens.dpop_key) fresh.dpop_key = tokens.dpop_key;
    await this.store.update((doc) => {
      const entry = doc.servers[key];
      if (entry) entry.tokens[issuer] = fresh;
    });
    this.note(`refreshed the token from ${issuer}`);
    return fresh;
  }

  /** The client for a refresh: the same identity that obtained the token, never another server's. */
  private async refreshClient(issuer: string, as: AuthorizationServerMetadata): Promise<StoredClient> {
    const o = this.options;
    if (o.clientId && (o.clientIssuer === undefined || o.clientIssuer === issuer)) return this.preRegistered(issuer, as);
    const stored = (await this.store.read()).clients[issuer];
    if (stored) return stored;
    if (o.clientMetadataUrl) return { client_id: o.clientMetadataUrl, token_endpoint_auth_method: 'none', via: 'cimd' };
    throw new AuthError('token', `no client registration with ${issuer} is stored to refresh the token with`, this.hintFor(''));
  }

  /** The signer a bound token needs: this provider's key, or the one stored with the token; undefined when neither is it. */
  private async signerFor(tokens: StoredTokens): Promise<Dpop | undefined> {
    const jkt = tokens.dpop_jkt!;
    if (jkt === (await this.dpop.thumbprint())) return this.dpop;
    if (!tokens.dpop_key) return undefined;
    let signer = this.restored.get(jkt);
    if (!signer) {
      const pair = await importDpopKey(tokens.dpop_key).catch(() => undefined);
      if (!pair) return undefined;
      signer = createDpop(pair, this.now, this.nonces);
      this.restored.set(jkt, signer);
    }
    return (await signer.thumbprint()) === jkt ? signer : undefined;
  }

  /** Whether this provider can present the token: a Bearer token, or a bound one whose key it holds. */
  private async presentable(tokens: StoredTokens): Promise<boolean> {
    return !tokens.dpop_jkt || (await this.signerFor(tokens)) !== undefined;
  }

  /** The configured client, for its own issuer only (SEP-2352). */
  private preRegistered(issuer: string, as: AuthorizationServerMetadata): StoredClient {
    const o = this.options;
    if (o.clientIssuer !== undefined && o.clientIssuer !== issuer) {
      throw new AuthError('registration', `the configured client is registered with ${o.clientIssuer}, but the server now uses ${issuer}`, 'credentials are never reused with another authorization server: register byhand with the new one and configure that client');
    }
    const method = o.tokenEndpointAuthMethod ?? pickMethod(as.token_endpoint_auth_methods_supported, Boolean(o.clientSecret), Boolean(o.clientKey));
    return { client_id: o.clientId!, ...(o.clientSecret ? { client_secret: o.clientSecret } : {}), token_endpoint_auth_method: method, via: 'pre-registered' };
  }

  /** The private_key_jwt assertion for this authorization server. */
  private async assertion(clientId: string, audience: string): Promise<string> {
    const key = this.options.clientKey;
    if (!key) throw new AuthError('token', 'the client authenticates with private_key_jwt but no clientKey is configured', 'pass the client\'s private key (clientKey), or another tokenEndpointAuthMethod');
    const alg = key.alg ?? 'ES256';
    this.signingKey ??= typeof key.privateKey === 'string' ? importPrivateKey(key.privateKey, alg) : Promise.resolve(key.privateKey);
    return clientAssertion({ clientId, audience, key: await this.signingKey, alg, ...(key.kid ? { kid: key.kid } : {}), now: this.now() });
  }

  private async save(key: string, found: Discovered, tokens: StoredTokens): Promise<void> {
    await this.store.update((doc) => {
      const entry = doc.servers[key] ?? { issuer: found.issuer, resource: found.resource, tokens: {} };
      entry.issuer = found.issuer;
      entry.resource = found.resource;
      entry.tokens[found.issuer] = tokens;
      doc.servers[key] = entry;
    });
  }

  private async post(url: string, init: { headers: Record<string, string>; body: string; signal: AbortSignal }, what: 'token' | 'registration'): Promise<Response> {
    try {
      // Never follow a redirect with credentials in the body.
      return await this.fetch(url, { method: 'POST', ...init, redirect: 'error' });
    } catch (error) {
      if (init.signal.aborted) throw error;
      const why = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      throw new AuthError(what, `cannot reach the ${what === 'token' ? 'token' : 'registration'} endpoint ${endpointName(url)}: ${why}`, 'the authorization server did not answer: is it up, and is the network reachable?');
    }
  }

  private expired(tokens: StoredTokens): boolean {
    return tokens.expires_at !== undefined && tokens.expires_at - EXPIRY_SKEW_MS <= this.now();
  }

  /**
   * When the token ran out, or runs out too soon to send: a token with under EXPIRY_SKEW_MS to live is
   * treated as expired (it could expire on the way), so a login that got one is asked for again at once.
   */
  private expiry(tokens: StoredTokens): string {
    const at = new Date(tokens.expires_at!).toISOString();
    if (tokens.expires_at! <= this.now()) return `the stored token expired at ${at}`;
    return `the stored token expires at ${at}, under ${EXPIRY_SKEW_MS / 1000} s from now, which is too soon to send it (the authorization server gives tokens that short a life)`;
  }

  private loginRequired(serverUrl: string, key: string): AuthError {
    const why = this.unusable.get(key);
    return new AuthError('login-required', `${serverUrl} needs authorization and no stored token is usable${why ? `: ${why}` : ''}`, this.hintFor(serverUrl));
  }

  private hintFor(serverUrl: string): string {
    return this.options.loginHint?.(serverUrl) ?? `log in to ${serverUrl || 'the server'} first: give an \`authorize\` function, or a \`store\` that holds a token`;
  }

  private locked<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

function currentTokens(doc: CredentialDocument, key: string): StoredTokens | undefined {
  const entry = doc.servers[key];
  return entry?.tokens[entry.issuer];
}

function isMethod(value: string): value is TokenEndpointAuthMethod {
  return value === 'none' || value === 'client_secret_basic' || value === 'client_secret_post' || value === 'private_key_jwt';
}

/** A client with a key signs (private_key_jwt); one with a secret: basic if offered (RFC 8414's default when the list is absent), else post. */
function pickMethod(supported: string[] | undefined, hasSecret: boolean, hasKey: boolean): TokenEndpointAuthMethod {
  if (hasKey && (!hasSecret || supported?.includes('private_key_jwt'))) return 'private_key_jwt';
  if (!hasSecret) return 'none';
  const list = supported ?? ['client_secret_basic'];
  if (list.includes('client_secret_basic')) return 'client_secret_basic';
  if (list.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}

/** What to ask for at registration: a public client where allowed (a CLI keeps no secret well). */
function registrationMethod(supported: string[] | undefined): TokenEndpointAuthMethod {
  if (!supported || supported.includes('none')) return 'none';
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'none';
}

function grantName(grantType: string): string {
  if (grantType === 'refresh_token') return 'refresh';
  if (grantType === 'authorization_code') return 'authorization code';
  if (grantType === JWT_BEARER) return 'JWT bearer grant';
  return grantType.replace('_', ' ') + ' grant';
}

function endpointName(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

function oauthError(json: Record<string, unknown> | undefined, secrets: (string | undefined)[]): string {
  if (!json || typeof json.error !== 'string') return '';
  const description = typeof json.error_description === 'string' ? json.error_description : '';
  return scrub(`${json.error}${description ? ` ${description}` : ''}`, secrets);
}

function tokenHint(error: string, grant: string): string {
  if (error === 'invalid_grant' && grant === JWT_BEARER) return 'the authorization server did not accept the assertion (expired, for another audience, or from an issuer it does not trust): get a fresh one';
  if (error === 'unauthorized_client') return 'this client may not use this grant at the authorization server: ask its operator';
  if (error === 'invalid_grant') {
    return grant === 'refresh_token'
      ? 'the refresh token is no longer accepted (expired or revoked): log in again'
      : 'the authorization code was not accepted (expired, used already, or issued for another client, redirect URI or PKCE verifier): start the login again';
  }
  if (error === 'invalid_client') return 'the authorization server does not accept this client\'s credentials: check the client id and secret, or log in again to register anew';
  if (error === 'invalid_target') return 'the authorization server does not issue tokens for this resource (RFC 8707)';
  return 'the authorization server refused to issue a token; its message says why';
}
