// A tracked results file (test/results/*.md) is written only from a complete, passing run, in one step: a test file
// that keeps one (test/fixtures/results-file-run.ts, through test/support/results-file.ts) is run as a process with
// a test that fails, with one test picked by name, and whole.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from './support/node-test.js';
import { fixtureScript } from './support/fixture-bundle.js';

const OLD = '# results\nfrom the last passing run\n';

function runFixture(file: string, env: Record<string, string>, args: string[] = []): Promise<number> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...args, fixtureScript('test/fixtures/results-file-run.ts')], { env: { ...process.env, RESULTS_FILE: file, ...env }, timeout: 30_000 }, (error) => resolve(error ? Number(error.code ?? 1) : 0));
  });
}

test('a failed or partial run leaves the file as it was; a whole passing run replaces it, leaving nothing beside it', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'byhand-results-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'results.md');
  writeFileSync(file, OLD);

  assert.notEqual(await runFixture(file, { FAIL: 'second' }), 0);
  assert.equal(readFileSync(file, 'utf8'), OLD, 'a failed run');

  assert.equal(await runFixture(file, {}, ['--test-name-pattern', '^first$']), 0);
  assert.equal(readFileSync(file, 'utf8'), OLD, 'a run of one test of two');

  assert.equal(await runFixture(file, {}), 0);
  assert.equal(readFileSync(file, 'utf8'), '# results\nfirst\nsecond\n');
  assert.deepEqual(readdirSync(dir), ['results.md']);
});
