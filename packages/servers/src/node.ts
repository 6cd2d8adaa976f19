// The toolboxes on Node: `byhand serve`'s node:http server and the adapter between node:http and the
// web-standard handlers. Everything else in this package runs wherever web Request/Response exist.

export * from './index.js';
export { startServer, DEFAULT_SERVER_LIMITS } from './serve.js';
export type { StartServerOptions, RunningServer, ServerLimits } from './serve.js';
export { runServe, banner, type ServeFlags } from './serve-command.js';
export { toWebRequest, writeWebResponse, type FetchHandler } from './node-adapter.js';
export { openJarStorage } from './jar/open.js';
export { sqliteStore } from './jar/sqlite-store.js';
export { postgresStore } from './jar/postgres-store.js';
