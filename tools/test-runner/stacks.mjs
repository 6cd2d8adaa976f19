// The test processes run without --enable-source-maps: with it, Node reads and decodes the source map of every bundle
// chunk as each test process loads it, for stacks that matter only when a test fails. The runner maps a failure's
// stacks back to the TypeScript sources instead, from the same maps, before the reporter prints it.

import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A stack frame's place: a file URL or an absolute path, then :line:column (both 1-based). */
const FRAME = /(file:\/\/\/[^\s()]+|\/[^\s():]+):(\d+):(\d+)/g;

/** @typedef {{ details: { error: unknown } }} Failure */

/**
 * Rewrites a test:fail event's error in place wherever its stack, or a cause's, points into `outdir`'s bundles.
 * @param {string} outdir
 * @returns {(failure: Failure) => void}
 */
export function failureMapper(outdir) {
  /** @type {Map<string, SourceMap | undefined>} */
  const maps = new Map();
  /** @param {string} file */
  const mapOf = (file) => {
    if (!maps.has(file)) {
      let map;
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      } catch {
        // A chunk without a map (or one already removed) keeps its bundle position.
      }
      maps.set(file, map);
    }
    return maps.get(file);
  };
  /**
   * A bundle's place as its source's, or undefined outside the bundles.
   * @param {string} where a file URL or path
   * @param {number} line 1-based
   * @param {number} column 1-based
   */
  const sourcePlace = (where, line, column) => {
    const file = where.startsWith('file:') ? fileURLToPath(where) : where;
    if (!file.startsWith(outdir)) return undefined;
    const entry = mapOf(file)?.findEntry(line - 1, column - 1);
    if (entry === undefined || !('originalSource' in entry)) return undefined;
    return { file: resolve(dirname(file), entry.originalSource), line: entry.originalLine + 1, column: entry.originalColumn + 1 };
  };
  /** @param {string} text */
  const mapText = (text) =>
    text.replace(FRAME, (frame, where, line, column) => {
      const place = sourcePlace(where, Number(line), Number(column));
      return place === undefined ? frame : `${place.file}:${place.line}:${place.column}`;
    });
  return function mapFailure(failure) {
    const seen = new Set();
    for (let e = failure.details.error; e !== null && typeof e === 'object' && !seen.has(e); e = /** @type {{ cause?: unknown }} */ (e).cause) {
      seen.add(e);
      const withStack = /** @type {{ stack?: unknown }} */ (e);
      // Node 22 and later hand over some errors with a read-only stack: it is redefined, not assigned.
      if (typeof withStack.stack === 'string') Object.defineProperty(e, 'stack', { value: mapText(withStack.stack), writable: true, configurable: true });
    }
  };
}
