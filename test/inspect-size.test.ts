// The page's script, measured: what byhand inspect sends a browser (its compiled modules under dist/inspect/page),
// under a budget, and beside the MCP Inspector 2.12 web client's entry script (tools/peers), which docs/inspect.md
// quotes. A page that grows past the budget has taken on a framework or a library: that is a decision to write down.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { test } from './support/node-test.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const PAGE = join(root, 'packages/byhand/dist/inspect/page');
const INSPECTOR = join(root, 'tools/peers/node_modules/@modelcontextprotocol/inspector/clients/web/dist/assets');
/** Raw bytes of every module the page loads, comments included (the build does not minify). */
const BUDGET = 64 * 1024;

function measure(files: string[]): { bytes: number; gzip: number } {
  const all = Buffer.concat(files.map((file) => readFileSync(file)));
  return { bytes: all.length, gzip: gzipSync(all, { level: 9 }).length };
}

test("the page's script is under its budget, and a small fraction of the MCP Inspector's", (t) => {
  const page = measure(readdirSync(PAGE).filter((name) => name.endsWith('.js')).map((name) => join(PAGE, name)));
  assert.ok(page.bytes > 0 && page.bytes < BUDGET, `the page's modules are ${page.bytes} bytes (budget ${BUDGET})`);
  const entry = readdirSync(INSPECTOR).find((name) => /^index-.*\.js$/.test(name));
  assert.ok(entry !== undefined, `no Inspector web entry script in ${INSPECTOR}: are the test tools installed?`);
  const inspector = measure([join(INSPECTOR, entry)]);
  assert.ok(statSync(join(INSPECTOR, entry)).size === inspector.bytes);
  assert.ok(page.bytes * 20 < inspector.bytes, `byhand ${page.bytes} B against the Inspector's ${inspector.bytes} B`);
  t.diagnostic(`byhand inspect's page: ${page.bytes} B (${page.gzip} B gzip); MCP Inspector 2.12's web entry: ${inspector.bytes} B (${inspector.gzip} B gzip)`);
});
