// Adding a toolbox is one folder and one registry line: a toolbox that exists only in a test fixture, registered
// through the same registry byhand's own toolboxes are listed in, is served by `byhand serve`'s server at its path,
// probed by `byhand checkpoint --embedded`, and named in the help.

import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { after, before, describe, test } from './support/node-test.js';
import { connect } from '../packages/client/src/index.js';
import { usage } from '../packages/byhand/src/cli.js';
import { EXIT_CODES_TEXT } from '../packages/byhand/src/shared/exit-codes-text.js';
import { checkpointCommand } from '../packages/byhand/src/checkpoint/command.js';
import { helpText } from '../packages/byhand/src/shared/kit.js';
import { SPEC as SERVE_SPEC } from '../packages/byhand/src/serve/spec.js';
import { startServer } from '../packages/servers/src/node.js';
import { banner } from '../packages/byhand/src/serve/banner.js';
import { registerToolbox, TOOLBOXES } from '../packages/servers/src/toolboxes/registry.js';
import { textOf } from './servers-support.js';
import { runOwn } from './support/collector.js';

let unregister: () => void;

before(() => {
  // The one registry line.
  unregister = registerToolbox({ name: 'echo-box', title: 'The Echo Box', description: 'says it back', path: '/api/echo-box', legacy: 'stateless', legacyReason: 'nothing to ask', counts: { tools: 1, resources: 0, prompts: 0 }, checkpoint: true, build: async () => (await import('./fixtures/toolboxes/echo-box/echo-box.js')).echoBoxSpec() });
});
after(() => unregister());

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

describe('a toolbox added with one registry line', { timeout: 60_000 }, () => {
  test('byhand serve mounts it at its path, beside the others, and says so', async () => {
    const running = await startServer({ port: 0 });
    try {
      assert.equal(running.urls['echo-box'], `${running.url}/api/echo-box`);
      assert.equal(running.urls.kitchen, `${running.url}/api/kitchen`);
      assert.match(banner(running, { dbPath: undefined }), /The Echo Box +http:\/\/127\.0\.0\.1:\d+\/api\/echo-box {2}\(says it back; 2025 clients: stateless\)/);
      const client = await connect(running.urls['echo-box']);
      try {
        assert.equal(textOf(await client.callTool('shout', { text: 'hello' })), 'HELLO');
      } finally {
        await client.close();
      }
    } finally {
      await running.close();
    }
  });

  test('byhand checkpoint --embedded probes it with the bundled toolboxes it marks', async () => {
    const stdout = capture();
    const stderr = capture();
    const code = await checkpointCommand(['--embedded', '--json'], { stdout: stdout.stream, stderr: stderr.stream, stdin: Readable.from([]), env: { BYHAND_PROVIDER: 'offline' }, ...runOwn() });
    assert.equal(code, 0, stderr.text());
    // One JSON line per server, named by its title.
    const reports = stdout.text().trim().split('\n').map((line) => JSON.parse(line) as { name: string; target: string; ok: boolean; counts: { tools: number } | null });
    const probed = TOOLBOXES.filter((t) => t.checkpoint);
    assert.deepEqual(reports.map((r) => r.name), probed.map((t) => t.title));
    assert.ok(probed.some((t) => t.name === 'echo-box') && !probed.some((t) => t.name === 'everything'));
    const echo = reports.find((r) => r.name === 'The Echo Box');
    assert.match(echo?.target ?? '', /^http:\/\/127\.0\.0\.1:\d+\/api\/echo-box$/);
    assert.equal(echo?.ok, true);
    assert.equal(echo?.counts?.tools, 1);
  });

  test('the help names it wherever it names the toolboxes', async () => {
    const names = TOOLBOXES.map((t) => t.name).join(', ');
    assert.ok(names.endsWith('everything, week, echo-box'), names);
    assert.ok(helpText(SERVE_SPEC).includes(`Serves the toolboxes (${names})`));
    // The usage text itself, not main(['--help']) with process.stdout swapped: the test runner reports on that stream.
    const text = usage(EXIT_CODES_TEXT);
    assert.ok(text.includes(`a bundled toolbox (${names})`), text);
    const checkpointHelp = capture();
    assert.equal(await checkpointCommand(['--help'], { stdout: checkpointHelp.stream, stderr: new PassThrough(), stdin: Readable.from([]), env: {}, ...runOwn() }), 0);
    assert.ok(checkpointHelp.text().includes(`use the bundled toolboxes (${names}), not a config`), checkpointHelp.text());
    assert.ok(checkpointHelp.text().includes('else the bundled toolboxes (kitchen, cookie-jar, probe, echo-box)'), checkpointHelp.text());
  });
});
