// Redaction by origin: a value a config took from the environment, or that was given for an ${input:}, stays out of
// what byhand prints wherever it lands, not only under a secret-sounding name: a URL query under `q=`, the error
// quoting that URL, a trace, the --json report. The built command in a temporary HOME, a trusted folder whose
// config spends a variable, and a loopback server that answers 404 and keeps what it was sent.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from './support/node-test.js';
import { byhandIn } from './support/cli.js';
import { withoutSecrets, keepSecret } from '../packages/byhand/src/shared/secret-values.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-origin-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const SECRET = 'hunter2-origin-value';
const seen: string[] = [];
const recorder = createServer((req, res) => {
  seen.push(req.url ?? '');
  res.writeHead(404).end();
});
let port = 0;
before(async () => {
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  port = (recorder.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => {
  recorder.closeAllConnections();
  recorder.close(() => resolve());
}));

function place(name: string) {
  const home = join(scratch, name, 'home');
  const project = join(scratch, name, 'project');
  mkdirSync(join(home, '.cursor'), { recursive: true });
  mkdirSync(project, { recursive: true });
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), BYHAND_CONFIG_DIR: undefined, USERPROFILE: undefined, APPDATA: undefined, NO_COLOR: '1', SEARCH_TOKEN: SECRET, REGION: 'eu' };
  return { home, project, run: (...args: string[]) => byhandIn({ cwd: project, env }, ...args) };
}

describe('a value from a variable is redacted wherever it lands', () => {
  test('a trusted folder\'s URL with the variable under q=: the report, --json, --trace and the error leave it out', { timeout: 60_000 }, async () => {
    const at = place('trusted-query');
    writeFileSync(join(at.project, '.mcp.json'), JSON.stringify({ mcpServers: { search: { url: `http://127.0.0.1:${port}/mcp?q=\${SEARCH_TOKEN}&region=\${env:REGION}` } } }));
    const before = seen.length;
    const plain = await at.run('checkpoint', '--trust', '--trace', '--details');
    const json = await at.run('checkpoint', '--trust', '--json');
    const list = await at.run('list', 'search', '--trust', '--trace');
    assert.ok(seen.slice(before).some((url) => url.includes(SECRET)), 'the value was sent: expansion works as before');
    for (const run of [plain, json, list]) {
      const printed = run.stdout + run.stderr;
      assert.ok(!printed.includes(SECRET), `printed:\n${printed}`);
    }
    assert.match(plain.stdout, /q=\(redacted\)&region=eu/, 'the rest of the URL is printed as written; a short value is left alone');
    assert.equal(JSON.parse(json.stdout.trim().split('\n')[0]).target, `http://127.0.0.1:${port}/mcp?q=(redacted)&region=eu`);
    assert.match(list.stderr, /^✗ .*q=\(redacted\)/m);
  });

  test('the user\'s own config too, and a value given for an ${input:}', { timeout: 60_000 }, async () => {
    const at = place('home-input');
    writeFileSync(join(at.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { mine: { url: `http://127.0.0.1:${port}/mcp?q=\${SEARCH_TOKEN}&id=\${input:account}` } } }));
    const run = await at.run('checkpoint', '--json', '--input', 'account=acct-42-typed-value');
    const printed = run.stdout + run.stderr;
    assert.ok(!printed.includes(SECRET) && !printed.includes('acct-42-typed-value'), `printed:\n${printed}`);
    assert.match(printed, /q=\(redacted\)&id=\(redacted\)/);
  });
});

test('withoutSecrets: every form a value is printed in, the longest value first', () => {
  const secrets = new Set<string>();
  keepSecret(secrets, 'a b"c/d');
  keepSecret(secrets, 'a b"c/d-longer');
  keepSecret(secrets, 'short');
  keepSecret(secrets, 'a-home-folder-path', 'HOME');
  assert.equal(withoutSecrets('x a b"c/d-longer y', secrets), 'x (redacted) y');
  assert.equal(withoutSecrets('{"v":"a b\\"c/d"}', secrets), '{"v":"(redacted)"}');
  assert.equal(withoutSecrets('?q=a%20b%22c%2Fd', secrets), '?q=(redacted)');
  assert.equal(withoutSecrets('short a-home-folder-path', secrets), 'short a-home-folder-path', 'a short value and HOME are no secrets');
});
