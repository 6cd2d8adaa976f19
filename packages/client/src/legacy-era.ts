// What only the legacy era needs, in one chunk: a caller whose servers are all modern never loads it (a browser
// never downloads it). Loaded through legacy-door.ts, which hands it the client's pieces first.

export { LegacyConnection } from './legacy.js';
export { useKit } from './legacy-kit.js';
// For the unit tests of the 2025-11-25 task form (the client reaches it through LegacyConnection).
export { legacyTaskOps } from './legacy-tasks.js';
export { openSse } from './transport/sse/open-sse.js';
