// A run's own temporary folder, set as TMPDIR (TMP, TEMP) for the test processes and everything they start: what is
// in it when the run ends, a test left behind (its name's prefix says which). Closing it removes it either way.

import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
      const left = readdirSync(path).sort();
      rmSync(path, { recursive: true, force: true });
      if (left.length === 0) return undefined;
      return `the tests left ${left.length} temporary file(s) or folder(s) behind: ${left.join(', ')}; remove each in the after or t.after of the test that made it`;
    },
  };
}
