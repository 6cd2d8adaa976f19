// The figures in docs/performance.md are written by the bench, not typed: each benchmark's table sits
// between `<!-- bench:ID -->` and `<!-- /bench:ID -->`, and `npm run bench` replaces what is between
// them. test/docs-performance.test.ts holds every block to bench/results.md, so a hand-edited figure fails.

import { readFileSync, writeFileSync } from 'node:fs';

const BLOCK = /<!-- bench:([a-z-]+) -->\n([\s\S]*?)\n<!-- \/bench:\1 -->/g;

/**
 * The generated blocks of a document, by benchmark id.
 * @param {string} text
 * @returns {Map<string, string>}
 */
export function generatedBlocks(text) {
  return new Map([...text.matchAll(BLOCK)].map((m) => [m[1], m[2]]));
}

/**
 * Replaces the blocks of `file` that `blocks` has; returns the ids replaced.
 * @param {string} file
 * @param {Record<string, string>} blocks
 */
export function writeGenerated(file, blocks) {
  /** @type {string[]} */
  const replaced = [];
  const text = readFileSync(file, 'utf8').replace(BLOCK, (whole, /** @type {string} */ id) => {
    if (!Object.hasOwn(blocks, id)) return whole;
    replaced.push(id);
    return `<!-- bench:${id} -->\n${blocks[id]}\n<!-- /bench:${id} -->`;
  });
  writeFileSync(file, text);
  return replaced;
}
