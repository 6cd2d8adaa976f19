// The test runner's two parts (tools/test-runner): each test file bundled to one plain module that still finds its
// files where its sources are, and the files started longest first from the last run's times.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { test } from './support/node-test.js';
import { bundleTests } from '../tools/test-runner/bundle.mjs';
import { keepTimes, longestFirst } from '../tools/test-runner/order.mjs';

const run = promisify(execFile);

function scratch(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'byhand-runner-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

test('a bundled test file: each module keeps its own import.meta.url, its own imports bundled, npm packages left as imports', async () => {
  const root = scratch({
    'test/a.test.ts': [
      "import { where } from './support/where.js';",
      "const answer: { self: string; support: string } = { self: import.meta.url, support: where() };",
      'console.log(JSON.stringify(answer));',
      "export const lazy = () => import('jsonc-parser');",
    ].join('\n'),
    'test/support/where.ts': 'export const where = (): string => import.meta.url;\n',
  });
  try {
    const bundles = await bundleTests(root, ['test/a.test.ts'], join(root, 'out'));
    const bundle = bundles.get('test/a.test.ts') ?? assert.fail(`no bundle for the test file: ${[...bundles.keys()].join(', ')}`);
    assert.ok(bundle.startsWith(join(root, 'out')), `bundled into the output folder: ${bundle}`);
    const { stdout } = await run(process.execPath, [bundle]);
    assert.deepEqual(JSON.parse(stdout), {
      self: pathToFileURL(join(root, 'test/a.test.ts')).href,
      support: pathToFileURL(join(root, 'test/support/where.ts')).href,
    });
    assert.match(readFileSync(bundle, 'utf8'), /import\("jsonc-parser"\)/, 'an npm package is imported at run time, not copied in');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('files not timed yet go first, largest first; then the last run\'s times, longest first; a partial run keeps the other times', () => {
  const root = scratch({
    'test/small-new.test.ts': 'x',
    'test/large-new.test.ts': 'x'.repeat(100),
    'test/quick.test.ts': 'x',
    'test/slow.test.ts': 'x',
    'test/kept.test.ts': 'x',
  });
  try {
    const out = join(root, 'out');
    const log = join(root, 'times.log');
    const sourceOf = new Map([[`${out}/slow.mjs`, 'test/slow.test.ts'], [`${out}/quick.mjs`, 'test/quick.test.ts'], [`${out}/kept.mjs`, 'test/kept.test.ts']]);
    writeFileSync(log, [
      { file: `${out}/quick.mjs`, ms: 200 },
      { file: `${out}/slow.mjs`, ms: 9000 },
      { file: `${out}/kept.mjs`, ms: 500 },
      { file: '/elsewhere/child.mjs', ms: 1 },
    ].map((line) => `${JSON.stringify(line)}\n`).join(''));
    keepTimes(root, log, sourceOf);

    const files = ['test/quick.test.ts', 'test/small-new.test.ts', 'test/slow.test.ts', 'test/large-new.test.ts', 'test/kept.test.ts'];
    assert.deepEqual(longestFirst(root, files), ['test/large-new.test.ts', 'test/small-new.test.ts', 'test/slow.test.ts', 'test/kept.test.ts', 'test/quick.test.ts']);

    writeFileSync(log, `${JSON.stringify({ file: `${out}/quick.mjs`, ms: 20_000 })}\n`);
    keepTimes(root, log, sourceOf);
    assert.deepEqual(longestFirst(root, files).slice(2), ['test/quick.test.ts', 'test/slow.test.ts', 'test/kept.test.ts']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
