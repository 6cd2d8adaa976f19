// Two workers finish together when the longest test files start first. How long each file took is kept from the
// last run on this machine (in node_modules/.cache, never committed); a file not seen yet goes first, largest first,
// as size is the only guess there is before it has run.

import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** @param {string} root */
const timesFile = (root) => join(root, 'node_modules', '.cache', 'byhand-test-times.json');

/**
 * @param {string} root
 * @returns {Record<string, number>} milliseconds by test file
 */
function lastTimes(root) {
  try {
    return /** @type {Record<string, number>} */ (JSON.parse(readFileSync(timesFile(root), 'utf8')));
  } catch {
    return {};
  }
}

/**
 * @param {string} root
 * @param {string[]} files relative to root
 * @returns {string[]} the same files, longest first
 */
export function longestFirst(root, files) {
  const times = lastTimes(root);
  const unseen = files.filter((f) => times[f] === undefined).sort((a, b) => statSync(join(root, b)).size - statSync(join(root, a)).size);
  const seen = files.filter((f) => times[f] !== undefined).sort((a, b) => times[b] - times[a]);
  return [...unseen, ...seen];
}

/**
 * Merges this run's times into the kept ones (a run of some files keeps the others'), and removes the run's log.
 * @param {string} root
 * @param {string} log lines of {"file": bundle, "ms": n}, one per test process
 * @param {Map<string, string>} sourceOf each bundle's test file
 */
export function keepTimes(root, log, sourceOf) {
  /** @type {Record<string, number>} */
  const times = lastTimes(root);
  /** @type {string[]} */
  let lines;
  try {
    lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  } catch {
    return;
  }
  for (const line of lines) {
    const { file, ms } = /** @type {{ file: string, ms: number }} */ (JSON.parse(line));
    const source = sourceOf.get(file);
    if (source !== undefined) times[source] = ms;
  }
  const file = timesFile(root);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(times, null, 1)}\n`);
  rmSync(log, { force: true });
}
