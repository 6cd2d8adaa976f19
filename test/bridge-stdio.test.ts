// `byhand bridge` on stdio, as a 2025 desktop host launches it: the official SDK 1.x client, with its own sampling
// and elicitation handlers, runs the real CLI in front of the modern Everything toolbox on loopback, and in front of
// a legacy stdio server (server-everything), and the tools that ask the host get this host's own answers.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema, PromptListChangedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { after, before, describe, test } from './support/node-test.js';
import { bin, until } from './support/cli.js';
import { rawBridge } from './support/raw-bridge.js';
import { answerAsLegacyHost, type Asked } from './support/bridge-hosts.js';
import { textOf } from './servers-support.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { legacySession, listen } from './fixtures/loopback.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

interface DesktopHost extends Asked {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** The SDK 1.x client launching `byhand bridge ARGS`, declaring what `capabilities` says, answering from its own handlers. */
async function desktopHost(args: string[], capabilities: Record<string, object> = { sampling: {}, elicitation: {}, roots: {} }, formsWait = false): Promise<DesktopHost> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'bridge', ...args],
    env: { ...process.env, BYHAND_PROVIDER: 'offline', NO_COLOR: '1' },
    stderr: 'pipe',
    cwd: root,
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'desktop-host', version: '1.0.0' }, { capabilities });
  const host: DesktopHost = { client, ...answerAsLegacyHost(client, capabilities, 'desktop', formsWait), stderr: () => stderr, close: () => client.close() };
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(`the bridge did not start: ${String(error)}\n${stderr}`, { cause: error });
  }
  return host;
}

describe('byhand bridge: a 2025 host on stdio', () => {
  let server: RunningServer;
  let url: string;
  before(async () => {
    server = await startServer({ port: 0, toolboxes: ['everything'] });
    url = server.urls.everything!;
  });
  after(() => server.close());

  test('in front of a modern server: initialize from its identity, input_required relayed to the host as its own requests', { timeout: 15_000 }, async () => {
    const host = await desktopHost([url]);
    try {
      assert.equal(host.client.getServerVersion()?.name, 'byhand-everything', host.stderr());
      assert.match(host.stderr(), /modern era/);
      const tools = await host.client.listTools();
      assert.ok(tools.tools.some((tool) => tool.name === 'test_sampling'));
      await host.client.ping();

      const thought = await host.client.callTool({ name: 'test_sampling', arguments: { prompt: 'Name a colour' } });
      assert.equal(textOf(thought), 'LLM response: the desktop model says: 13 characters');
      assert.deepEqual(host.prompts, ['Name a colour']);

      const asked = await host.client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
      assert.equal(textOf(asked), 'User response: action=accept, content={"response":"desktop response"}');
      assert.deepEqual(host.forms, ['Who are you?']);

      const roots = await host.client.callTool({ name: 'test_input_required_result_list_roots', arguments: {} });
      assert.equal(textOf(roots), 'Roots: file:///desktop/project');
    } finally {
      await host.close();
    }
  });

  test('a modern server\'s list changes reach the host as its session\'s notifications, through subscriptions/listen', { timeout: 15_000 }, async () => {
    const host = await desktopHost([url], {});
    const changed: string[] = [];
    host.client.setNotificationHandler(ToolListChangedNotificationSchema, async (notification) => void changed.push(notification.method));
    host.client.setNotificationHandler(PromptListChangedNotificationSchema, async (notification) => void changed.push(notification.method));
    try {
      assert.equal(host.client.getServerCapabilities()?.tools?.listChanged, true);
      await host.client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
      await host.client.callTool({ name: 'test_trigger_prompt_change', arguments: {} });
      await until(() => changed.length === 2, 'both list changes', 10_000);
      assert.deepEqual(changed.sort(), ['notifications/prompts/list_changed', 'notifications/tools/list_changed']);
    } finally {
      await host.close();
    }
  });

  test('resources/subscribe to a modern server becomes an entry of the subscriptions/listen the bridge holds', { timeout: 15_000 }, async () => {
    const host = await desktopHost([url, '--trace'], {});
    try {
      assert.deepEqual(await host.client.subscribeResource({ uri: 'test://watched-resource' }), {});
      await until(() => /subscriptions\/listen.*"resourceSubscriptions":\["test:\/\/watched-resource"\]/.test(host.stderr()), 'the listen stream with the subscription', 10_000);
      assert.deepEqual(await host.client.unsubscribeResource({ uri: 'test://watched-resource' }), {});
    } finally {
      await host.close();
    }
  });

  test('logging/setLevel to a modern server becomes the envelope\'s level on later requests: the tool\'s log messages reach the host', { timeout: 15_000 }, async () => {
    const host = await desktopHost([url], {});
    const logged: string[] = [];
    host.client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => void logged.push(String(notification.params.data)));
    try {
      await host.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      assert.deepEqual(logged, [], 'no level asked for, no logs (SEP-2575)');
      assert.deepEqual(await host.client.setLoggingLevel('info'), {});
      await host.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      await until(() => logged.length === 3, 'the three log messages', 5_000);
      assert.deepEqual(logged, ['Tool execution started', 'Tool processing data', 'Tool execution completed']);
      await assert.rejects(host.client.setLoggingLevel('loud' as 'info'), (error: Error & { code?: number }) => error.code === -32602);
    } finally {
      await host.close();
    }
  });

  test('a host that declared no sampling: neither does the back, so the server refuses with -32021 naming it', { timeout: 15_000 }, async () => {
    const host = await desktopHost([url], { elicitation: {} });
    try {
      await assert.rejects(host.client.callTool({ name: 'test_missing_capability', arguments: {} }), (error: Error & { code?: number }) => {
        assert.equal(error.code, -32021);
        assert.match(error.message, /sampling\/createMessage/);
        return true;
      });
      assert.deepEqual(host.prompts, []);
    } finally {
      await host.close();
    }
  });

  test('the host cancels a call: the back request ends, and the form it was waiting on is withdrawn from the host', { timeout: 15_000 }, async () => {
    const host = await desktopHost([url], { elicitation: {} }, true);
    try {
      const controller = new AbortController();
      const call = host.client.callTool({ name: 'test_elicitation', arguments: { message: 'Still there?' } }, undefined, { signal: controller.signal });
      await until(() => host.forms.length === 1, 'the form to reach the host', 10_000);
      controller.abort();
      await assert.rejects(call);
      await until(() => host.withdrawn.length === 1, 'the bridge to withdraw the form', 10_000);
      assert.deepEqual(host.withdrawn, ['Still there?']);
      // The bridge still serves the next request after the cancelled one.
      assert.ok((await host.client.listTools()).tools.length > 0);
    } finally {
      await host.close();
    }
  });

  test('--sampling offline and --answers FILE answer what the host did not declare, through the host package', { timeout: 15_000 }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'bridge-answers-'));
    const answers = join(folder, 'answers.json');
    writeFileSync(answers, JSON.stringify({ response: 'from the answers file' }));
    const host = await desktopHost([url, '--sampling', 'offline', '--answers', answers], {});
    try {
      const thought = await host.client.callTool({ name: 'test_sampling', arguments: { prompt: 'Name a colour' } });
      assert.match(textOf(thought), /^LLM response: byhand offline provider: this is not a language model/);
      const asked = await host.client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
      assert.equal(textOf(asked), 'User response: action=accept, content={"response":"from the answers file"}');
      assert.deepEqual([host.prompts, host.forms], [[], []]);
    } finally {
      await host.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('in front of a legacy stdio server: the same era passes through, pushed requests reach the host', { timeout: 15_000 }, async () => {
    const host = await desktopHost(['--', process.execPath, everything, 'stdio']);
    try {
      assert.match(host.stderr(), /legacy era/);
      const thought = await host.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'Name a colour', maxTokens: 20 } });
      assert.match(textOf(thought), /the desktop model says/);
      assert.equal(host.prompts.length, 1);
      assert.match(host.prompts[0], /Name a colour/);

      const asked = await host.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
      assert.match(textOf(asked), /desktop name/);
      assert.equal(host.forms.length, 1);
    } finally {
      await host.close();
    }
  });

  test('a script\'s pipe: requests written and stdin closed at once are each answered (one that needs the host says it is gone), then it exits 0', { timeout: 15_000 }, async () => {
    const bridge = rawBridge([url]);
    try {
      const initialize = { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 'script', version: '1' } };
      bridge.send({ id: 1, method: 'initialize', params: initialize }, { method: 'notifications/initialized' }, { id: 2, method: 'tools/list' });
      bridge.send({ id: 3, method: 'tools/call', params: { name: 'test_sampling', arguments: { prompt: 'Name a colour' } } });
      bridge.child.stdin.end();
      assert.equal(await bridge.exitWithin(10_000), 0, bridge.stderr());
      const byId = new Map(bridge.lines().map((line) => [line.id, line]));
      assert.equal((byId.get(1)?.result as { serverInfo?: { name?: string } })?.serverInfo?.name, 'byhand-everything');
      assert.ok(((byId.get(2)?.result as { tools?: unknown[] })?.tools?.length ?? 0) > 0, 'tools/list, sent before initialize was answered, waited for it');
      const call = byId.get(3)?.result as { isError?: boolean; content?: Array<{ text?: string }> } | undefined;
      assert.equal(call?.isError, true);
      assert.match(call?.content?.[0]?.text ?? '', /the host is gone: sampling\/createMessage cannot be asked/);
    } finally {
      bridge.child.kill('SIGKILL');
    }
  });

  test('SIGINT while the host still holds stdin open: the bridge exits 130 at once', { timeout: 15_000 }, async () => {
    const bridge = rawBridge([url]);
    try {
      bridge.send({ id: 1, method: 'ping' });
      await until(() => bridge.lines().length === 1, 'the ping answered', 10_000);
      await bridge.interruptAndExpectPromptExit();
    } finally {
      bridge.child.kill('SIGKILL');
    }
  });
});

test('SIGINT during initialize, the server not answering: the bridge gives up the opening and exits 130 at once', { timeout: 15_000 }, async () => {
  let asked = false;
  const silent = createServer(() => (asked = true));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const bridge = rawBridge([`http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`]);
  try {
    bridge.send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host', version: '1' } } });
    await until(() => asked, 'the bridge to ask the server', 10_000);
    await bridge.interruptAndExpectPromptExit();
  } finally {
    bridge.child.kill('SIGKILL');
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test('in front of a 2025 server that offers no event stream: the bridge says on stderr that its list changes cannot reach the host', { timeout: 15_000 }, async () => {
  const server = await listen(legacySession({}));
  const bridge = rawBridge([server.url]);
  try {
    bridge.send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host', version: '1' } } });
    await until(() => /offers no event stream/.test(bridge.stderr()), 'the notice', 10_000);
    assert.match(bridge.stderr(), /byhand: the server offers no event stream \(HTTP 405 .*\): list changes, resource updates and the server's own requests between calls will not arrive in this session/);
    bridge.child.stdin.end();
    assert.equal(await bridge.exitWithin(10_000), 0, bridge.stderr());
    assert.equal((bridge.lines()[0]?.result as { serverInfo?: { name?: string } } | undefined)?.serverInfo?.name, 'legacy');
  } finally {
    bridge.child.kill('SIGKILL');
    await server.close();
  }
});
