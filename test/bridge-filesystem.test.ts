// server-filesystem (tools/peers), the reference server people run, behind `byhand bridge` for a 2026 host (the SDK
// 2.4.0 client): started with no folder, it asks the host for its roots once initialized, outside any call, and works
// in the folders it is told. The bridge holds that question for the host's first call, so the host's folder becomes
// the server's, on the HTTP face and on the pipe face; the old bridge refused the question and every file tool said
// "Access denied".

import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, test } from './support/node-test.js';
import { listen } from './support/bridge-listen.js';
import { bin } from './support/cli.js';
import { MODERN } from './support/modern-post.js';
import { requireTestTool } from './support/test-tools.js';
import { textOf } from './servers-support.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const filesystem = join(root, 'tools', 'peers', 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

/** A 2026 host whose roots are `folder`, asked how many times. */
function hostWithRoots(folder: string): { client: ModernClient; asked: () => number } {
  let asked = 0;
  const client = new ModernClient({ name: 'files-host', version: '1.0.0' }, { capabilities: { roots: {} }, versionNegotiation: { mode: { pin: MODERN } } });
  client.setRequestHandler('roots/list', async () => ((asked += 1), { roots: [{ uri: pathToFileURL(folder).href, name: 'project' }] }));
  return { client, asked: () => asked };
}

describe('server-filesystem behind byhand bridge, for a 2026 host', () => {
  let folder: string;

  async function listsItsFolder(host: { client: ModernClient; asked: () => number }): Promise<void> {
    // The host's first call brings the server's question to it. The server applies the roots it is told on its own
    // time (it checks each folder, asynchronously), so that first call may race it, as it may without a bridge: the
    // first call here only reads, and the folder is listed once the server has the roots.
    const allowed = textOf(await host.client.callTool({ name: 'list_allowed_directories', arguments: {} }));
    const listing = await host.client.callTool({ name: 'list_directory', arguments: { path: folder } });
    assert.match(textOf(listing), /\[FILE\] notes\.txt/, `the server did not work in the host's folder: ${textOf(listing)} (the first call said ${JSON.stringify(allowed)}; roots asked ${host.asked()} times)`);
    assert.equal(host.asked(), 1, 'the host was not asked for its roots once');
  }

  test('the HTTP face: the roots it asks for once initialized come from the host, and its tools work in the host\'s folder', { timeout: 30_000 }, async () => {
    requireTestTool('tools/peers');
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'byhand-files-')));
    writeFileSync(join(folder, 'notes.txt'), 'a note');
    const bridge = await listen(['--', process.execPath, filesystem]);
    const host = hostWithRoots(folder);
    try {
      await host.client.connect(new ModernTransport(new URL(bridge.url)));
      await listsItsFolder(host);
    } finally {
      await host.client.close().catch(() => undefined);
      await bridge.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('the pipe face: the same, the host launching the bridge as its stdio server', { timeout: 30_000 }, async () => {
    requireTestTool('tools/peers');
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'byhand-files-')));
    writeFileSync(join(folder, 'notes.txt'), 'a note');
    const host = hostWithRoots(folder);
    try {
      await host.client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'bridge', '--', process.execPath, filesystem], stderr: 'pipe', cwd: root }));
      await listsItsFolder(host);
    } finally {
      await host.client.close().catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
