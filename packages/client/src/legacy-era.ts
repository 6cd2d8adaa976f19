// What only the legacy era needs, in one chunk: a caller whose servers are all modern never loads it (a browser
// never downloads it). Loaded through legacy-door.ts, which hands it the client's pieces first.

export { LegacyConnection } from './legacy.js';
export { useKit } from './legacy-kit.js';
export { createdTask, getLegacyTask, legacyTaskOps, offersToolTasks, runsAsTask } from './legacy-tasks.js';
export { openSse } from './open-sse.js';
