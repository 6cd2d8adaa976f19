// The packages as a user gets them (README.md, "Install"): every workspace packed as `npm run pack` packs it, the
// tarballs installed with npm from a registry that serves only the third-party packages the lockfile resolved
// (test/support/lockfile-registry.ts: `byhand` and `@byhand/*` are not published, so nothing may be fetched under
// those names). Installed globally into an empty prefix, the README's host snippets start the installed `byhand
// bridge` from a host's folder elsewhere, with the SDK's client as the desktop host; installed into a project's
// folder, `byhand/client` imports and `byhand checkpoint` runs. The client alone stays one package, under 1 MB, with no
// native build.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { after, before, test } from './support/node-test.js';
import { startLockfileRegistry, type LockfileRegistry } from './support/lockfile-registry.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
// A plain .mjs tool, shared with `npm run pack` and `npm run install-cost`.
import { installGlobal, installInto, measure, packAll } from '../tools/packaging/packaging.mjs';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const EXAMPLE_URL = 'https://example.com/mcp';
/** Every workspace, by its folder and its package name: all of them are packed and installed together. */
const WORKSPACES = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces
  .map((folder) => ({ folder, name: (JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as { name: string }).name }));
const PACKAGES = WORKSPACES.map((w) => w.name);

const scratch = mkdtempSync(join(tmpdir(), 'byhand-install-'));
let registry: LockfileRegistry | undefined;
let toolbox: RunningServer | undefined;
let packs: Awaited<ReturnType<typeof packAll>>;
after(async () => {
  await registry?.close();
  await toolbox?.close();
  rmSync(scratch, { recursive: true, force: true });
});
before(async () => {
  registry = await startLockfileRegistry(root);
  toolbox = await startServer({ port: 0, host: '127.0.0.1', toolboxes: ['everything'] });
  mkdirSync(join(scratch, 'packs'));
  packs = await packAll(join(scratch, 'packs'));
});

/** In the order the README's `./packs/*.tgz` gives them. */
const tarballs = () => PACKAGES.map((name) => packs[name].path).sort();

/** A folder of its own under the scratch folder. */
function folder(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The README's Bridging section: its host config files (```json) and its `claude mcp add` line. */
function readmeSnippets(): { configs: string[]; claudeCode: string } {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## Bridging a host and a server (`byhand bridge`)');
  assert.ok(start >= 0, 'README.md has the bridge section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const configs = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]);
  const claudeCode = /^claude mcp add .*$/m.exec(section)?.[0];
  assert.ok(claudeCode !== undefined, 'the bridge section has a `claude mcp add` line');
  return { configs, claudeCode };
}

test('every tarball holds its build and the metadata a publish needs, and they depend on each other at one version', { timeout: 120_000 }, () => {
  assert.deepEqual(Object.keys(packs).sort(), [...PACKAGES].sort());
  for (const [name, pack] of Object.entries(packs)) {
    assert.ok(pack.files.some((f) => f.startsWith('dist/')), `${name} ships its build`);
    assert.ok(pack.files.every((f) => /^(dist\/.*\.(js|d\.ts)|bin\/byhand\.js|README\.md|package\.json)$/.test(f)), `${name} ships only its build: ${pack.files.join(', ')}`);
  }
  const manifests = WORKSPACES.map(({ folder }) => JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')));
  const version = manifests[0].version as string;
  for (const manifest of manifests) {
    const at = manifest.name as string;
    assert.equal(manifest.version, version, `${at}: one version for all of them`);
    assert.equal(typeof manifest.description, 'string', `${at}: description`);
    assert.equal(manifest.license, 'MIT', `${at}: license`);
    assert.match(manifest.engines?.node ?? '', /^>=\d+/, `${at}: engines.node`);
    assert.ok(Array.isArray(manifest.files), `${at}: files`);
    assert.deepEqual(manifest.publishConfig, { access: 'public', provenance: true }, `${at}: publishConfig`);
    for (const [dep, range] of Object.entries<string>(manifest.dependencies ?? {})) {
      if (PACKAGES.includes(dep)) assert.equal(range, version, `${at} depends on ${dep} at exactly ${version}`);
    }
  }
});

test('npm install -g of every tarball into an empty prefix: the README\'s host configs start the installed byhand bridge from a folder elsewhere', { timeout: 300_000 }, async () => {
  const prefix = folder('prefix');
  await installGlobal(tarballs(), prefix, registry!.url);
  assert.deepEqual(registry!.refused, [], 'nothing but the lockfile\'s third-party packages was asked of the registry');
  assert.ok(existsSync(join(prefix, 'bin', 'byhand')), 'byhand is in the prefix\'s bin/');

  // The host's folder and HOME are neither the prefix nor the repository; its PATH has the prefix's bin/ and node.
  const host = folder('host');
  const env = { PATH: [join(prefix, 'bin'), dirname(process.execPath)].join(delimiter), HOME: host, BYHAND_PROVIDER: 'offline' };
  const { configs, claudeCode } = readmeSnippets();
  assert.ok(configs.length >= 2, 'Claude Desktop and Cursor (mcpServers), VS Code (servers)');
  const entries = configs.map((text, index) => {
    writeFileSync(join(host, `config-${index}.json`), text);
    const config = JSON.parse(readFileSync(join(host, `config-${index}.json`), 'utf8')) as Record<string, Record<string, { command: string; args: string[] }>>;
    const [entry] = Object.values(config.mcpServers ?? config.servers);
    return { what: `README config ${index + 1}`, command: entry.command, args: entry.args };
  });
  // `claude mcp add NAME -- COMMAND ARGS...`: Claude Code runs what follows `--`.
  const [command, ...args] = claudeCode.slice(claudeCode.indexOf(' -- ') + 4).split(' ');
  entries.push({ what: 'the README\'s claude mcp add', command, args });

  for (const { what, command, args } of entries) {
    assert.deepEqual([command, args], ['byhand', ['bridge', EXAMPLE_URL]], `${what} starts the installed command`);
    const client = new Client({ name: 'desktop', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'purple' }, model: 'desktop-model' }));
    try {
      const transport = new StdioClientTransport({ command, args: args.map((arg) => (arg === EXAMPLE_URL ? toolbox!.urls.everything : arg)), cwd: host, env, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await client.connect(transport).catch((error: Error) => assert.fail(`${what}: ${error.message}\n${stderr}`));
      assert.equal(client.getServerVersion()?.name, 'byhand-everything', what);
      const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'A colour?' } });
      assert.deepEqual(result.content, [{ type: 'text', text: 'LLM response: purple' }], what);
    } finally {
      await client.close();
    }
  }
});

test('npm install of every tarball into a project\'s folder: byhand/client imports and byhand checkpoint runs', { timeout: 300_000 }, async () => {
  const { dir } = await installInto(tarballs(), { dir: folder('project'), registry: registry!.url });
  const imported = await run(process.execPath, ['--input-type=module', '-e', "const m = await import('byhand/client'); const a = await import('byhand/client/auth'); const s = await import('byhand/servers'); const h = await import('byhand/host'); console.log(typeof m.connect, typeof a.createOAuth, typeof s.createKitchen, typeof h)"], { cwd: dir });
  assert.match(imported.stdout, /^function \w+ function object/);
  // From outside the project, so no config is found and the embedded toolboxes are probed; no keys, no network.
  const checkpoint = await run(join(dir, 'node_modules', '.bin', 'byhand'), ['checkpoint'], { cwd: dir, timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: dir } });
  assert.match(checkpoint.stdout, /The Kitchen/);
  assert.match(checkpoint.stdout, /The Cookie Jar/);
  assert.match(checkpoint.stdout, /2026-07-28/);
});

test('the client alone installs as one package, under 1 MB, with no native build', { timeout: 300_000 }, async () => {
  const { dir } = await installInto([packs['@byhand/client'].path], { dir: folder('client-only'), registry: registry!.url });
  const cost = measure(dir);
  assert.deepEqual(cost.packages, ['@byhand/client']);
  assert.ok(cost.bytes < 1_000_000, `${cost.bytes} bytes`);
  assert.deepEqual(cost.native, []);
});
