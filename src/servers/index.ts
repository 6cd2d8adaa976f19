// Public face of the toolboxes: fetch handlers, the registry, and the Node server.

export { createToolbox, createKitchen, createCookieJar, createProbe, createEverything, TOOLBOXES } from './registry.js';
export type { ToolboxEntry, ToolboxName, ToolboxOptions } from './registry.js';
export { startServer, serveCommand, parseServeArgs } from './serve.js';
export type { StartServerOptions, RunningServer } from './serve.js';
export type { ToolboxHandler, ToolboxInfo, LegacyMode } from './toolbox.js';
