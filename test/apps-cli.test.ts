// MCP Apps in the commands that report a server: `byhand list` says which tools have a UI and which a host shows
// only to the model or only to the view; `byhand checkpoint` counts the apps (a human line only where there are some,
// `counts.apps` always in --json). The built command in this process, against The Week and the Kitchen, both eras.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from './support/node-test.js';
import { byhandIn, type CliRun } from './support/cli.js';

const home = mkdtempSync(join(tmpdir(), 'byhand-apps-cli-'));
after(() => rmSync(home, { recursive: true, force: true }));

function byhand(...args: string[]): Promise<CliRun> {
  return byhandIn({ cwd: home, onlyEnv: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1', BYHAND_PROVIDER: 'offline' }, timeoutMs: 60_000 }, ...args);
}

describe('byhand list', () => {
  for (const era of ['modern', 'legacy']) {
    test(`${era}: a tool with a UI says so, with its view; app-only and model-only tools are marked`, async () => {
      const { code, stdout, stderr } = await byhand('list', 'week', 'tools', '--era', era);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /^ {2}show_week \(Show the week\) {2}\[readOnly\]\n(?: {6}.*\n)*? {6}→ has a UI \(MCP App\): ui:\/\/week\/view\.html$/m);
      assert.match(stdout, /^ {2}day_details \(A day's dish against the pantry\) {2}\[readOnly, app only\]$/m);
      assert.match(stdout, /^ {2}shopping_list \(Shopping list\) {2}\[readOnly, model only\]$/m);
      assert.equal(stdout.match(/has a UI/g)?.length, 1, stdout);
    });
  }

  test('a server without apps lists as before: no UI line, no visibility mark', async () => {
    const { code, stdout } = await byhand('list', 'kitchen', 'tools');
    assert.equal(code, 0);
    assert.doesNotMatch(stdout, /has a UI|app only|model only/);
  });
});

describe('byhand checkpoint', () => {
  test('counts the apps: a line only where there are some, counts.apps in --json for every server', async () => {
    const human = await byhand('checkpoint', 'week', 'kitchen');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^✓ week .*\n.*\n {4}3 tool\(s\) · 1 resource\(s\) · 0 prompt\(s\) · 0 template\(s\) · 1 app\(s\)$/m);
    assert.match(human.stdout, /^✓ kitchen .*\n.*\n {4}2 tool\(s\) · 2 resource\(s\) · 1 prompt\(s\) · 0 template\(s\)$/m);

    const json = await byhand('checkpoint', 'week', 'kitchen', '--json');
    assert.equal(json.code, 0, json.stderr);
    const counts = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { name: string; counts: { apps: number } }).map((r) => [r.name, r.counts.apps]);
    assert.deepEqual(counts.sort(), [['kitchen', 0], ['week', 1]]);
  });
});
