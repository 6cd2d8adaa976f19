// A 2025 host on `byhand bridge --listen`, as a user meets it: the official SDK 1.x client over Streamable HTTP, with
// its own model, forms and roots, its progress and its log level. In front of a 2025 stdio server that pushes its
// questions (test/fixtures/legacy-asker.ts) everything the server sends outside the host's own request reaches it: the
// pushed requests, the progress, the log messages, and what the server asks once initialized. In front of a 2026
// server, its list changes reach the host's session.

import assert from 'node:assert/strict';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, test } from './support/node-test.js';
import { listen, type Listening } from './support/bridge-listen.js';
import { answerAsLegacyHost } from './support/bridge-hosts.js';
import { fixtureCommand } from './support/fixture-bundle.js';
import { until } from './support/cli.js';
import { textOf } from './servers-support.js';
import { startServer } from '../packages/servers/src/edge/serve.js';

const asker = fixtureCommand('test/fixtures/legacy-asker.ts');
const bounded = { timeout: 10_000 };

async function withBridge(args: string[], run: (bridge: Listening) => Promise<void>): Promise<void> {
  const bridge = await listen(args);
  try {
    await run(bridge);
  } finally {
    await bridge.stop();
  }
}

/** The SDK 1.x client as a 2025 desktop host on HTTP: what it was asked, and the notifications it heard. */
async function legacyHost(url: string, label: string) {
  const capabilities = { sampling: {}, elicitation: {}, roots: {} };
  const client = new LegacyClient({ name: `host-${label}`, version: '1.0.0' }, { capabilities });
  const asked = answerAsLegacyHost(client, capabilities, label);
  const heard: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => void heard.push(`log: ${String(n.params.data)}`));
  client.setNotificationHandler(ToolListChangedNotificationSchema, async (n) => void heard.push(n.method));
  await client.connect(new LegacyTransport(new URL(url)), bounded);
  return { client, asked, heard };
}

describe('a 2025 host on the HTTP face hears what does not arrive inside its own request', () => {
  test('in front of a 2025 stdio server: pushed sampling, forms and roots, progress, log messages, and the roots asked once initialized', { timeout: 40_000 }, async () => {
    await withBridge(['--', asker.command, ...asker.args], async (bridge) => {
      const host = await legacyHost(bridge.url, 'x');
      try {
        const sampled = await host.client.callTool({ name: 'sample', arguments: { prompt: 'a colour' } }, undefined, bounded);
        assert.equal(textOf(sampled), 'a colour -> the x model says: 8 characters');
        const asked = await host.client.callTool({ name: 'ask', arguments: { message: 'Who?' } }, undefined, bounded);
        assert.equal(textOf(asked), 'Who? -> accept {"answer":"x answer"}');
        assert.equal(textOf(await host.client.callTool({ name: 'roots', arguments: {} }, undefined, bounded)), 'file:///x/project');
        // Asked by the server on its own once initialized, outside any request of the host's.
        await until(() => host.asked.roots > 1, 'the server to ask for the roots on its own', 10_000);
        assert.equal(textOf(await host.client.callTool({ name: 'show_roots', arguments: {} }, undefined, bounded)), 'file:///x/project');

        await host.client.setLoggingLevel('info', bounded);
        const progress: number[] = [];
        const chatty = await host.client.callTool({ name: 'chatty', arguments: { label: 'c' } }, undefined, { ...bounded, onprogress: (p) => void progress.push(p.progress) });
        assert.equal(textOf(chatty), 'c done');
        await until(() => host.heard.includes('log: c step 3'), 'the log messages to reach the host', 5_000);
        assert.deepEqual(host.heard.filter((h) => h.startsWith('log: c')), ['log: c step 1', 'log: c step 3']);
        // The SDK 1.x hands the last progress to its handler after the answer retires the token (typescript-sdk 2580).
        assert.ok(progress.length >= 2 && progress[0] === 1, `progress heard: ${progress.join(', ')}`);
      } finally {
        await host.client.close().catch(() => undefined);
      }
    });
  });

  test('in front of a 2026 server: its list changes reach the host\'s session', { timeout: 30_000 }, async () => {
    const server = await startServer({ port: 0, toolboxes: ['everything'] });
    try {
      await withBridge([server.urls.everything], async (bridge) => {
        const host = await legacyHost(bridge.url, 'x');
        try {
          await host.client.callTool({ name: 'test_trigger_tool_change', arguments: {} }, undefined, bounded);
          await until(() => host.heard.includes('notifications/tools/list_changed'), 'the list change to reach the host', 10_000);
        } finally {
          await host.client.close().catch(() => undefined);
        }
      });
    } finally {
      await server.close();
    }
  });
});
