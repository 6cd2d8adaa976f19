// A bundle the build writes into dist/ (the client's dist/node/, the command's dist/bin/), held to what its script
// makes now: a stale file fails the test that calls this.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Every file under `dir`, relative to it, sorted. */
export function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** Runs `script OUTDIR` into a scratch folder and asserts `shipped` holds the same files, byte for byte. */
export async function assertShippedIsRebuilt(script: string, shipped: string, cwd: string): Promise<void> {
  const fresh = mkdtempSync(join(tmpdir(), 'byhand-rebuilt-'));
  try {
    await run(process.execPath, [script, fresh], { cwd, timeout: 30_000 });
    assert.deepEqual(files(shipped), files(fresh), `run \`npm run build\`: ${relative(cwd, shipped)} is stale`);
    for (const file of files(fresh)) assert.ok(readFileSync(join(shipped, file)).equals(readFileSync(join(fresh, file))), `${file} differs: run \`npm run build\``);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}
