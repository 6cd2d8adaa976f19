// A discovered config with a syntax error stops the command with exit 2, naming the file, the line and the column:
// skipped, it read as "no MCP config found", the bundled toolboxes were probed instead, and a name it defines (a
// `kitchen` of the user's own) quietly reached the bundled toolbox. The built command in a temporary HOME.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from './support/node-test.js';
import { byhandIn } from './support/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-broken-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function place(name: string) {
  const home = join(scratch, name, 'home');
  const project = join(scratch, name, 'project');
  mkdirSync(join(home, '.cursor'), { recursive: true });
  mkdirSync(project, { recursive: true });
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), BYHAND_CONFIG_DIR: undefined, USERPROFILE: undefined, APPDATA: undefined, NO_COLOR: '1' };
  return { home, project, run: (...args: string[]) => byhandIn({ cwd: project, env }, ...args) };
}

/** A `kitchen` entry of the user's own, then a word that is not JSON on line 3. */
const BROKEN = '{\n  "mcpServers": {\n    "kitchen": { "command": "node" }, oops\n  }\n}\n';

describe('a discovered config that is not JSONC', () => {
  test('checkpoint, list and doctor stop at it with exit 2, naming the file, line and column', { timeout: 60_000 }, async () => {
    const at = place('home-config');
    const file = join(at.home, '.cursor', 'mcp.json');
    writeFileSync(file, BROKEN);
    const where = new RegExp(`^✗ ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:39: not valid JSON \\(not a JSON value, found "oops"\\): fix the file \\(Cursor \\(user\\)\\), or name another with --config FILE`, 'm');

    const checkpoint = await at.run('checkpoint');
    assert.equal(checkpoint.code, 2, checkpoint.stderr);
    assert.match(checkpoint.stderr, where);
    assert.doesNotMatch(checkpoint.stderr, /no MCP config found/);
    assert.equal(checkpoint.stdout, '', 'nothing was probed');

    const list = await at.run('list', 'kitchen');
    assert.equal(list.code, 2, list.stderr);
    assert.match(list.stderr, where);
    assert.doesNotMatch(list.stderr, /bundled, started in this process/);

    const doctor = await at.run('doctor');
    assert.equal(doctor.code, 2, doctor.stdout);
    assert.match(doctor.stdout, /^ {2}✗ bad {3}.*\.cursor\/mcp\.json {2}Cursor \(user\)$/m);
    assert.match(doctor.stdout, /^ {2}✗ .*\.cursor\/mcp\.json:3:39: not valid JSON/m);

    const embedded = await at.run('list', 'kitchen', '--embedded');
    assert.equal(embedded.code, 0, '--embedded reads no config');
  });

  test('a trusted folder\'s broken .mcp.json stops the command; an untrusted one is not read at all', { timeout: 60_000 }, async () => {
    const at = place('project-config');
    writeFileSync(join(at.project, '.mcp.json'), BROKEN);
    const untrusted = await at.run('list', 'kitchen');
    assert.equal(untrusted.code, 0, untrusted.stderr);
    assert.match(untrusted.stderr, /skipped the MCP servers of this folder's \.mcp\.json/);
    const trusted = await at.run('list', 'kitchen', '--trust');
    assert.equal(trusted.code, 2, trusted.stderr);
    assert.match(trusted.stderr, /^✗ .*project\/\.mcp\.json:3:39: not valid JSON .*fix the file \(Claude Code \(project\)\)/m);
  });
});
