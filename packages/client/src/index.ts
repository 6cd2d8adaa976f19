// byhand's MCP client: fetch and JSON, both eras, no runtime dependencies.
export { connect, forgetEras, Client } from './client.js';
export type { ConnectOptions, CallOptions, ToolCallOptions, Target } from './client.js';
export { TASKS_EXTENSION, type Task, type TaskStatus } from './tasks.js';
export { UI_EXTENSION, UI_MIME_TYPE, appsExtension, toolUi, visibilityOf, isAppOnly, appMayCall, type ToolUi, type Visibility } from './apps.js';
export * from './errors.js';
export type { RoundEvent } from './modern.js';
// The wire pieces a tool that checks servers needs to build a request by hand (byhand check).
export { envelope, standardHeaders, META, INPUT_METHODS } from './modern.js';
export { headerParams, paramHeaders } from './headers.js';
export { isReservedMetaKey } from './exchange.js';
export type { TraceEntry, Trace, Reply, Transport, Exchange, ServerRequestAnswer } from './transport/transport.js';
export type { Deadline } from './deadline.js';
export type { Traits } from './connection.js';
export type { HttpAuth, AuthRequest } from './transport/http/http.js';
export { isChallenge } from './retry.js';
export type { Limits } from './limits.js';
export { DEFAULT_LIMITS } from './limits.js';
export { VerdictCache, type EraVerdict } from './verdict.js';
export { redactHeaders, redactUrl, redactText, isSecretName, REDACTED } from './redact.js';
export { MODERN_VERSIONS, LEGACY_VERSIONS } from './versions.js';
export type * from './types.js';
