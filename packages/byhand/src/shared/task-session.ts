// Why a detached task may be gone on a 2025-11-25 server: the SDK 1.x store keeps a task in the session that started
// it (@modelcontextprotocol/sdk/dist/esm/experimental/tasks/stores/in-memory.js), and each byhand command is a session.
export const LEGACY_SESSION_NOTE = "a 2025-11-25 server may keep a task only as long as the session that started it, and each byhand command's session ends with it";
