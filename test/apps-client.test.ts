// MCP Apps in the client: the extension declared when asked, in both eras, as the official SDK server sees it (the
// 2026 envelope's clientCapabilities on every request, 2025 initialize's capabilities); not declared when not asked;
// and how a listed tool's UI and visibility are read (packages/client/src/apps.ts).

import assert from 'node:assert/strict';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { describe, test } from './support/node-test.js';
import { appMayCall, appsExtension, connect, isAppOnly, toolUi, UI_EXTENSION, UI_MIME_TYPE, visibilityOf, type Era } from '../packages/client/src/index.js';
import { legacySessions, serve } from './fixtures/sdk-server.js';

/**
 * An SDK server with one tool that says which extensions the client declared to it, as the SDK read them: the request's
 * envelope in the 2026 era, the session's initialize in 2025 (getClientCapabilities, which the SDK keeps for that era).
 */
function extensionsServer(): McpServer {
  const server = new McpServer({ name: 'apps-fixture', version: '2.4.0' }, { capabilities: { tools: {}, extensions: { [UI_EXTENSION]: {} } } });
  server.registerTool('declared', { description: 'the extensions the client declared' }, async (ctx) => {
    const envelope = ctx.mcpReq.envelope as Record<string, { extensions?: unknown } | undefined> | undefined;
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the 2025 era's only reader of initialize's capabilities
    const extensions = envelope?.['io.modelcontextprotocol/clientCapabilities']?.extensions ?? server.server.getClientCapabilities()?.extensions;
    return { content: [{ type: 'text', text: JSON.stringify(extensions ?? null) }] };
  });
  return server;
}

const ERAS: { era: Era; handler: () => (request: Request) => Promise<Response> }[] = [
  { era: 'modern', handler: () => createMcpHandler(extensionsServer, { legacy: 'reject' }).fetch },
  { era: 'legacy', handler: () => legacySessions(extensionsServer).handler },
];

describe('the client declares io.modelcontextprotocol/ui when asked', () => {
  for (const { era, handler } of ERAS) {
    test(`${era}: the SDK server sees {mimeTypes: [${UI_MIME_TYPE}]}, on the wire where the era carries it`, async (t) => {
      const server = await serve(handler());
      t.after(() => server.close());
      const client = await connect(server.url, { era, extensions: appsExtension(), tasks: false });
      t.after(() => client.close());
      const result = await client.callTool('declared');
      assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), { [UI_EXTENSION]: { mimeTypes: [UI_MIME_TYPE] } });
      const bodies = server.requests.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body) as { method: string; params?: Record<string, unknown> });
      if (era === 'modern') {
        // Every request carries it, the probe and the list included: a modern server infers nothing from earlier ones.
        for (const body of bodies) {
          const caps = (body.params?._meta as Record<string, { extensions?: unknown }>)['io.modelcontextprotocol/clientCapabilities'];
          assert.deepEqual(caps.extensions, { [UI_EXTENSION]: { mimeTypes: [UI_MIME_TYPE] } }, `${body.method} carried it`);
        }
      } else {
        const initialize = bodies.find((b) => b.method === 'initialize')!;
        assert.deepEqual((initialize.params?.capabilities as { extensions?: unknown }).extensions, { [UI_EXTENSION]: { mimeTypes: [UI_MIME_TYPE] } });
      }
      assert.deepEqual((client.serverCapabilities.extensions as Record<string, unknown>)[UI_EXTENSION], {}, 'the server declared it back');
    });

    test(`${era}: not asked, nothing is declared but tasks`, async (t) => {
      const server = await serve(handler());
      t.after(() => server.close());
      const client = await connect(server.url, { era });
      t.after(() => client.close());
      const declared = JSON.parse(((await client.callTool('declared')).content[0] as { text: string }).text) as Record<string, unknown>;
      assert.deepEqual(Object.keys(declared ?? {}).filter((k) => k !== 'io.modelcontextprotocol/tasks'), []);
    });
  }
});

describe('a tool read for its UI', () => {
  test('the nested resourceUri wins over the deprecated flat key; a URI that is not ui:// is no UI', () => {
    assert.deepEqual(toolUi({ _meta: { ui: { resourceUri: 'ui://a/view.html' }, 'ui/resourceUri': 'ui://old' } }), { resourceUri: 'ui://a/view.html', visibility: ['model', 'app'] });
    assert.deepEqual(toolUi({ _meta: { 'ui/resourceUri': 'ui://old' } }), { resourceUri: 'ui://old', visibility: ['model', 'app'] });
    assert.equal(toolUi({ _meta: { ui: { resourceUri: 'https://example.com/view.html' } } }), undefined);
    assert.equal(toolUi({}), undefined);
  });

  test('visibility: both by default, app-only hidden from the model, model-only refused to a view', () => {
    assert.deepEqual(visibilityOf({}), ['model', 'app']);
    assert.deepEqual(visibilityOf({ _meta: { ui: { visibility: [] } } }), ['model', 'app']);
    const appOnly = { _meta: { ui: { visibility: ['app'] } } };
    assert.equal(isAppOnly(appOnly), true);
    assert.equal(appMayCall(appOnly), true);
    const modelOnly = { _meta: { ui: { visibility: ['model', 'bogus'] } } };
    assert.deepEqual(visibilityOf(modelOnly), ['model']);
    assert.equal(isAppOnly(modelOnly), false);
    assert.equal(appMayCall(modelOnly), false);
  });
});
