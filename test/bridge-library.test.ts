// `@byhand/switchboard` as a host application embeds it: `createBridge({ open })` with byhand's client as the back, and
// no CLI. The fetch face answers the official SDK clients in-process (their transports take a custom fetch), in both
// eras, refuses a foreign Origin, and carries a legacy server's pushed questions as MRTR rounds; the pipe face serves a
// 2026 host on a pair of streams.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, test } from './support/node-test.js';
import { answerAsLegacyHost, answerAsModernHost } from './support/bridge-hosts.js';
import { fixtureCommand } from './support/fixture-bundle.js';
import { envelope, MODERN } from './support/modern-post.js';
import { until } from './support/cli.js';
import { textOf } from './servers-support.js';
import { createBridge, type Bridge, type OpenBack } from '../packages/switchboard/src/index.js';
import { connect, type Target } from '../packages/client/src/index.js';
import { startServer } from '../packages/servers/src/edge/serve.js';

const URL_IN_PAGE = 'http://localhost/mcp';

/** How an embedder opens the server: byhand's client, with the host the bridge gives it. */
function opener(target: Target): OpenBack {
  return async (host, events, extensions) => {
    const client = await connect(target, { host, extensions, onNotification: events.onNotification, ...(events.onGone ? { onGone: events.onGone } : {}) });
    return { client, close: () => client.close() };
  };
}

/** The bridge's fetch face as the SDK transports' fetch: every request goes in-process. */
const through = (bridge: Bridge) => (input: string | URL | Request, init?: RequestInit) => bridge.fetch(new Request(input, init));

async function withBridge(target: Target, run: (bridge: Bridge) => Promise<void>): Promise<void> {
  const bridge = createBridge({ open: opener(target) });
  try {
    await run(bridge);
  } finally {
    await bridge.close();
  }
}

describe('@byhand/switchboard embedded', () => {
  test('the fetch face, in front of a 2026 server: the SDK 2.4.0 client and the SDK 1.x client, each in its own era', { timeout: 30_000 }, async () => {
    const server = await startServer({ port: 0, toolboxes: ['everything'] });
    try {
      await withBridge(server.urls.everything, async (bridge) => {
        const capabilities = { sampling: {}, elicitation: { form: {} } };
        const modern = new ModernClient({ name: 'embedded-modern', version: '1' }, { capabilities, versionNegotiation: { mode: { pin: MODERN } } });
        answerAsModernHost(modern, capabilities, 'modern');
        const legacy = new LegacyClient({ name: 'embedded-legacy', version: '1' }, { capabilities: { sampling: {} } });
        answerAsLegacyHost(legacy, { sampling: {} }, 'legacy');
        try {
          await modern.connect(new ModernTransport(new URL(URL_IN_PAGE), { fetch: through(bridge) }));
          assert.equal(modern.getServerVersion()?.name, 'byhand-everything');
          assert.equal(textOf(await modern.callTool({ name: 'test_sampling', arguments: { prompt: 'Name a colour' } })), 'LLM response: the modern model says: 13 characters');
          await legacy.connect(new LegacyTransport(new URL(URL_IN_PAGE), { fetch: through(bridge) }));
          assert.equal(textOf(await legacy.callTool({ name: 'test_sampling', arguments: { prompt: 'Name a shape' } })), 'LLM response: the legacy model says: 12 characters');
        } finally {
          await modern.close().catch(() => undefined);
          await legacy.close().catch(() => undefined);
        }
        const foreign = await bridge.fetch(new Request(URL_IN_PAGE, { method: 'POST', headers: { origin: 'http://evil.example', 'content-type': 'application/json' }, body: '{}' }));
        assert.equal(foreign.status, 403);
      });
    } finally {
      await server.close();
    }
  });

  test('the fetch face, in front of a 2025 stdio server: its pushed question reaches the SDK 2.4.0 client as a round, and the retry completes', { timeout: 30_000 }, async () => {
    const asker = fixtureCommand('test/fixtures/legacy-asker.ts');
    await withBridge({ command: asker.command, args: asker.args }, async (bridge) => {
      const capabilities = { sampling: {} };
      const host = new ModernClient({ name: 'embedded', version: '1' }, { capabilities, versionNegotiation: { mode: { pin: MODERN } } });
      const asked = answerAsModernHost(host, capabilities, 'embedded');
      try {
        await host.connect(new ModernTransport(new URL(URL_IN_PAGE), { fetch: through(bridge) }));
        assert.equal(textOf(await host.callTool({ name: 'sample', arguments: { prompt: 'in process' } })), 'in process -> the embedded model says: 10 characters');
        assert.deepEqual(asked.prompts, ['in process']);
      } finally {
        await host.close().catch(() => undefined);
      }
    });
  });

  test('the pipe face: a 2026 host on two streams, answered line by line; its input ending ends the face', { timeout: 30_000 }, async () => {
    const server = await startServer({ port: 0, toolboxes: ['everything'] });
    try {
      await withBridge(server.urls.everything, async (bridge) => {
        const stdin = new PassThrough();
        const stdout = new PassThrough();
        let out = '';
        stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
        const served = bridge.stdio({ stdin, stdout });
        stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: envelope({}), name: 'test_simple_text', arguments: {} } })}\n`);
        await until(() => out.includes('"id":1'), 'the answer on the pipe', 10_000);
        assert.match(out, /This is a simple text response for testing/);
        stdin.end();
        assert.equal(await served, undefined);
      });
    } finally {
      await server.close();
    }
  });
});
