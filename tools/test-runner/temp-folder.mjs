// A run's own temporary folder, set as TMPDIR (TMP, TEMP) for the test processes and everything they start: what is
// in it when the run ends, a test left behind (its name's prefix says which). Closing it removes it either way.

import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a runtime keeps in the temporary folder on purpose, not a test: Node 22's module compile cache (npm turns it on). */
const RUNTIME_CACHES = new Set(['node-compile-cache']);

/**
 * @param {NodeJS.ProcessEnv} env set to the folder
 * @returns {{ path: string, close(): string | undefined }} close gives the failure to report, if anything was left
 */
export function runTempFolder(env) {
  const path = mkdtempSync(join(tmpdir(), 'byhand-tests-'));
  // Others may pass through, as through /tmp: the PostgreSQL tests run their cluster as the postgres user.
  chmodSync(path, 0o711);
  for (const name of ['TMPDIR', 'TMP', 'TEMP']) env[name] = path;
  return {
    path,
    close() {
      const left = readdirSync(path).filter((name) => !RUNTIME_CACHES.has(name)).sort();
      rmSync(path, { recursive: true, force: true });
      if (left.length === 0) return undefined;
      return `the tests left ${left.length} temporary file(s) or folder(s) behind: ${left.join(', ')}; remove each in the after or t.after of the test that made it`;
    },
  };
}
