// The Week (packages/servers/src/toolboxes/week), an MCP App in both eras: byhand's client, declaring the extension,
// finds the tool's `ui://` view, its app-only and model-only tools, the view with the extension's mimeType and CSP,
// and a text fallback beside the structured week; then the real `byhand bridge`, launched by the SDK 1.x client as a
// 2025 desktop host that declares the extension, carries all of it from the 2026 server.

import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { after, before, describe, test } from './support/node-test.js';
import { bin } from './support/cli.js';
import { appMayCall, appsExtension, connect, isAppOnly, toolUi, UI_EXTENSION, UI_MIME_TYPE, type Era } from '../packages/client/src/index.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { WEEK_VIEW_URI } from '../packages/servers/src/toolboxes/week/week.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('The Week, through byhand\'s client', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ port: 0, toolboxes: ['week'] });
  });
  after(() => server.close());

  for (const era of ['modern', 'legacy'] as Era[]) {
    test(`${era}: a UI tool, an app-only and a model-only tool, the view as the extension says, and a text fallback`, async (t) => {
      const client = await connect(server.urls.week, { era, extensions: appsExtension() });
      t.after(() => client.close());
      assert.ok(UI_EXTENSION in (client.serverCapabilities.extensions as object), 'the server declares the extension');

      const tools = await client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      assert.deepEqual(toolUi(byName.get('show_week')!), { resourceUri: WEEK_VIEW_URI, visibility: ['model', 'app'] });
      assert.equal(isAppOnly(byName.get('day_details')!), true);
      assert.equal(appMayCall(byName.get('shopping_list')!), false);

      const listed = (await client.listResources()).find((r) => r.uri === WEEK_VIEW_URI);
      assert.equal(listed?.mimeType, UI_MIME_TYPE);
      const read = await client.readResource(WEEK_VIEW_URI);
      const [content] = read.contents;
      assert.equal(content.mimeType, UI_MIME_TYPE);
      assert.match(String(content.text), /^<!doctype html>/i);
      assert.deepEqual(content._meta, { ui: { csp: {}, prefersBorder: true } }, 'no domain declared: the restrictive default applies');

      const shown = await client.callTool('show_week');
      assert.match((shown.content[0] as { text: string }).text, /^This week:\nMonday, dinner: red lentil dal with rice \(2\)/);
      assert.equal((shown.structuredContent as { week: unknown[] }).week.length, 7);
      const day = await client.callTool('day_details', { day: 'wednesday' });
      assert.deepEqual(day.structuredContent, { day: 'Wednesday', dish: 'pasta with tomato and garlic', have: ['pasta', 'tinned tomatoes', 'garlic'], missing: ['basil'] });
    });
  }
});

describe('The Week, through byhand bridge to a 2025 host that declares the extension', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ port: 0, toolboxes: ['week'] });
  });
  after(() => server.close());

  test('the SDK 1.x client sees the extension, the UI tools with their _meta, and reads the view', { timeout: 30_000 }, async (t) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'bridge', server.urls.week], env: { ...process.env, NO_COLOR: '1' }, stderr: 'pipe', cwd: root });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const host = new LegacyClient({ name: 'desktop-host', version: '1.0.0' }, { capabilities: { extensions: appsExtension() } });
    t.after(() => host.close());
    await host.connect(transport).catch((error: unknown) => assert.fail(`the bridge did not start: ${String(error)}\n${stderr}`));

    const extensions = (host.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions;
    assert.deepEqual(extensions?.[UI_EXTENSION], {}, 'the 2025 initialize result carries the server\'s extension');
    const { tools } = await host.listTools();
    const show = tools.find((tool) => tool.name === 'show_week')!;
    assert.deepEqual(show._meta, { ui: { resourceUri: WEEK_VIEW_URI, visibility: ['model', 'app'] }, 'ui/resourceUri': WEEK_VIEW_URI });
    assert.deepEqual(tools.find((tool) => tool.name === 'day_details')?._meta, { ui: { visibility: ['app'] } });
    const read = await host.readResource({ uri: WEEK_VIEW_URI });
    assert.equal(read.contents[0].mimeType, UI_MIME_TYPE);
    assert.match(String((read.contents[0] as { text?: string }).text), /ui\/initialize/);
    const shown = await host.callTool({ name: 'show_week', arguments: {} });
    assert.equal((shown.structuredContent as { week: unknown[] }).week.length, 7);
    assert.match((shown.content as { text: string }[])[0].text, /^This week:/);
  });
});
