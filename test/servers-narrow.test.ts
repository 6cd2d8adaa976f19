// A modern tools/call is served by a server with the named tool's registration alone, recorded once and played again
// (narrow.ts). What the client sees must not change: the tool runs, a gate over it still holds, the lists are whole,
// and a tool the toolbox lacks gets the full server's answer.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { McpServer } from '@modelcontextprotocol/server';
import { recordingTools, replayTool, type RecordedTool } from '../packages/servers/src/edge/narrow.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { modernRpc } from './servers-support.ts';

function registerThree(server: McpServer): ReturnType<McpServer['registerTool']> {
  server.registerTool('a', { description: 'a' }, async () => ({ content: [{ type: 'text', text: 'a' }] }));
  server.registerTool('b', { description: 'b' }, async () => ({ content: [{ type: 'text', text: 'b' }] }));
  const handle = server.registerTool('c', { description: 'c' }, async () => ({ content: [{ type: 'text', text: 'c' }] }));
  handle.disable();
  server.registerPrompt('p', { description: 'p' }, async () => ({ messages: [] }));
  server.registerResource('r', 'test://r', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'r' }] }));
  return handle;
}

describe('narrowed servers', () => {
  test('each tool\'s registration is recorded, with what was done with its handle, and the server gets them all', { timeout: 5_000 }, () => {
    const server = new McpServer({ name: 't', version: '1' });
    const tools = new Map<string, RecordedTool>();
    const recording = recordingTools(server, tools);
    const handle = registerThree(recording.server);
    recording.done();
    assert.deepEqual([...tools.keys()], ['a', 'b', 'c']);
    assert.deepEqual(tools.get('c')!.then.map((t) => t.method), ['disable']);
    assert.notEqual(server.toolInputSchemaJson('a'), undefined);
    // What a tool's code does with its handle once it runs is not registration.
    handle.enable();
    assert.deepEqual(tools.get('c')!.then.map((t) => t.method), ['disable']);
  });

  test('a recorded registration played on a fresh server registers that tool alone', { timeout: 5_000 }, () => {
    const tools = new Map<string, RecordedTool>();
    const recording = recordingTools(new McpServer({ name: 't', version: '1' }), tools);
    registerThree(recording.server);
    recording.done();
    const narrowed = new McpServer({ name: 't', version: '1' });
    replayTool(narrowed, tools.get('b')!);
    assert.notEqual(narrowed.toolInputSchemaJson('b'), undefined);
    assert.equal(narrowed.toolInputSchemaJson('a'), undefined);
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

  test('a tool that runs only as a task keeps its gate: without the tasks extension, -32021', async () => {
    const refused = await modernRpc(server.urls.everything, 'tools/call', { name: 'failing_job', arguments: {} });
    assert.equal(refused.body?.error?.code, -32021, JSON.stringify(refused.body));
  });

  test('a tool the toolbox lacks gets the answer a full server gives', async () => {
    const missing = await modernRpc(server.urls.kitchen, 'tools/call', { name: 'no_such_tool', arguments: {} });
    const text = JSON.stringify(missing.body);
    assert.match(text, /no_such_tool/);
    assert.ok(missing.body?.error !== undefined || missing.body?.result?.isError === true, text);
  });
});
