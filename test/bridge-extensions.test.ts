// The extensions a host declares reach the server through `byhand bridge` when the bridge carries them (MCP Apps,
// skills): a server may offer some tools only to a host that can render a view, and the back declares to it what the
// host declared. A 2025 server on the SDK 1.x (test/fixtures/legacy-asker.ts) says what its client declared at
// initialize; the hosts are the official SDK clients, a 2026 one on the HTTP face and a 2025 one on the pipe face.

import assert from 'node:assert/strict';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { listen } from './support/bridge-listen.js';
import { bin } from './support/cli.js';
import { fixtureCommand } from './support/fixture-bundle.js';
import { MODERN } from './support/modern-post.js';
import { textOf } from './servers-support.js';

const asker = fixtureCommand('test/fixtures/legacy-asker.ts');
const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

describe('the extensions a host declares, through byhand bridge to a 2025 server', () => {
  test('a 2026 host on the HTTP face: the server is told MCP Apps when the host declares it, and not when it does not', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const bridge = cleanup(await listen(['--', asker.command, ...asker.args]));
    const told = async (capabilities: Record<string, object>) => {
      const host = cleanup(new ModernClient({ name: 'apps-host', version: '1' }, { capabilities, versionNegotiation: { mode: { pin: MODERN } } }));
      await host.connect(new ModernTransport(new URL(bridge.url)));
      return textOf(await host.callTool({ name: 'extensions', arguments: {} })).split(',');
    };
    assert.ok((await told({ extensions: UI })).includes('io.modelcontextprotocol/ui'));
    assert.ok(!(await told({})).includes('io.modelcontextprotocol/ui'));
  });

  test('a 2025 host on the pipe face: its initialize\'s extensions are the back\'s', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const host = cleanup(new LegacyClient({ name: 'apps-host', version: '1' }, { capabilities: { extensions: UI } }));
    await host.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'bridge', '--', asker.command, ...asker.args], stderr: 'pipe' }));
    assert.ok(textOf(await host.callTool({ name: 'extensions', arguments: {} })).split(',').includes('io.modelcontextprotocol/ui'));
  });
});
