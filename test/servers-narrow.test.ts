// A modern tools/call is served by a server that registers only the named tool (narrow.ts). What the client sees must
// not change: the tool runs, the lists are whole, and a tool the toolbox lacks gets the full server's answer.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { McpServer } from '@modelcontextprotocol/server';
import { keepingOnlyTool, recordingTools } from '../packages/servers/src/edge/narrow.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { modernRpc } from './servers-support.ts';

function registerThree(server: McpServer): void {
  server.registerTool('a', { description: 'a' }, async () => ({ content: [{ type: 'text', text: 'a' }] }));
  server.registerTool('b', { description: 'b' }, async () => ({ content: [{ type: 'text', text: 'b' }] }));
  const handle = server.registerTool('c', { description: 'c' }, async () => ({ content: [{ type: 'text', text: 'c' }] }));
  handle.disable();
  server.registerPrompt('p', { description: 'p' }, async () => ({ messages: [] }));
  server.registerResource('r', 'test://r', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'r' }] }));
}

describe('narrowed servers', () => {
  test('the view keeps the named tool, drops the rest, and what it drops can be handled without effect', { timeout: 5_000 }, () => {
    const server = new McpServer({ name: 't', version: '1' });
    registerThree(keepingOnlyTool(server, 'b'));
    assert.notEqual(server.toolInputSchemaJson('b'), undefined);
    assert.equal(server.toolInputSchemaJson('a'), undefined);
    assert.equal(server.toolInputSchemaJson('c'), undefined);
  });

  test('the recording view sees every tool and registers them all', { timeout: 5_000 }, () => {
    const server = new McpServer({ name: 't', version: '1' });
    const names = new Set<string>();
    registerThree(recordingTools(server, names));
    assert.deepEqual([...names], ['a', 'b', 'c']);
    assert.notEqual(server.toolInputSchemaJson('a'), undefined);
  });
});

describe('narrowed servers on the wire', { timeout: 30_000 }, () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ port: 0, toolboxes: ['everything', 'kitchen'] });
  });
  after(() => server?.close());

  test('a call runs, the lists stay whole, a prompt still resolves', async () => {
    const everything = server.urls.everything;
    const called = await modernRpc(everything, 'tools/call', { name: 'test_simple_text', arguments: {} });
    assert.equal(called.body?.result?.content?.[0]?.text, 'This is a simple text response for testing.');
    const tools = await modernRpc(everything, 'tools/list');
    assert.ok((tools.body?.result?.tools?.length ?? 0) > 20, 'every fixture is listed');
    const prompt = await modernRpc(everything, 'prompts/get', { name: 'test_simple_prompt', arguments: {} });
    assert.equal(prompt.status, 200);
    const asked = await modernRpc(server.urls.kitchen, 'tools/call', { name: 'summarise_week', arguments: { depth: 'brief' } });
    assert.equal(asked.body?.result?.resultType, 'input_required');
  });

  test('a tool the toolbox lacks gets the answer a full server gives', async () => {
    const missing = await modernRpc(server.urls.kitchen, 'tools/call', { name: 'no_such_tool', arguments: {} });
    const text = JSON.stringify(missing.body);
    assert.match(text, /no_such_tool/);
    assert.ok(missing.body?.error !== undefined || missing.body?.result?.isError === true, text);
  });
});
