// The client's size for a browser caller, measured the way bench/results.md measures it
// (bench/bundle-size.js: esbuild, minified ESM for the browser, split, gzip level 9 per chunk), so a
// regression fails the suite; and both browser entries bundle at all (no node: import reached).

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { bundleChunks, modernPathBundle } from '../bench/bundle-size.js';

// The plain-language messages and hints are part of the product and of these bytes. The budget is the modern path as
// it stood when the eras became plug-ins (connection.ts), and what three fixes of issue 48 need on it: a request whose
// authorization adds nothing sent at once (about 60 B), a cached verdict that keeps who the server is (about 100 B),
// and the connection's traits with a transport that says what it can do (about 100 B); and one retry engine whose
// rules (version, Mcp-Param header, verdict, auth) are written once in retry.ts (about 300 B). Growing past it is a
// decision, made by raising it in the commit that needs the bytes and saying why there.
const BUDGET_BYTES = 16_400;

test('connect, for an HTTP-only browser caller, stays within its min+gzip budget', { timeout: 60_000 }, async () => {
  const { modern, chunks } = await modernPathBundle({ source: true });
  const detail = chunks.map((c) => `${c.name}${c.modern ? '' : ' (not on the modern path)'}: ${c.gzip} B`).join(', ');
  assert.ok(modern <= BUDGET_BYTES, `the modern HTTP path is ${modern} B min+gzip, over the budget of ${BUDGET_BYTES} B (${detail})`);
  // stdio is its own chunk, never on the HTTP path; so is the legacy era, and it shares no chunk with the entry
  // (legacy-kit.ts): only the entry, the legacy era, HTTP+SSE and stdio.
  assert.ok(chunks.some((c) => !c.modern && c.modules.some((m) => /stdio-unavailable/.test(m.file))), `stdio should be split off (${detail})`);
  const legacy = chunks.find((c) => c.modules.some((m) => /\/legacy\.[jt]s$/.test(m.file)));
  assert.ok(legacy && !legacy.modern, `the legacy era should be a lazy chunk off the modern path (${detail})`);
  assert.ok(legacy.modules.every((m) => /\/(legacy|legacy-http|legacy-kit|legacy-tasks|legacy-era|open-sse)\.[jt]s$/.test(m.file)), `the legacy chunk holds only the legacy era: ${legacy.modules.map((m) => m.file).join(', ')}`);
  assert.equal(chunks.length, 4, `expected the entry and three lazy chunks, got ${detail}`);
});

for (const entry of ['@byhand/client', '@byhand/client/auth', '@byhand/client/skills']) {
  test(`${entry} bundles for the browser (no node: import on its path)`, { timeout: 60_000 }, async () => {
    const chunks = await bundleChunks(`export * from '${entry}';`, { source: true });
    const modules = chunks.flatMap((c) => c.modules.map((m) => m.file));
    assert.ok(modules.length > 3, `expected the package's modules, got ${modules.join(', ')}`);
    assert.ok(!modules.some((m) => m.startsWith('node:') || /requester-node|\/stdio\.[jt]s$/.test(m)), modules.join(', '));
  });
}
