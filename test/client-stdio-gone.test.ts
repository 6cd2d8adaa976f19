// A stdio server whose process exits on its own, once connected, is gone: onGone is told once, with its exit code
// and its stderr, in both eras; a client that closes the server itself, or a server that never answered, is not.
// A bridge in front of such a server has nothing else to learn it from between requests.

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { until } from './support/cli.js';
import { fixtureScript } from './support/fixture-bundle.js';
import { textOf } from './servers-support.js';
import { connect, McpError } from '../packages/client/src/index.js';

const server = (mode: string) => ({ command: process.execPath, args: [fixtureScript('test/fixtures/sdk-stdio-server.ts'), mode] });

for (const [mode, era] of [['crashing', 'modern'], ['legacy-crashing', 'legacy']] as const) {
  test(`a ${era} stdio server that exits during a call: the call fails, and onGone is told once, with its stderr`, { timeout: 30_000 }, async (t) => {
    const cleanup = cleanupAfter(t);
    const gone: string[] = [];
    const ended: string[] = [];
    const client = cleanup(await connect(server(mode), { onGone: (reason) => void gone.push(reason), host: { eventsEnded: (reason) => void ended.push(reason) } }));
    assert.equal(client.era, era);
    assert.equal(textOf(await client.callTool('echo', { text: 'hi' })), 'echo: hi');
    assert.deepEqual(gone, []);
    await assert.rejects(client.callTool('crash'), (error: unknown) => error instanceof McpError && /out of memory/.test(error.message));
    await until(() => gone.length > 0, 'onGone');
    assert.equal(gone.length, 1);
    assert.match(gone[0], /exited \(code 5\).*fatal: out of memory/s);
    // A 2025 session's events end with it; the 2026 era holds none.
    assert.equal(ended.length, era === 'legacy' ? 1 : 0);
    await assert.rejects(client.callTool('echo', { text: 'again' }), /process is gone/);
  });
}

test('a stdio server the client closes, or one that exits before it answers, is not called gone', { timeout: 30_000 }, async (t) => {
  const cleanup = cleanupAfter(t);
  const gone: string[] = [];
  const client = cleanup(await connect(server('serve'), { onGone: (reason) => void gone.push(reason) }));
  await client.close();
  await assert.rejects(connect(server('crash'), { onGone: (reason) => void gone.push(reason) }), /database is locked/);
  assert.deepEqual(gone, []);
});
