// The test runner's parts (tools/test-runner): each test file bundled to one plain module that still finds its files
// where its sources are, a failure's stack mapped back to the sources' lines, and the files started longest first
// from the last run's times, and the run's own temporary folder. And the fixtures' bundles
// (test/support/fixture-bundle.ts), kept while their sources are.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { test } from './support/node-test.js';
import { fixtureBundler } from './support/fixture-bundle.js';
import { bundleTests } from '../tools/test-runner/bundle.mjs';
import { keepTimes, longestFirst } from '../tools/test-runner/order.mjs';
import { runTempFolder } from '../tools/test-runner/temp-folder.mjs';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

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

test("a failing bundled test's stack names each source file at its own line and column, a #! line included", async () => {
  const root = scratch({
    'test/b.test.ts': [
      "import { test } from 'node:test';",
      "import { check } from './support/check.js';",
      '',
      "test('fails', () => check(1));",
    ].join('\n'),
    'test/support/check.ts': ['#!/usr/bin/env node', "import assert from 'node:assert/strict';", 'export function check(n: number): void {', '  assert.equal(n, 2);', '}'].join('\n'),
  });
  try {
    const out = join(root, 'out');
    const bundles = await bundleTests(root, ['test/b.test.ts'], out);
    // node:test runs nothing nested in a test process, and its children take their parent's flags (-e included): the
    // runner's part runs from a file, in a process of its own, as in the runner.
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const script = `
      import { run } from 'node:test';
      import { failureMapper } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'tools/test-runner/stacks.mjs')).href)};
      const mapFailure = failureMapper(${JSON.stringify(out)});
      const failures = [];
      const stream = run({ files: [${JSON.stringify(bundles.get('test/b.test.ts') ?? assert.fail('no bundle'))}] });
      stream.on('test:fail', (event) => { mapFailure(event); failures.push({ stack: event.details.error.cause.stack }); });
      for await (const event of stream) void event;
      console.log(JSON.stringify(failures));`;
    writeFileSync(join(root, 'run.mjs'), script);
    const { stdout } = await run(process.execPath, [join(root, 'run.mjs')], { env });
    const failures = JSON.parse(stdout) as { stack: string }[];
    assert.equal(failures.length, 1);
    const [{ stack }] = failures;
    assert.ok(stack.includes(`at check (${join(root, 'test/support/check.ts')}:4:10)`), stack);
    assert.ok(stack.includes(`${join(root, 'test/b.test.ts')}:4:`), stack);
    assert.ok(!stack.includes(out), `no frame left in the bundle: ${stack}`);
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

test('a fixture is bundled again when a file it was built from changes, and its bundle kept, unbuilt, while none does', async () => {
  const root = scratch({ 'fixture.ts': "import { word } from './word.js';\nconsole.log(word);\n", 'word.ts': "export const word: string = 'one';\n" });
  try {
    const cache = join(root, 'cache');
    const said = async (bundle: string): Promise<string> => (await run(process.execPath, [bundle])).stdout.trim();
    // A new bundler each time, as each test process has.
    const first = fixtureBundler(root, cache)('fixture.ts');
    assert.equal(await said(first), 'one');
    const manifest = join(cache, readdirSync(cache).find((f) => f.endsWith('.json')) ?? assert.fail('no manifest'));
    const written = statSync(manifest).ino;

    assert.equal(fixtureBundler(root, cache)('fixture.ts'), first);
    assert.equal(statSync(manifest).ino, written, 'nothing built: the manifest was not written again');

    writeFileSync(join(root, 'word.ts'), "export const word: string = 'two';\n");
    const changed = fixtureBundler(root, cache)('fixture.ts');
    assert.notEqual(changed, first);
    assert.equal(await said(changed), 'two');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the run\'s temporary folder: the test processes\' TMPDIR, removed at the end, naming what a test left in it', { timeout: 30_000 }, async () => {
  const env: NodeJS.ProcessEnv = {};
  const clean = runTempFolder(env);
  assert.equal(env.TMPDIR, clean.path);
  const made = (await run(process.execPath, ['-e', "const { mkdtempSync, rmSync } = require('node:fs'); const { join } = require('node:path'); const d = mkdtempSync(join(require('node:os').tmpdir(), 'tidy-')); rmSync(d, { recursive: true }); console.log(d)"], { env: { ...process.env, ...env } })).stdout.trim();
  assert.ok(made.startsWith(clean.path), `a child's tmpdir() is the run's folder: ${made}`);
  assert.equal(clean.close(), undefined);
  assert.ok(!existsSync(clean.path));

  const messy = runTempFolder(env);
  await run(process.execPath, ['-e', "const { mkdirSync, mkdtempSync } = require('node:fs'); const { join } = require('node:path'); const tmp = require('node:os').tmpdir(); mkdtempSync(join(tmp, 'byhand-forgotten-')); mkdirSync(join(tmp, 'node-compile-cache'))"], { env: { ...process.env, ...env } });
  // Node's compile cache is the runtime's, kept there on purpose: not named.
  assert.match(messy.close() ?? '', /^the tests left 1 temporary file\(s\) or folder\(s\) behind: byhand-forgotten-\w{6}; remove each in the after or t\.after of the test that made it$/);
  assert.ok(!existsSync(messy.path), 'removed even so');
});
