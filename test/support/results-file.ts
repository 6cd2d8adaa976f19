// A tracked file a test file writes (test/results/*.md): written once, after every test that feeds it has passed,
// and atomically (written aside, then renamed over the old one). A failed, cancelled or partial run (one test picked
// by name) leaves the checkout as it was, and a test reading the file never sees half of it.

import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { TestContext, TestOptions } from 'node:test';
import { fileURLToPath } from 'node:url';
import { after, test } from './node-test.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Replaces `path` with `text` in one step: readers see the old file or the new one, and no stray file is left. */
export function writeAtomically(path: string, text: string): void {
  // Aside in the ignored cache of the same checkout (a rename stays on one file system), never beside the file,
  // where a run killed between the two steps would leave an untracked file.
  const aside = join(root, 'node_modules', '.cache', 'byhand-results', `${basename(path)}.${process.pid}`);
  mkdirSync(dirname(aside), { recursive: true });
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(aside, text);
    renameSync(aside, path);
  } finally {
    rmSync(aside, { force: true });
  }
}

export interface ResultsFile {
  /** A test whose passing the file waits for: the file is written only when every one of these has passed. */
  test(name: string, options: TestOptions, fn: (t: TestContext) => Promise<void>): void;
}

/** `render` is called once, after the file's last test, only when all the tests registered here passed. */
export function resultsFile(path: string, render: () => string): ResultsFile {
  let registered = 0;
  let passed = 0;
  after(() => {
    if (registered > 0 && passed === registered) writeAtomically(path, render());
  });
  return {
    test(name, options, fn) {
      registered++;
      void test(name, options, async (t) => {
        await fn(t);
        passed++;
      });
    },
  };
}
