// Lists from a hostile server: every page is under the 4 MiB message bound, but a server can send page after page
// (200 pages of 3 MB took `byhand list` to 1.8 GB), and a tool can nest 100,000 levels deep (which failed the whole
// listing, while 3,000 levels dropped the tool without a word). The built command and the client against a
// hand-scripted loopback server, as the attacker wrote it.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { byhand } from './support/cli.js';
import { connect, DEFAULT_LIMITS, ListLimitError } from '../packages/client/src/index.js';
import { json, listen, modern, type Loopback } from './fixtures/loopback.js';

const PAGE_BYTES = 3_000_000;
const PAGES = 200;

/** `{"type":"object","properties":{"a": …}}` nested `depth` times, written as text: building it as objects would recurse. */
function deepSchema(depth: number): string {
  return `${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;
}

let pages: Loopback;
let deep: Loopback;
let deeper: Loopback;
const asked = { tools: 0, resources: 0 };

before(async () => {
  const filler = 'x'.repeat(PAGE_BYTES);
  pages = await listen(modern((request, res) => {
    const method = request.json?.method;
    const page = Number(request.json?.params?.cursor ?? 0);
    const next = page + 1 < PAGES ? { nextCursor: String(page + 1) } : {};
    if (method === 'tools/list') {
      asked.tools++;
      return json(res, { jsonrpc: '2.0', id: request.json!.id, result: { resultType: 'complete', tools: [{ name: `t${page}`, description: filler, inputSchema: { type: 'object' } }], ...next } });
    }
    if (method === 'resources/list') {
      asked.resources++;
      return json(res, { jsonrpc: '2.0', id: request.json!.id, result: { resultType: 'complete', resources: [{ uri: `r://${page}`, name: filler }], ...next } });
    }
    return json(res, { jsonrpc: '2.0', id: request.json?.id ?? null, result: { resultType: 'complete', prompts: [], resourceTemplates: [] } });
  }));
  const deepServer = (depth: number) => listen(modern((request, res) => {
    if (request.json?.method !== 'tools/list') return json(res, { jsonrpc: '2.0', id: request.json?.id ?? null, result: { resultType: 'complete', resources: [], prompts: [], resourceTemplates: [] } });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(request.json.id)},"result":{"resultType":"complete","tools":[{"name":"fine","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}},{"name":"deep","inputSchema":${deepSchema(depth)}}]}}`);
  }));
  deep = await deepServer(100_000);
  deeper = await deepServer(3_000);
}, { timeout: 30_000 });
after(async () => {
  await Promise.all([pages?.close(), deep?.close(), deeper?.close()]);
});

describe('one bound over all the pages of a list', () => {
  test('pages of 3 MB: the list stops past the bound with how much it took and how to ask for less, not after 200 pages', { timeout: 60_000 }, async () => {
    asked.tools = 0;
    const run = await byhand('list', pages.url, 'tools');
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^✗ list what .* offers: tools\/list took 6 pages, \d+ bytes, over the 16777216 one list may take$/m);
    assert.match(run.stderr, /^ {2}hint: .*ask for less: one kind at a time \(`byhand list SERVER tools`\)/m);
    assert.equal(asked.tools, 6, 'pages asked for');
  });

  test('read without a URI, and the checkpoint, hold to the same bound', { timeout: 60_000 }, async () => {
    asked.resources = 0;
    const read = await byhand('read', pages.url);
    assert.equal(read.code, 1, read.stderr);
    assert.match(read.stderr, /resources\/list took 6 pages/);
    assert.equal(asked.resources, 6);
    asked.tools = 0;
    const checkpoint = await byhand('checkpoint', pages.url, '--json');
    const report = JSON.parse(checkpoint.stdout) as { ok: boolean; error: { code: string; message: string; hint: string } };
    assert.equal(report.ok, false);
    assert.equal(report.error.code, 'limit');
    assert.match(report.error.message, /took 6 pages/);
    assert.match(report.error.hint, /ask for less/);
    assert.ok(asked.tools <= 6, `${asked.tools} tools/list pages asked for`);
  });

  test('the library: ListLimitError at limits.maxListBytes, and a list under it is read whole', { timeout: 30_000 }, async () => {
    const client = await connect(pages.url, { limits: { maxListBytes: 4 * PAGE_BYTES } });
    try {
      await assert.rejects(client.listTools(), (e: unknown) => e instanceof ListLimitError && e.pages === 4 && e.limit === 4 * PAGE_BYTES && e.bytes > e.limit);
    } finally {
      await client.close();
    }
    assert.equal(DEFAULT_LIMITS.maxListBytes, 16 * 1024 * 1024);
  });
});

describe('a tool nested deeper than any tool needs', () => {
  for (const [depth, server] of [[100_000, () => deep], [3_000, () => deeper]] as const) {
    test(`${depth} levels: that tool is left out with the reason, and the others list`, { timeout: 60_000 }, async () => {
      const plain = await byhand('list', server().url, 'tools');
      assert.equal(plain.code, 0, plain.stderr);
      assert.match(plain.stdout, /^tools \(1\):\n {2}fine\n {6}q: string, optional$/m);
      assert.match(plain.stdout, /^tools left out \(1\):\n {2}deep: it nests deeper than 64 levels$/m);
      const asJson = await byhand('list', server().url, 'tools', '--json');
      assert.equal(asJson.code, 0, asJson.stderr);
      const listing = JSON.parse(asJson.stdout) as { tools: { name: string }[]; excludedTools: { name: string; reason: string }[] };
      assert.deepEqual(listing.tools.map((t) => t.name), ['fine']);
      assert.deepEqual(listing.excludedTools.map((t) => t.name), ['deep']);
      const call = await byhand('call', server().url, 'deep');
      assert.notEqual(call.code, 0);
      assert.match(call.stderr, /tool 'deep' was left out of tools\/list: it nests deeper than 64 levels/);
    });
  }
});
