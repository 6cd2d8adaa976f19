// The command as `bin/byhand.js` runs it: dist/bin/, the bundle packages/byhand/bundle-bin.mjs makes of dist/cli.js
// and the workspace under it. What is shipped must be what the build makes from dist/.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from './support/node-test.js';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const shipped = join(root, 'packages/byhand/dist/bin');

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

test('what bin/byhand.js runs is what the build makes from dist/', { timeout: 60_000 }, async () => {
  const fresh = mkdtempSync(join(tmpdir(), 'byhand-bundle-bin-'));
  try {
    await run(process.execPath, [join(root, 'packages/byhand/bundle-bin.mjs'), fresh], { cwd: root, timeout: 30_000 });
    assert.deepEqual(files(shipped), files(fresh), 'run `npm run build`: packages/byhand/dist/bin is stale');
    for (const file of files(fresh)) assert.ok(readFileSync(join(shipped, file)).equals(readFileSync(join(fresh, file))), `${file} differs: run \`npm run build\``);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});
