// Public face of the toolboxes: each is a web-standard fetch handler, plus the registry of what ships.
// Node's server and adapter are in @byhand/servers/node.

export { createToolbox, createKitchen, createCookieJar, createProbe, createEverything, TOOLBOXES } from './toolboxes/registry.js';
export type { ToolboxEntry, ToolboxName, ToolboxOptions } from './toolboxes/registry.js';
export type { ToolboxHandler, ToolboxInfo, LegacyMode } from './edge/toolbox.js';
export { memoryStore } from './toolboxes/cookie-jar/jar/memory-store.js';
export { JarFullError, type JarStorage, type Note, type NotePage } from './toolboxes/cookie-jar/jar/storage.js';
