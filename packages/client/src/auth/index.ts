// OAuth for byhand's client, by hand: fetch, JSON, URL and Web Crypto, no library.
//   connect(url, { auth: createOAuth({ authorize, redirectUri }) })   interactive
//   connect(url, { auth: createOAuth({ store: fileStore() }) })        stored tokens only (fileStore: @byhand/client/auth/file-store, Node only)
//   connect(url, { auth: createOAuth({ grant: { type: 'client_credentials' }, clientId, clientSecret }) })   no browser
export { createOAuth, clientMetadataDocument } from './oauth.js';
export type { OAuthOptions, OAuthProvider, TokenEndpointAuthMethod, ClientKey } from './oauth.js';
export type { OAuthGrant } from './grants.js';
export type { JwsAlgorithm } from './jwt.js';
export { AuthError, type AuthFailure } from './errors.js';
export { memoryStore, serverKey } from './store.js';
export type { CredentialStore, CredentialDocument, StoredClient, StoredTokens, StoredServer } from './store.js';
export { parseWwwAuthenticate, bearerParams } from './challenge.js';
export { resourceMetadataUrls, authorizationServerMetadataUrls, advertisesOAuth } from './discovery.js';
