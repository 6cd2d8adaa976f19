// The toolboxes on Node: the node:http server `byhand serve` runs and the adapter between node:http and the
// web-standard handlers. Everything else in this package runs wherever web Request/Response exist.

export * from './index.js';
export { startServer, DEFAULT_SERVER_LIMITS } from './edge/serve.js';
export type { StartServerOptions, RunningServer, ServerLimits } from './edge/serve.js';
export { dropRestOfBody, toWebRequest, writeWebResponse, type FetchHandler } from './edge/node-adapter.js';
export { openJarStorage } from './toolboxes/cookie-jar/jar/open.js';
export { sqliteStore } from './toolboxes/cookie-jar/jar/sqlite-store.js';
export { postgresStore } from './toolboxes/cookie-jar/jar/postgres-store.js';
export { listenFetch, listenNode, type Listening, type ListenOptions, type NodeHandler } from './edge/listen.js';
export { acceptedHosts, hostGuard, hostRefusal } from './edge/host-check.js';
export { openTaskStorage } from './db/open-tasks.js';
export { sqliteTaskStorage } from './db/sqlite-tasks.js';
export { postgresTaskStorage } from './db/postgres-tasks.js';
