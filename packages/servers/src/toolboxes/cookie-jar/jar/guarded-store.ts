// A storage failure is the operator's to read, not the client's: a driver's message can carry the database's
// internal address, its user, the SQL. The client is told the storage is unavailable and given an id; the detail
// goes, under the same id, to whoever runs the server (serve's stderr).

import { JarFullError, type JarStorage } from './storage.js';

/** Receives the detail of a storage failure and the id the client was given for it. */
export type StorageFailureReport = (id: string, error: Error) => void;

export class StorageUnavailableError extends Error {
  constructor(readonly id: string) {
    super(`Storage unavailable (id ${id}): the Cookie Jar cannot use its database right now. Try again later.`);
    this.name = 'StorageUnavailableError';
  }
}

/** The same storage, each failure but a full jar (which is the client's to know) answered with an id instead. */
export function guardedStorage(store: JarStorage, report: StorageFailureReport): JarStorage {
  const guard = async <T>(operation: () => Promise<T>): Promise<T> => {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof JarFullError) throw error;
      const id = crypto.randomUUID().slice(0, 8);
      report(id, error instanceof Error ? error : new Error(String(error)));
      throw new StorageUnavailableError(id);
    }
  };
  return {
    ...(store.inMemory === true ? { inMemory: true } : {}),
    put: (text, ttlSeconds) => guard(() => store.put(text, ttlSeconds)),
    page: (after, limit) => guard(() => store.page(after, limit)),
    get: (id) => guard(() => store.get(id)),
    forget: (id) => guard(() => store.forget(id)),
    // ready() runs at start, for the operator: its error is what they need to see to fix the configuration.
    ready: () => store.ready(),
    close: () => store.close(),
  };
}
