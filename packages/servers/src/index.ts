// Public face of the toolboxes: each is a web-standard fetch handler, plus the registry of what ships.
// Node's server and adapter are in @byhand/servers/node.

export { createToolbox, createKitchen, createCookieJar, createProbe, createEverything, type ToolboxOptions } from './toolboxes/create.js';
export { TOOLBOXES, registerToolbox, type ToolboxDefinition, type ToolboxDefinition as ToolboxEntry, type ToolboxName, type BuildOptions } from './toolboxes/registry.js';
export type { ToolboxHandler, ToolboxInfo, ToolboxSpec, BuildContext, LegacyMode } from './edge/toolbox.js';
export type { StateRefusal } from './edge/state.js';
export { memoryStore } from './toolboxes/cookie-jar/jar/memory-store.js';
export { JarFullError, type JarStorage, type Note, type NotePage } from './toolboxes/cookie-jar/jar/storage.js';
export { memoryTaskStorage, TaskStoreFullError, type TaskStorage, type TaskRecord, type TaskState, type TaskStatus, type TaskBounds, type TaskError, type InputRequestMap, type InputResponseMap } from './edge/task-storage.js';
