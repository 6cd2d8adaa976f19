// A TypeScript fixture run as a process of its own (a stdio server a test launches). Through a TypeScript loader every
// launch would compile the same files again, which is most of a short test's time; bundled once here with esbuild,
// each launch is plain Node. npm packages stay imports, found from the repository's node_modules, so the
// fixture runs the same SDK the tests import. A bundle is kept with the hashes of the files it was built from, so a
// test process whose fixtures have not changed since the last build neither builds nor starts esbuild.

import { buildSync, version as esbuildVersion, type BuildOptions } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OPTIONS = { bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20' } as const satisfies BuildOptions;

/** What a bundle was built from: each input (relative to the repository) with its content's hash, and the bundle. */
interface Manifest {
  inputs: Record<string, string>;
  bundle: string;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
/** Test files run in parallel processes: each writes its own copy and renames it into place, so none reads half a file. */
function writeWhole(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}

/** The bundle the manifest names, if every file it was built from is unchanged. */
function unchanged(root: string, manifestFile: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    const same = Object.entries(manifest.inputs).every(([input, hash]) => sha256(readFileSync(join(root, input))) === hash);
    return same && existsSync(manifest.bundle) ? manifest.bundle : undefined;
  } catch {
    return undefined;
  }
}

/** Bundles a fixture under `root` (its path relative to `root`) into `cache`, at most once per process and per content. */
export function fixtureBundler(root: string, cache: string): (source: string) => string {
  const built = new Map<string, string>();
  return (source) => {
    const known = built.get(source);
    if (known !== undefined) return known;
    // Another esbuild or other options build another bundle.
    const manifestFile = join(cache, `${basename(source, '.ts')}-${sha256(JSON.stringify([source, OPTIONS, esbuildVersion])).slice(0, 16)}.json`);
    const kept = unchanged(root, manifestFile);
    if (kept !== undefined) {
      built.set(source, kept);
      return kept;
    }
    const { outputFiles, metafile } = buildSync({
      ...OPTIONS,
      entryPoints: [join(root, source)],
      absWorkingDir: root,
      metafile: true,
      write: false,
    });
    const text = outputFiles[0].text;
    const file = join(cache, `${basename(source, '.ts')}-${sha256(text).slice(0, 16)}.mjs`);
    if (!existsSync(file)) writeWhole(file, text);
    const inputs = Object.fromEntries(Object.keys(metafile.inputs).map((input) => [input, sha256(readFileSync(join(root, input)))]));
    writeWhole(manifestFile, JSON.stringify({ inputs, bundle: file } satisfies Manifest));
    built.set(source, file);
    return file;
  };
}

const repository = fileURLToPath(new URL('../..', import.meta.url));

/** The path of `source` (relative to the repository) bundled to one ES module. */
export const fixtureScript = fixtureBundler(repository, join(repository, 'node_modules', '.cache', 'byhand-fixtures'));

/** `node FIXTURE ARGS…` as a command line and its arguments. */
export function fixtureCommand(source: string, ...args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [fixtureScript(source), ...args] };
}
