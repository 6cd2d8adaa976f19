// byhand's MCP client: fetch and JSON, both eras, no runtime dependencies.
export { connect, forgetEras, Client } from './client.js';
export type { ConnectOptions, CallOptions, Negotiation, Target } from './client.js';
export * from './errors.js';
export type { RoundEvent } from './mrtr.js';
export type { TraceEntry, Trace } from './transport.js';
export type { HttpAuth } from './http.js';
export { MODERN_VERSIONS, LEGACY_VERSIONS } from './versions.js';
export type * from './types.js';
