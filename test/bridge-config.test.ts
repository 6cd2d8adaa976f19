// The README's `byhand bridge` snippets for Claude Desktop, Cursor and VS Code, exactly as printed: each is read by
// byhand's config loader, and the command it yields is run the way a desktop host runs it (the SDK 1.x client over
// stdio), with the installed `byhand` standing for this repository's binary and the example URL for a loopback
// toolbox (test/package-install runs the same snippets against the installed command itself).

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { after, before, describe, test } from './support/node-test.js';
import { bin } from './support/cli.js';
import { loadConfig } from '../packages/byhand/src/shared/config.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const EXAMPLE_URL = 'https://example.com/mcp';

/** The ```json blocks of the README's bridge section, in order. */
function snippets(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## Bridging a host and a server (`byhand bridge`)');
  assert.ok(start >= 0, 'README.md has the bridge section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]);
}

describe('byhand bridge: the README config snippets', () => {
  let server: RunningServer;
  let folder: string;
  before(async () => {
    server = await startServer({ port: 0, toolboxes: ['everything'] });
    folder = mkdtempSync(join(tmpdir(), 'bridge-config-'));
  });
  after(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('Claude Desktop and Cursor (mcpServers), VS Code (servers): loaded, then run by a 2025 host that thinks', { timeout: 15_000 }, async () => {
    const blocks = snippets();
    assert.equal(blocks.length, 2);
    for (const [index, block] of blocks.entries()) {
      const file = join(folder, `config-${index}.json`);
      writeFileSync(file, block);
      const [entry, ...others] = loadConfig(file, {});
      assert.equal(others.length, 0);
      assert.equal(entry?.error, undefined);
      const connect = entry?.connect as { command: string; args: string[] };
      assert.deepEqual([connect.command, connect.args], ['byhand', ['bridge', EXAMPLE_URL]]);

      // The installed `byhand` is this repository's binary; the example URL is the loopback toolbox.
      const args = [bin, ...connect.args.map((arg) => (arg === EXAMPLE_URL ? server.urls.everything : arg))];
      const client = new Client({ name: `desktop-${index}`, version: '1.0.0' }, { capabilities: { sampling: {} } });
      client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'purple' }, model: 'desktop-model' }));
      try {
        await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: root, env: { ...process.env, BYHAND_PROVIDER: 'offline' }, stderr: 'ignore' }));
        const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'A colour?' } });
        assert.deepEqual(result.content, [{ type: 'text', text: 'LLM response: purple' }]);
      } finally {
        await client.close();
      }
    }
  });
});
