// `byhand bridge --listen` in front of a 2025 stdio server that pushes its questions (test/fixtures/legacy-asker.ts,
// on the SDK 1.x), with 2026 hosts as users meet it: the SDK 2.4.0 client (its own MRTR loop, `onprogress`), two of
// them at once with the same capabilities, and requests written by hand where the status, the stream before the
// answer or a closed connection is the point. A pushed request names no call on stdio, so each call holds a back of
// its own while it runs: each host is asked only its own questions, and no call waits behind another's form.

import assert from 'node:assert/strict';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { describe, test } from './support/node-test.js';
import { listen, type Listening } from './support/bridge-listen.js';
import { answerAsModernHost, type Asked } from './support/bridge-hosts.js';
import { fixtureCommand } from './support/fixture-bundle.js';
import { envelope, MODERN, modernPost } from './support/modern-post.js';
import { until } from './support/cli.js';
import { textOf } from './servers-support.js';

const asker = fixtureCommand('test/fixtures/legacy-asker.ts');

/** A bridge in front of the asking server, stopped when `run` ends however it ends. */
async function withBridge(run: (bridge: Listening) => Promise<void>, flags: string[] = []): Promise<void> {
  const bridge = await listen([...flags, '--', asker.command, ...asker.args]);
  try {
    await run(bridge);
  } finally {
    await bridge.stop();
  }
}

async function modernHost(url: string, label: string, capabilities: Record<string, object>): Promise<{ client: ModernClient } & Asked> {
  const client = new ModernClient({ name: `host-${label}`, version: '1.0.0' }, { capabilities, versionNegotiation: { mode: { pin: MODERN } } });
  const asked = answerAsModernHost(client, capabilities, label);
  await client.connect(new ModernTransport(new URL(url)));
  return Object.assign(asked, { client });
}

const call = (id: number, name: string, args: Record<string, unknown>, capabilities: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
  id,
  method: 'tools/call',
  params: { _meta: envelope(capabilities, meta), name, arguments: args },
});

describe('byhand bridge --listen in front of a 2025 stdio server that pushes its questions', () => {
  test('two 2026 hosts with the same capabilities ask at once: each is asked only its own question and gets its own answer', { timeout: 30_000 }, async () => {
    await withBridge(async (bridge) => {
      const x = await modernHost(bridge.url, 'x', { sampling: {} });
      const y = await modernHost(bridge.url, 'y', { sampling: {} });
      try {
        const [fromX, fromY] = await Promise.all([
          x.client.callTool({ name: 'sample', arguments: { prompt: "x's secret plan" } }),
          y.client.callTool({ name: 'sample', arguments: { prompt: "y's private note" } }),
        ]);
        assert.deepEqual(x.prompts, ["x's secret plan"], 'host x was asked another host\'s question');
        assert.deepEqual(y.prompts, ["y's private note"], 'host y was asked another host\'s question');
        assert.equal(textOf(fromX), "x's secret plan -> the x model says: 15 characters");
        assert.equal(textOf(fromY), "y's private note -> the y model says: 16 characters");
      } finally {
        await x.client.close().catch(() => undefined);
        await y.client.close().catch(() => undefined);
      }
    });
  });

  test('a 2026 call with a progress token that needs input: its retry completes (the SDK 2.4.0 client with onprogress)', { timeout: 30_000 }, async () => {
    await withBridge(async (bridge) => {
      const host = await modernHost(bridge.url, 'x', { sampling: {} });
      try {
        const result = await host.client.callTool({ name: 'sample', arguments: { prompt: 'with progress' } }, { onprogress: () => undefined });
        assert.equal(textOf(result), 'with progress -> the x model says: 13 characters');
      } finally {
        await host.client.close().catch(() => undefined);
      }
    });
  });

  test('a round answered on a connection that then closes: the retry, on a new connection, completes', { timeout: 30_000 }, async () => {
    await withBridge(async (bridge) => {
      const caps = { elicitation: { form: {} } };
      const first = await modernPost(bridge.url, call(1, 'ask', { message: 'Still there?' }, caps), { close: true });
      assert.equal(first.answer.result?.resultType, 'input_required', JSON.stringify(first.answer));
      // Another request on another connection: by its answer the bridge has seen the first connection close.
      await modernPost(bridge.url, { id: 2, method: 'tools/list', params: { _meta: envelope(caps) } });
      const [key] = Object.keys(first.answer.result?.inputRequests as object);
      const retry = call(3, 'ask', { message: 'Still there?' }, caps);
      const done = await modernPost(bridge.url, { ...retry, params: { ...retry.params, inputResponses: { [key]: { action: 'accept', content: { answer: 'yes' } } }, requestState: first.answer.result?.requestState } }, { close: true });
      assert.equal(textOf(done.answer.result as never), 'Still there? -> accept {"answer":"yes"}', JSON.stringify(done.answer));
    });
  });

  test("a 2026 host that asks for logs hears its call's log messages, on the stream before the answer; one that does not ask hears none", { timeout: 30_000 }, async () => {
    await withBridge(async (bridge) => {
      const logged = await modernPost(bridge.url, call(1, 'chatty', { label: 'loud' }, {}, { 'io.modelcontextprotocol/logLevel': 'info' }));
      assert.equal(textOf(logged.answer.result as never), 'loud done', JSON.stringify(logged.answer));
      assert.deepEqual(logged.before.filter((m) => m.method === 'notifications/message').map((m) => m.params?.data), ['loud step 1', 'loud step 3']);
      const quiet = await modernPost(bridge.url, call(2, 'chatty', { label: 'quiet' }, {}));
      assert.equal(textOf(quiet.answer.result as never), 'quiet done');
      assert.deepEqual(quiet.before, []);
    });
  });

  test('a legacy server that asks anyway for what the host did not declare: -32021 naming it, HTTP 400', { timeout: 30_000 }, async () => {
    await withBridge(async (bridge) => {
      const refused = await modernPost(bridge.url, call(1, 'sample', { prompt: 'unasked' }, {}));
      assert.equal(refused.status, 400, JSON.stringify(refused.answer));
      assert.equal(refused.answer.error?.code, -32021, JSON.stringify(refused.answer));
      assert.deepEqual((refused.answer.error?.data as { requiredCapabilities?: unknown })?.requiredCapabilities, { sampling: {} });
    });
  });

  test('what the server asks outside any call (the roots, once initialized, as server-filesystem does) reaches the next call\'s host first', { timeout: 30_000 }, async () => {
    await withBridge(async (bridge) => {
      const host = await modernHost(bridge.url, 'x', { roots: {} });
      try {
        // The host's discovery opened the back; the server asks once initialized, and the bridge holds the question.
        await until(() => /asked for roots\/list while no call ran/.test(bridge.cli.stderr()), 'the server to ask for the roots', 10_000);
        const shown = await host.client.callTool({ name: 'show_roots', arguments: {} });
        assert.equal(textOf(shown), 'file:///x/project', 'the server did not get the roots it asked for after initialize');
        assert.equal(host.roots, 1);
      } finally {
        await host.client.close().catch(() => undefined);
      }
    });
  });

  test("a second call while the first waits for its host's answer runs at once on a back of its own, and is asked only its own question", { timeout: 30_000 }, async () => {
    await withBridge(async (bridge) => {
      const caps = { elicitation: { form: {} } };
      const first = await modernPost(bridge.url, call(1, 'ask', { message: 'First?' }, caps));
      assert.equal(first.answer.result?.resultType, 'input_required');
      // The first host never comes back (its person left the form open): the next call does not wait for it.
      const second = await modernPost(bridge.url, call(2, 'ask', { message: 'Second?' }, caps));
      assert.equal(second.answer.result?.resultType, 'input_required', JSON.stringify(second.answer));
      assert.match(JSON.stringify(second.answer.result?.inputRequests), /Second\?/);
      assert.doesNotMatch(JSON.stringify(second.answer.result?.inputRequests), /First\?/);
      const [key] = Object.keys(second.answer.result?.inputRequests as object);
      const retry = call(3, 'ask', { message: 'Second?' }, caps);
      const done = await modernPost(bridge.url, { ...retry, params: { ...retry.params, inputResponses: { [key]: { action: 'accept', content: { answer: 'two' } } }, requestState: second.answer.result?.requestState } });
      assert.equal(textOf(done.answer.result as never), 'Second? -> accept {"answer":"two"}', JSON.stringify(done.answer));
    });
  });
});
