import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { memoryStore } from '../packages/servers/src/toolboxes/cookie-jar/jar/memory-store.js';
import { createCookieJar } from '../packages/servers/src/toolboxes/create.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { connectHost, modernRpc, textOf } from './servers-support.js';
import { fixtureScript } from './support/fixture-bundle.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'byhand-jar-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A clock the test moves by hand, so TTLs expire without sleeping. */
function fakeClock(start = Date.parse('2026-08-01T12:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

for (const era of ['modern', 'legacy'] as const) {
  describe(`The Cookie Jar, ${era} era`, () => {
    let server: RunningServer;
    let url: string;
    const clock = fakeClock();
    before(async () => {
      server = await startServer({ port: 0, toolboxes: ['cookie-jar'], now: clock.now });
      url = server.urls['cookie-jar']!;
    });
    after(() => server.close());

    test('is "forgetful" and offers exactly 3 tools, 1 resource, 1 prompt', async () => {
      const host = await connectHost(url, { era });
      try {
        assert.equal(host.client.getProtocolEra(), era);
        assert.equal(host.client.getServerVersion()?.title, 'The Cookie Jar');
        assert.equal(host.client.getServerVersion()?.description, 'forgetful');
        assert.deepEqual((await host.client.listTools()).tools.map((t) => t.name).sort(), ['forget_note', 'list_notes', 'put_note']);
        assert.deepEqual((await host.client.listResources()).resources.map((r) => r.uri), ['jar://notes']);
        assert.deepEqual((await host.client.listPrompts()).prompts.map((p) => p.name), ['recall']);
      } finally {
        await host.close();
      }
    });

    test('put, list, read the jar, recall; notes forget themselves after their TTL', async () => {
      const host = await connectHost(url, { era });
      try {
        const put = await host.client.callTool({ name: 'put_note', arguments: { text: `buy ${era} oat milk`, ttl_seconds: 60 } });
        const id = (put.structuredContent as { note: { id: number } }).note.id;
        assert.match(textOf(put), /; kept in this process only \(byhand serve --db FILE keeps notes\)$/, 'a jar in memory says so');
        await host.client.callTool({ name: 'put_note', arguments: { text: `call ${era} grandma`, ttl_seconds: 600 } });
        let listed = await host.client.callTool({ name: 'list_notes', arguments: {} });
        assert.match(textOf(listed), new RegExp(`#${id} "buy ${era} oat milk"`));
        const jar = await host.client.readResource({ uri: 'jar://notes' });
        assert.ok(JSON.parse((jar.contents[0] as { text: string }).text).notes.some((n: { text: string }) => n.text === `call ${era} grandma`));
        const recall = await host.client.getPrompt({ name: 'recall', arguments: { topic: 'shopping' } });
        assert.match(JSON.stringify(recall.messages), /about shopping/);
        assert.match(JSON.stringify(recall.messages), new RegExp(`buy ${era} oat milk`));

        clock.advance(61_000);
        listed = await host.client.callTool({ name: 'list_notes', arguments: {} });
        assert.doesNotMatch(textOf(listed), /oat milk/);
        assert.match(textOf(listed), new RegExp(`call ${era} grandma`));
      } finally {
        await host.close();
      }
    });

    test('forget_note asks the user; accept forgets, decline and cancel keep the note', async () => {
      const answers: Array<{ action: 'accept'; content: { confirm: boolean } } | { action: 'decline' | 'cancel' }> = [
        { action: 'decline' },
        { action: 'cancel' },
        { action: 'accept', content: { confirm: false } },
        { action: 'accept', content: { confirm: true } },
      ];
      const host = await connectHost(url, { era, elicit: () => answers.shift()! });
      try {
        const put = await host.client.callTool({ name: 'put_note', arguments: { text: 'secret recipe', ttl_seconds: 3600 } });
        const id = (put.structuredContent as { note: { id: number } }).note.id;
        assert.match(textOf(await host.client.callTool({ name: 'forget_note', arguments: { id } })), /Kept .*you chose to decline/);
        assert.match(textOf(await host.client.callTool({ name: 'forget_note', arguments: { id } })), /Kept .*you chose to cancel/);
        assert.match(textOf(await host.client.callTool({ name: 'forget_note', arguments: { id } })), /Kept .*not confirmed/);
        assert.equal(host.elicitations.length, 3);
        assert.match(host.elicitations[0].message, /Forget note #\d+ "secret recipe" now\?/);
        assert.match(textOf(await host.client.callTool({ name: 'list_notes', arguments: {} })), /secret recipe/);
        assert.equal(textOf(await host.client.callTool({ name: 'forget_note', arguments: { id } })), `Forgot note #${id}.`);
        assert.doesNotMatch(textOf(await host.client.callTool({ name: 'list_notes', arguments: {} })), /secret recipe/);
        const again = await host.client.callTool({ name: 'forget_note', arguments: { id } });
        assert.equal(again.isError, true);
        assert.equal(host.elicitations.length, 4, 'a missing note is not asked about');
      } finally {
        await host.close();
      }
    });
  });
}

describe('The Cookie Jar on disk', () => {
  test('a confirmation sent without the question this server asked does not forget anything', async (t) => {
    const cleanup = cleanupAfter(t);
    const server = cleanup(await startServer({ port: 0, toolboxes: ['cookie-jar'] }));
    const url = server.urls['cookie-jar'];
    const put = await modernRpc(url, 'tools/call', { name: 'put_note', arguments: { text: 'keep me' } });
    const id = put.body?.result?.structuredContent?.note?.id as number;
    const forged = await modernRpc(url, 'tools/call', {
      name: 'forget_note',
      arguments: { id },
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    assert.equal(forged.body?.result?.resultType, 'input_required', 'the server asks instead of obeying');
    const listed = await modernRpc(url, 'tools/call', { name: 'list_notes', arguments: {} });
    assert.match(JSON.stringify(listed.body?.result), /keep me/);
  });

  test('a note outlives its server restart, but not its TTL', async (t) => {
    const cleanup = cleanupAfter(t);
    const dbPath = join(scratch, 'restart.db');
    const clock = fakeClock();
    const first = cleanup(await startServer({ port: 0, toolboxes: ['cookie-jar'], dbPath, now: clock.now }));
    const put = await modernRpc(first.urls['cookie-jar'], 'tools/call', { name: 'put_note', arguments: { text: 'survives restarts', ttl_seconds: 30 } });
    assert.equal(put.body?.result?.isError, undefined);
    await first.close();

    const url = cleanup(await startServer({ port: 0, toolboxes: ['cookie-jar'], dbPath, now: clock.now })).urls['cookie-jar'];
    let listed = await modernRpc(url, 'tools/call', { name: 'list_notes', arguments: {} });
    assert.match(JSON.stringify(listed.body?.result), /survives restarts/);
    clock.advance(31_000);
    listed = await modernRpc(url, 'tools/call', { name: 'list_notes', arguments: {} });
    assert.doesNotMatch(JSON.stringify(listed.body?.result), /survives restarts/);
  });

  test('concurrent puts from several processes on one database lose nothing', async (t) => {
    const cleanup = cleanupAfter(t);
    const dbPath = join(scratch, 'concurrent.db');
    const writers = 4;
    const each = 40;
    const script = fixtureScript('test/fixtures/jar-writer.ts');
    const runs = Array.from({ length: writers }, (_, w) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, [script, dbPath, String(w), String(each)], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
        child.once('error', reject);
        child.once('exit', (code) => resolve(code ?? -1));
      }),
    );
    assert.deepEqual(await Promise.all(runs), Array(writers).fill(0));

    const server = cleanup(await startServer({ port: 0, toolboxes: ['cookie-jar'], dbPath }));
    const notes: Array<{ text: string }> = [];
    for (let after = 0, pages = 0; pages < 10; pages++) {
      const listed = await modernRpc(server.urls['cookie-jar'], 'tools/call', { name: 'list_notes', arguments: { after, limit: 100 } });
      const page = listed.body?.result?.structuredContent as { notes: Array<{ text: string }>; next?: number };
      notes.push(...page.notes);
      if (page.next === undefined) break;
      after = page.next;
    }
    const expected = Array.from({ length: writers }, (_, w) => Array.from({ length: each }, (_, i) => `w${w}-${i}`)).flat().sort();
    assert.deepEqual(notes.map((n) => n.text).sort(), expected);
  });
});

describe('The Cookie Jar is bounded', () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  let id = 0;
  /** Straight through the fetch handler: the bound belongs to the toolbox, whatever serves it. */
  async function rpc(jar: ReturnType<typeof createCookieJar>, method: string, params: Record<string, unknown>) {
    const name = (params.name ?? params.uri) as string | undefined;
    const response = await jar.fetch(
      new Request('http://127.0.0.1/api/cookie-jar', {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: meta } }),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          host: '127.0.0.1',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(name !== undefined ? { 'mcp-name': name } : {}),
        },
      }),
    );
    return (await response.json()) as { result?: any; error?: any };
  }

  test('a full jar refuses a note plainly; listings, the resource and the prompt return a page, not the jar', { timeout: 30_000 }, async () => {
    const jar = createCookieJar({ jar: memoryStore({ maxNotes: 120 }) });
    try {
      for (let i = 0; i < 120; i++) {
        const put = await rpc(jar, 'tools/call', { name: 'put_note', arguments: { text: `note ${i}` } });
        assert.equal(put.result?.isError, undefined, JSON.stringify(put));
      }
      const full = await rpc(jar, 'tools/call', { name: 'put_note', arguments: { text: 'one too many' } });
      assert.equal(full.result?.isError, true);
      assert.match(full.result?.content?.[0]?.text, /jar is full: it remembers at most 120 notes/);

      const first = await rpc(jar, 'tools/call', { name: 'list_notes', arguments: {} });
      assert.equal(first.result.structuredContent.notes.length, 50);
      assert.match(first.result.content[0].text, /call list_notes with after=\d+/);
      const rest = await rpc(jar, 'tools/call', { name: 'list_notes', arguments: { after: first.result.structuredContent.next, limit: 100 } });
      assert.equal(rest.result.structuredContent.notes.length, 70);
      assert.equal(rest.result.structuredContent.next, undefined);
      const tooMany = await rpc(jar, 'tools/call', { name: 'list_notes', arguments: { limit: 1000 } });
      assert.ok(tooMany.error !== undefined || tooMany.result?.isError === true, 'a page larger than 100 is refused');

      const resource = await rpc(jar, 'resources/read', { uri: 'jar://notes' });
      const listed = JSON.parse(resource.result.contents[0].text);
      assert.equal(listed.notes.length, 100);
      assert.equal(listed.more, true);

      const prompt = await rpc(jar, 'prompts/get', { name: 'recall', arguments: {} });
      const text = prompt.result.messages[0].content.text as string;
      assert.equal(text.split('\n').filter((line) => line.startsWith('- ')).length, 50);
      assert.match(text, /only the oldest 50 notes/);
    } finally {
      await jar.close();
    }
  });
});
