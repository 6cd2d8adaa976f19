// Notes in memory: the default, and what a Worker uses (each isolate has its own jar; give it a shared
// database through `jar` when notes must be seen everywhere).

import { DEFAULT_MAX_NOTES, JarFullError, pageOf, type JarStorage, type NoteRow, type StorageOptions } from './storage.js';

export function memoryStore(options: StorageOptions = {}): JarStorage {
  const now = options.now ?? Date.now;
  const maxNotes = options.maxNotes ?? DEFAULT_MAX_NOTES;
  const rows = new Map<number, NoteRow & { id: number; expires_ms: number }>();
  let lastId = 0;
  const sweep = () => {
    const t = now();
    for (const [id, row] of rows) if (row.expires_ms <= t) rows.delete(id);
  };
  const live = (id: number) => {
    const row = rows.get(id);
    return row !== undefined && row.expires_ms > now() ? row : undefined;
  };
  return {
    inMemory: true,
    async put(text, ttlSeconds) {
      sweep();
      if (rows.size >= maxNotes) throw new JarFullError(maxNotes);
      const created = now();
      const row = { id: ++lastId, text, created_ms: created, expires_ms: created + Math.round(ttlSeconds * 1000) };
      rows.set(row.id, row);
      return pageOf([row], 1).notes[0];
    },
    async page(after, limit) {
      sweep();
      // Map iteration is insertion order, which is id order.
      const found: NoteRow[] = [];
      for (const row of rows.values()) {
        if (row.id <= after) continue;
        found.push(row);
        if (found.length > limit) break;
      }
      return pageOf(found, limit);
    },
    async get(id) {
      const row = live(id);
      return row === undefined ? undefined : pageOf([row], 1).notes[0];
    },
    async forget(id) {
      return live(id) !== undefined && rows.delete(id);
    },
    async ready() {},
    async close() {
      rows.clear();
    },
  };
}
