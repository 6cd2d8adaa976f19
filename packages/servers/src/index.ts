// Public face of the toolboxes: each is a web-standard fetch handler, plus the registry of what ships.
// Node's server and adapter are in @byhand/servers/node.

export { createToolbox, createKitchen, createCookieJar, createProbe, createEverything, TOOLBOXES } from './registry.js';
export type { ToolboxEntry, ToolboxName, ToolboxOptions } from './registry.js';
export type { ToolboxHandler, ToolboxInfo, LegacyMode } from './toolbox.js';
export { memoryStore } from './jar/memory-store.js';
export { JarFullError, type JarStorage, type Note, type NotePage } from './jar/storage.js';
