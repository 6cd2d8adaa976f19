// What a command loads is what it uses: `byhand call https://…` runs the client and the host, not the toolboxes, the
// server SDK, zod or a model provider's SDK (the packages issue measured all four loaded).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from './support/node-test.js';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fixtureHandler, serve } from './fixtures/sdk-server.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

test('byhand call https://… loads neither the toolboxes nor the server SDK, zod or a provider SDK', { timeout: 60_000 }, async () => {
  const served = await serve(fixtureHandler('modern-only'));
  const scratch = mkdtempSync(join(tmpdir(), 'byhand-imports-'));
  try {
    const log = join(scratch, 'imports.log');
    const { stdout } = await run(process.execPath, ['--import', './test/support/record-imports.mjs', 'packages/byhand/bin/byhand.js', 'call', served.url, 'echo', 'text=hi'], {
      cwd: root,
      env: { ...process.env, BYHAND_IMPORT_LOG: log, BYHAND_PROVIDER: 'offline', HOME: scratch },
      timeout: 30_000,
    });
    assert.match(stdout, /echo: hi/);
    const loaded = readFileSync(log, 'utf8');
    assert.match(loaded, /packages\/client\/dist\//, 'the log records what loads');
    for (const heavy of ['@modelcontextprotocol/server', '/zod/', '@anthropic-ai/sdk', 'better-sqlite3', '/postgres/']) {
      assert.ok(!loaded.includes(heavy), `byhand call loaded ${heavy}`);
    }
    // The toolbox registry is read for the help text and the names; it is data, and loads no toolbox.
    const servers = loaded.split('\n').filter((line) => line.includes('/packages/servers/'));
    assert.deepEqual([...new Set(servers.map((line) => line.slice(line.indexOf('/packages/servers/'))))], ['/packages/servers/dist/toolboxes/registry.js']);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await served.close();
  }
});
