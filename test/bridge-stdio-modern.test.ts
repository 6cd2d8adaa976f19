// `byhand bridge` on stdio with a 2026 host: the official SDK 2.4.0 client pinned to the modern era launches the real
// CLI. In front of the modern Everything toolbox and in front of a legacy stdio server that pushes its requests
// (server-everything), what the server asks comes to the host as `input_required`, the host's handlers answer, and
// the retry carries the call on; what the host's envelope does not declare, the back does not declare to the server.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { after, before, describe, test } from './support/node-test.js';
import { bin, until } from './support/cli.js';
import { answerAsModernHost, tapProgress, type Asked } from './support/bridge-hosts.js';
import { textOf } from './servers-support.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const MODERN = '2026-07-28';

interface ModernHost extends Asked {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

async function modernHost(args: string[], capabilities: Record<string, object> = { sampling: {}, elicitation: { form: {} }, roots: {} }): Promise<ModernHost> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'bridge', ...args],
    env: { ...process.env, BYHAND_PROVIDER: 'offline', NO_COLOR: '1' },
    stderr: 'pipe',
    cwd: root,
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'modern-host', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: { pin: MODERN } } });
  const host: ModernHost = { client, ...answerAsModernHost(client, capabilities, 'modern'), stderr: () => stderr, close: () => client.close() };
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(`the bridge did not start: ${String(error)}\n${stderr}`, { cause: error });
  }
  return host;
}

describe('byhand bridge: a 2026 host on stdio', () => {
  let server: RunningServer;
  let url: string;
  before(async () => {
    server = await startServer({ port: 0, toolboxes: ['everything'] });
    url = server.urls.everything!;
  });
  after(() => server.close());

  test('in front of a modern server: server/discover from its identity, input_required carried back and forth', { timeout: 15_000 }, async () => {
    const host = await modernHost([url]);
    try {
      assert.equal(host.client.getServerVersion()?.name, 'byhand-everything', host.stderr());
      const thought = await host.client.callTool({ name: 'test_sampling', arguments: { prompt: 'Name a colour' } });
      assert.equal(textOf(thought), 'LLM response: the modern model says: 13 characters');
      assert.deepEqual(host.prompts, ['Name a colour']);
      const asked = await host.client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
      assert.equal(textOf(asked), 'User response: action=accept, content={"response":"modern response"}');
      const wire = tapProgress(host.client);
      await host.client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: () => undefined });
      assert.deepEqual(wire.lastCall(), [0, 50, 100], "the server's progress reaches the host under its token, before the result");
    } finally {
      await host.close();
    }
  });

  test('lists and reads carry the caching hints a 2026 result must have (ttlMs, cacheScope), whichever era the server speaks', { timeout: 15_000 }, async () => {
    for (const args of [[url], ['--', process.execPath, everything, 'stdio']]) {
      const host = await modernHost(args);
      try {
        // The SDK's schemas require both hints on these results: a result without them is refused as invalid.
        assert.ok((await host.client.listTools()).tools.length > 0, host.stderr());
        assert.ok((await host.client.listPrompts()).prompts.length > 0);
        const { resources } = await host.client.listResources();
        assert.ok((await host.client.readResource({ uri: resources[0].uri })).contents.length > 0);
        assert.ok(Array.isArray((await host.client.listResourceTemplates()).resourceTemplates));
      } finally {
        await host.close();
      }
    }
  });

  test('a ping before anything else is answered without taking the host for a 2025 one, a character split across reads intact', { timeout: 15_000 }, async () => {
    const child = spawn(process.execPath, [bin, 'bridge', url], { cwd: root, env: { ...process.env, BYHAND_PROVIDER: 'offline' }, stdio: ['pipe', 'pipe', 'ignore'] });
    const answers: Record<string, unknown>[] = [];
    let buffered = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) answers.push(JSON.parse(line) as Record<string, unknown>);
    });
    try {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
      await until(() => answers.length === 1, 'the first ping answered', 10_000);
      // The next one's é split across two writes, while the bridge is reading: it decodes the character whole.
      const ping = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 'café', method: 'ping' })}\n`);
      const split = ping.indexOf(Buffer.from('é')) + 1;
      child.stdin.write(ping.subarray(0, split));
      await new Promise((resolve) => setTimeout(resolve, 50));
      child.stdin.write(ping.subarray(split));
      const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: meta } })}\n`);
      await until(() => answers.length === 3, 'three answers', 10_000);
      assert.deepEqual(answers.slice(0, 2), [{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 'café', result: {} }]);
      const discovered = answers[2].result as { supportedVersions: string[]; _meta: Record<string, { name: string }> };
      assert.deepEqual(discovered.supportedVersions, [MODERN]);
      assert.equal(discovered._meta['io.modelcontextprotocol/serverInfo'].name, 'byhand-everything');
    } finally {
      child.stdin.end();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  test('in front of a legacy stdio server: its pushed requests become input_required, the retry answers them', { timeout: 15_000 }, async () => {
    const host = await modernHost(['--', process.execPath, everything, 'stdio']);
    try {
      const thought = await host.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'Name a colour', maxTokens: 20 } });
      assert.match(textOf(thought), /the modern model says/);
      assert.match(host.prompts[0] ?? '', /Name a colour/);
      const asked = await host.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
      assert.match(textOf(asked), /modern name/);
      assert.equal(host.forms.length, 1);
    } finally {
      await host.close();
    }
  });

  test('a host that did not declare sampling: its back does not either, so the legacy server never asks for it', { timeout: 15_000 }, async () => {
    const host = await modernHost(['--', process.execPath, everything, 'stdio'], { elicitation: { form: {} } });
    try {
      // server-everything registers its sampling tool only for a client that declared sampling.
      const offered = (await host.client.listTools()).tools.map((tool) => tool.name);
      assert.ok(offered.includes('trigger-elicitation-request') && !offered.includes('trigger-sampling-request'), offered.join(', '));
      // The session goes on: the server was answered, not left waiting.
      const asked = await host.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
      assert.match(textOf(asked), /modern name/);
    } finally {
      await host.close();
    }
  });
});
