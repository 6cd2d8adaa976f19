// A mock authorization server and protected MCP servers on 127.0.0.1 (node:http), strict where a
// real one is: PKCE S256 checked, codes single-use and bound to client, redirect URI and resource,
// tokens bound to their resource (audience) and expiring on the mock's clock. Every token, code and
// secret it hands out is kept in `secrets`, so a test can prove none of them was ever printed.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { createKitchen } from '../packages/servers/src/index.js';
import { writeWebResponse } from '../packages/servers/src/edge/node-adapter.js';

export interface Clock {
  now: number;
}

export interface MockAsOptions {
  clock?: Clock;
  /** The iss put on the redirect: the issuer, another one, or none. Default 'correct'. */
  iss?: 'correct' | 'wrong' | 'omit';
  /** authorization_response_iss_parameter_supported. Default true. */
  issAdvertised?: boolean;
  /** Seconds an access token lives. Default 3600. */
  ttl?: number;
  refreshTokens?: boolean;
  scopesSupported?: string[];
  authMethods?: string[];
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string;
  scope?: string;
  used: boolean;
}

export interface IssuedToken {
  resource: string;
  scope?: string;
  expiresAt: number;
}

export interface MockAs {
  issuer: string;
  secrets: Set<string>;
  tokens: Map<string, IssuedToken>;
  log: { method: string; path: string; grant?: string }[];
  counts: { authorize: number; token: number; refresh: number; register: number };
  validate(token: string | undefined, resource: string): 'ok' | 'missing' | 'unknown' | 'expired' | 'audience';
  /** Mint a token for `resource` directly (as if issued earlier). */
  mint(resource: string, ttl?: number): string;
  close(): Promise<void>;
}

const rand = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;
const s256 = (v: string) => createHash('sha256').update(v).digest('base64url');

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers }).end(JSON.stringify(value));
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export async function startMockAs(options: MockAsOptions = {}): Promise<MockAs> {
  const clock = options.clock ?? { now: Date.now() };
  const clients = new Map<string, { secret: string; redirectUris: string[] }>();
  const grants = new Map<string, Grant>();
  const refreshes = new Map<string, { clientId: string; resource: string; scope?: string }>();
  const tokens = new Map<string, IssuedToken>();
  const secrets = new Set<string>();
  const log: MockAs['log'] = [];
  const counts = { authorize: 0, token: 0, refresh: 0, register: 0 };
  let issuer = '';
  const ttl = options.ttl ?? 3600;

  const issue = (resource: string, scope: string | undefined, clientId: string) => {
    const access = rand('at');
    secrets.add(access);
    tokens.set(access, { resource, ...(scope ? { scope } : {}), expiresAt: clock.now + ttl * 1000 });
    const answer: Record<string, unknown> = { access_token: access, token_type: 'Bearer', expires_in: ttl, ...(scope ? { scope } : {}) };
    if (options.refreshTokens !== false) {
      const refresh = rand('rt');
      secrets.add(refresh);
      refreshes.set(refresh, { clientId, resource, ...(scope ? { scope } : {}) });
      answer.refresh_token = refresh;
    }
    return answer;
  };

  const clientAuth = (req: IncomingMessage, form: URLSearchParams): string | undefined => {
    const basic = req.headers.authorization;
    if (basic?.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(basic.slice(6), 'base64').toString().split(':').map(decodeURIComponent);
      return clients.get(id)?.secret === secret ? id : undefined;
    }
    const id = form.get('client_id') ?? undefined;
    return id && clients.has(id) ? id : undefined;
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const text = await body(req);
    log.push({ method: req.method ?? '', path: url.pathname });
    if (req.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: options.authMethods ?? ['none', 'client_secret_basic'],
        ...(options.issAdvertised !== false ? { authorization_response_iss_parameter_supported: true } : {}),
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
      });
    }
    if (req.method === 'POST' && url.pathname === '/register') {
      counts.register++;
      const meta = JSON.parse(text) as { redirect_uris: string[]; token_endpoint_auth_method?: string };
      const id = rand('client');
      const secret = rand('secret');
      secrets.add(secret);
      clients.set(id, { secret, redirectUris: meta.redirect_uris });
      return json(res, 201, { client_id: id, client_secret: secret, redirect_uris: meta.redirect_uris, token_endpoint_auth_method: meta.token_endpoint_auth_method ?? 'none' });
    }
    if (req.method === 'GET' && url.pathname === '/authorize') {
      counts.authorize++;
      const q = url.searchParams;
      const client = clients.get(q.get('client_id') ?? '');
      const redirectUri = q.get('redirect_uri') ?? '';
      if (!client || !client.redirectUris.includes(redirectUri)) return json(res, 400, { error: 'invalid_request', error_description: 'unknown client or redirect_uri' });
      if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return json(res, 400, { error: 'invalid_request', error_description: 'PKCE S256 required' });
      const code = rand('code');
      secrets.add(code);
      grants.set(code, { clientId: q.get('client_id')!, redirectUri, challenge: q.get('code_challenge')!, resource: q.get('resource') ?? '', ...(q.get('scope') ? { scope: q.get('scope')! } : {}), used: false });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      if (q.get('state')) back.searchParams.set('state', q.get('state')!);
      if (options.iss !== 'omit') back.searchParams.set('iss', options.iss === 'wrong' ? 'https://evil.example.com' : issuer);
      res.writeHead(302, { Location: back.href }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      counts.token++;
      const form = new URLSearchParams(text);
      const clientId = clientAuth(req, form);
      if (!clientId) return json(res, 401, { error: 'invalid_client' });
      if (form.get('grant_type') === 'authorization_code') {
        const grant = grants.get(form.get('code') ?? '');
        if (!grant || grant.used || grant.clientId !== clientId || grant.redirectUri !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown or used code' });
        grant.used = true;
        if (s256(form.get('code_verifier') ?? '') !== grant.challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
        if (form.get('resource') !== grant.resource) return json(res, 400, { error: 'invalid_target' });
        return json(res, 200, issue(grant.resource, grant.scope, clientId));
      }
      if (form.get('grant_type') === 'refresh_token') {
        counts.refresh++;
        const old = refreshes.get(form.get('refresh_token') ?? '');
        if (!old || old.clientId !== clientId) return json(res, 400, { error: 'invalid_grant', error_description: 'refresh token not recognised' });
        refreshes.delete(form.get('refresh_token')!); // rotation
        return json(res, 200, issue(form.get('resource') ?? old.resource, old.scope, clientId));
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    json(res, 404, { error: 'not_found' });
  });
  issuer = await listen(server);
  return {
    issuer,
    secrets,
    tokens,
    log,
    counts,
    validate(token, resource) {
      if (!token) return 'missing';
      const issued = tokens.get(token);
      if (!issued) return 'unknown';
      if (issued.resource !== resource) return 'audience';
      if (issued.expiresAt <= clock.now) return 'expired';
      return 'ok';
    },
    mint(resource, life = ttl) {
      const access = rand('at');
      secrets.add(access);
      tokens.set(access, { resource, expiresAt: clock.now + life * 1000 });
      return access;
    },
    close: () => close(server),
  };
}

export interface MockRsOptions {
  /** The `resource` its metadata claims; default its own /mcp URL. */
  resource?: (own: string) => string;
  scopesSupported?: string[];
}

export interface MockRs {
  url: string;
  /** The Authorization header of every MCP request, as received. */
  seen: (string | undefined)[];
  close(): Promise<void>;
}

/** A Kitchen toolbox behind a bearer check against `as`, with RFC 9728 metadata at the path-based well-known URI. */
export async function startMockRs(as: MockAs, options: MockRsOptions = {}): Promise<MockRs> {
  const kitchen = createKitchen();
  const seen: (string | undefined)[] = [];
  let base = '';
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    const text = await body(req);
    const own = `${base}/mcp`;
    if (req.method === 'GET' && url.pathname === '/.well-known/oauth-protected-resource/mcp') {
      return json(res, 200, { resource: options.resource?.(own) ?? own, authorization_servers: [as.issuer], ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}) });
    }
    if (url.pathname !== '/mcp') return json(res, 404, { error: 'not_found' });
    seen.push(req.headers.authorization);
    const token = req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : undefined;
    const verdict = as.validate(token, own);
    if (verdict !== 'ok') {
      const error = verdict === 'missing' ? '' : ', error="invalid_token"';
      return json(res, 401, { error: 'invalid_token' }, { 'WWW-Authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"${error}` });
    }
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
    const answer = await kitchen.fetch(new Request(url, { method: req.method!, headers, ...(text && req.method !== 'GET' ? { body: text } : {}) }));
    await writeWebResponse(answer, res);
  });
  base = await listen(server);
  return { url: `${base}/mcp`, seen, close: () => close(server) };
}

/** The browser, for tests: follow nothing, read the 302's Location. */
export async function clickThrough(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  return new URL(location, url);
}
