// The toolboxes on Node: `byhand serve`'s node:http server and the adapter between node:http and the
// web-standard handlers. Everything else in this package runs wherever web Request/Response exist.

export * from './index.js';
export { startServer, serveCommand, parseServeArgs, runServe, type ServeFlags } from './serve.js';
export type { StartServerOptions, RunningServer } from './serve.js';
export { toWebRequest, writeWebResponse, type FetchHandler } from './node-adapter.js';
