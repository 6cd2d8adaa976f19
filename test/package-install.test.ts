// The packages as an npm user gets them: every workspace packed, the tarballs installed into an empty folder with
// --omit=dev, `byhand/client` imported and the installed `byhand checkpoint` run on its embedded default. The
// client alone must stay one package, under 1 MB, with no native build.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './support/node-test.js';
import { promisify } from 'node:util';
// A plain .mjs tool, shared with `npm run install-cost`.
import { installInto, measure, packAll } from '../tools/packaging/packaging.mjs';

const run = promisify(execFile);

test('the packed tarballs install with --omit=dev, import, and run byhand checkpoint', { timeout: 300_000 }, async () => {
  const packs = await packAll();
  const dirs: string[] = [];
  try {
    for (const [name, pack] of Object.entries(packs)) {
      assert.ok(pack.files.some((f) => f.startsWith('dist/')), `${name} ships its build`);
      assert.ok(pack.files.every((f) => /^(dist\/.*\.(js|d\.ts)|bin\/byhand\.js|README\.md|package\.json)$/.test(f)), `${name} ships only its build: ${pack.files.join(', ')}`);
    }

    const everything = await installInto(Object.values(packs).map((p) => p.path));
    dirs.push(everything.dir);
    const imported = await run(process.execPath, ['--input-type=module', '-e', "const m = await import('byhand/client'); const a = await import('byhand/client/auth'); const s = await import('byhand/servers'); const h = await import('byhand/host'); console.log(typeof m.connect, typeof a.createOAuth, typeof s.createKitchen, typeof h)"], { cwd: everything.dir });
    assert.match(imported.stdout, /^function \w+ function object/);
    // From outside the project, so no config is found and the embedded toolboxes are probed; no keys, no network.
    const checkpoint = await run(join(everything.dir, 'node_modules', '.bin', 'byhand'), ['checkpoint'], { cwd: everything.dir, timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: everything.dir } });
    assert.match(checkpoint.stdout, /The Kitchen/);
    assert.match(checkpoint.stdout, /The Cookie Jar/);
    assert.match(checkpoint.stdout, /2026-07-28/);

    const clientOnly = await installInto([packs['@byhand/client'].path]);
    dirs.push(clientOnly.dir);
    const cost = measure(clientOnly.dir);
    assert.deepEqual(cost.packages, ['@byhand/client']);
    assert.ok(cost.bytes < 1_000_000, `${cost.bytes} bytes`);
    assert.deepEqual(cost.native, []);
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
});
