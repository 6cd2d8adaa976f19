// A TypeScript fixture run as a process of its own (a stdio server a test launches). Through a TypeScript loader every
// launch would compile the same files again, which is most of a short test's time; bundled once here with esbuild,
// each launch is plain Node. npm packages stay imports, found from the repository's node_modules, so the
// fixture runs the same SDK the tests import.

import { buildSync } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cache = join(root, 'node_modules', '.cache', 'byhand-fixtures');
const built = new Map<string, string>();

/** The path of `source` (relative to the repository) bundled to one ES module, built at most once per content. */
export function fixtureScript(source: string): string {
  const known = built.get(source);
  if (known !== undefined) return known;
  const { outputFiles } = buildSync({
    entryPoints: [join(root, source)],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
  });
  const text = outputFiles[0].text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const file = join(cache, `${basename(source, '.ts')}-${hash}.mjs`);
  if (!existsSync(file)) {
    // Test files run in parallel processes: each writes its own copy and renames it into place, so none reads half a file.
    mkdirSync(cache, { recursive: true });
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  }
  built.set(source, file);
  return file;
}

/** `node FIXTURE ARGS…` as a command line and its arguments. */
export function fixtureCommand(source: string, ...args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [fixtureScript(source), ...args] };
}
