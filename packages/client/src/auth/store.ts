// What OAuth remembers: client registrations keyed by the authorization server's issuer (SEP-2352:
// never reused with another), and tokens per MCP server and issuer. The in-memory store is the
// default; file-store.ts keeps the same document on disk for the CLI.

export interface StoredClient {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method?: string;
  /** How it was obtained: dynamic registration, a metadata document URL, or given. */
  via: 'dcr' | 'cimd' | 'pre-registered';
  redirect_uris?: string[];
}

export interface StoredTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  /** Epoch milliseconds. */
  expires_at?: number;
  /** What was granted (the response's scope) or, when it did not say, what was asked. */
  scope?: string;
  /** What was asked, so step-up can ask for the union. */
  requested_scope?: string;
  /** The resource indicator the token was requested for (RFC 8707). */
  resource: string;
  /** For a DPoP-bound token (token_type DPoP): the thumbprint of the key it is bound to (RFC 9449 §6). */
  dpop_jkt?: string;
  /** That key's private JWK, when byhand made it: as secret as the refresh token, and kept with it. */
  dpop_key?: JsonWebKey;
}

export interface StoredServer {
  /** The issuer of the authorization server last used for this server. */
  issuer: string;
  resource: string;
  tokens: Record<string, StoredTokens>;
}

export interface CredentialDocument {
  version: 1;
  clients: Record<string, StoredClient>;
  servers: Record<string, StoredServer>;
}

export interface CredentialStore {
  /** The whole document; a fresh copy each time, so another process's login is seen. */
  read(): Promise<CredentialDocument>;
  /** Read, change, write, as one step. */
  update(change: (doc: CredentialDocument) => void): Promise<void>;
  /** Where it lives, for messages (never its contents). */
  readonly where: string;
}

export function emptyDocument(): CredentialDocument {
  return { version: 1, clients: {}, servers: {} };
}

/** A store that lives as long as the process (the default). */
export function memoryStore(initial: CredentialDocument = emptyDocument()): CredentialStore {
  let doc = structuredClone(initial);
  let queue: Promise<unknown> = Promise.resolve();
  return {
    where: 'memory',
    read: async () => structuredClone(doc),
    update: (change) => {
      const next = queue.then(() => {
        const copy = structuredClone(doc);
        change(copy);
        doc = copy;
      });
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

/** The key a server's tokens are kept under: the URL without fragment. */
export function serverKey(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

export function normalizeDocument(value: unknown): CredentialDocument {
  const doc = emptyDocument();
  if (!value || typeof value !== 'object') return doc;
  const v = value as Partial<CredentialDocument>;
  if (v.clients && typeof v.clients === 'object') doc.clients = v.clients;
  if (v.servers && typeof v.servers === 'object') doc.servers = v.servers;
  return doc;
}
