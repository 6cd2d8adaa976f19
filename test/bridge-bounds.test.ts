// `byhand bridge` against what a hostile peer does, as an attacker would: a server whose answer is nested deeper than
// the engine can serialise, a host that stops reading stdout while the server floods it, a host that opens sessions
// until the bridge is full, a requestState carried to another instance. Each is an error on that request or a bound
// said on stderr; the bridge goes on serving everyone else.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, test } from './support/node-test.js';
import { listen } from './support/bridge-listen.js';
import { rawBridge } from './support/raw-bridge.js';
import { fixtureCommand } from './support/fixture-bundle.js';
import { envelope, modernPost } from './support/modern-post.js';
import { until } from './support/cli.js';
import { cleanupAfter } from './support/cleanup.js';
import { json, listen as listenLoopback, modern as modernServer } from './fixtures/loopback.js';
import { startServer } from '../packages/servers/src/edge/serve.js';

const asker = fixtureCommand('test/fixtures/legacy-asker.ts');
const DEEP = 5_000;

/** A 2026 server whose `deep` tool answers with a result nested DEEP levels (JSON.parse takes it; JSON.stringify cannot). */
async function deepServer() {
  return listenLoopback(modernServer((request, res) => {
    const message = request.json!;
    if (message.method === 'tools/list') return json(res, { jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', tools: [{ name: 'deep', inputSchema: { type: 'object' } }, { name: 'plain', inputSchema: { type: 'object' } }] } });
    if (message.method === 'tools/call' && (message.params as { name?: string }).name === 'deep') {
      const nested = `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"resultType":"complete","content":[],"structuredContent":${nested}}}`);
    }
    json(res, { jsonrpc: '2.0', id: message.id ?? null, result: { resultType: 'complete', content: [{ type: 'text', text: 'plain' }] } });
  }));
}

/** The peak resident memory of a process, in MiB (Linux). */
function peakMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

describe('byhand bridge against hostile peers', () => {
  test('an answer nested deeper than can be serialised is an error on that request, on both faces; the bridge goes on', { timeout: 30_000 }, async () => {
    const server = await deepServer();
    const stdio = rawBridge([server.url]);
    try {
      const meta = envelope({});
      stdio.send({ id: 1, method: 'tools/call', params: { _meta: meta, name: 'deep', arguments: {} } }, { id: 2, method: 'tools/call', params: { _meta: meta, name: 'plain', arguments: {} } });
      await until(() => stdio.lines().filter((l) => l.id === 1 || l.id === 2).length === 2, 'both answers on stdio', 10_000);
      const deep = stdio.lines().find((l) => l.id === 1)!;
      assert.match(String(deep.error?.message), /nested too deeply/);
      assert.ok(stdio.lines().find((l) => l.id === 2)?.result, 'the next request was not answered');

      const http = await listen([server.url]);
      try {
        const refused = await modernPost(http.url, { id: 1, method: 'tools/call', params: { _meta: meta, name: 'deep', arguments: {} } });
        assert.match(String(refused.answer.error?.message), /nested too deeply/);
        const plain = await modernPost(http.url, { id: 2, method: 'tools/call', params: { _meta: meta, name: 'plain', arguments: {} } });
        assert.ok(plain.answer.result, JSON.stringify(plain.answer));
      } finally {
        await http.stop();
      }
    } finally {
      await stdio.stop();
      await server.close();
    }
  });

  test('a host that stops reading stdout while the server floods it: the notifications past a bound are dropped and counted, memory stays bounded', { timeout: 90_000 }, async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'byhand-flood-'));
    const flooded = join(scratch, 'flooded');
    const bridge = rawBridge(['--env', `FLOODED_FILE=${flooded}`, '--', asker.command, ...asker.args]);
    try {
      bridge.send(
        { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'slow-reader', version: '1' } } },
        { method: 'notifications/initialized' },
        { id: 2, method: 'logging/setLevel', params: { level: 'info' } },
      );
      await until(() => bridge.lines().some((l) => l.id === 2), 'setLevel answered', 10_000);
      // From here the host reads nothing until the server has sent everything.
      bridge.child.stdout.pause();
      bridge.send({ id: 3, method: 'tools/call', params: { name: 'flood', arguments: { count: 60_000, size: 1_000 } } });
      await until(() => existsSync(flooded), 'the server to have sent its 60 MB of log messages', 60_000);
      // The bridge read all of it from the server; what it holds for the host is bounded.
      const peak = peakMiB(bridge.child.pid!);
      bridge.child.stdout.resume();
      await until(() => bridge.lines().some((l) => l.id === 3), 'the answer after the flood', 30_000);
      assert.ok(peak < 150, `the bridge peaked at ${Math.round(peak)} MiB while its host did not read`);
      await until(() => /notifications were dropped/.test(bridge.stderr()), 'the drop said on stderr', 10_000);
      const heard = bridge.lines().filter((l) => l.method === 'notifications/message').length;
      assert.ok(heard < 60_000, `all ${heard} messages were held for the host`);
    } finally {
      await bridge.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  test("a host that opens sessions until the bridge is full closes only its own; another host's idle session lives on", { timeout: 60_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({ port: 0, toolboxes: ['everything'] }));
    const bridge = cleanup(await listen([server.urls.everything]));
    const host = cleanup(new LegacyClient({ name: 'patient-host', version: '1.0.0' }, { capabilities: {} }));
    await host.connect(new LegacyTransport(new URL(bridge.url)));
    const initialize = (n: number) =>
      fetch(bridge.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: n, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'flooder', version: '1' } } }),
      }).then(async (response) => (await response.text(), response.status));
    const statuses: number[] = [];
    for (let n = 0; n < 70; n++) statuses.push(await initialize(n));
    assert.ok(statuses.every((status) => status === 200), statuses.join(' '));
    // The patient host's session, idle all along, was not the one closed to make room.
    const tools = await host.listTools(undefined, { timeout: 10_000 });
    assert.ok(tools.tools.length > 0);
  });

  test('a requestState carried to another bridge instance with the same secret is refused, saying so', { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const secret = 'a-shared-secret-of-at-least-thirty-two-bytes';
    const one = cleanup(await listen(['--', asker.command, ...asker.args], { BYHAND_STATE_SECRET: secret }));
    const two = cleanup(await listen(['--', asker.command, ...asker.args], { BYHAND_STATE_SECRET: secret }));
    const caps = { elicitation: { form: {} } };
    const body = (id: number, extra: Record<string, unknown> = {}) => ({ id, method: 'tools/call', params: { _meta: envelope(caps), name: 'ask', arguments: { message: 'Where?' }, ...extra } });
    const asked = await modernPost(one.url, body(1));
    assert.equal(asked.answer.result?.resultType, 'input_required');
    const [key] = Object.keys(asked.answer.result?.inputRequests as object);
    const elsewhere = await modernPost(two.url, body(2, { inputResponses: { [key]: { action: 'accept', content: { answer: 'here' } } }, requestState: asked.answer.result?.requestState }));
    assert.equal(elsewhere.answer.error?.code, -32602);
    assert.match(String(elsewhere.answer.error?.message), /another bridge instance/);
  });
});
