// What an HTTP-only caller of `connect` ships to a browser: esbuild (bundle, minify, ESM, platform
// browser, code splitting), gzip level 9 per chunk. The client loads the legacy era and stdio only
// through dynamic imports, when a server turns out to be legacy or a command is the target; those
// chunks are left out of "the modern path", every other chunk (the entry, what it imports, and any
// other lazily loaded chunk) is counted. Shared by bench/client-bench.js and test/bundle.test.ts.

import { build } from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Chunks holding any of these sources are not on the modern HTTP path. */
const OFF_PATH = [/\/legacy\.[jt]s$/, /\/http-sse\.[jt]s$/, /\/stdio(-unavailable)?\.[jt]s$/];

/**
 * `contents` bundled for the browser, split. `source`: the TypeScript sources (condition
 * byhand-source) rather than the compiled dist/.
 * @param {string} contents
 * @param {{ source?: boolean, splitting?: boolean }} [options]
 */
export async function bundleChunks(contents, { source = false, splitting = true } = {}) {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, loader: 'js', sourcefile: 'caller.js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting,
    outdir: join(ROOT, 'bench', '.bundle'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: ROOT,
    ...(source ? { conditions: ['byhand-source'] } : {}),
  });
  const files = new Map(result.outputFiles.map((f) => [f.path, f.contents]));
  return Object.entries(result.metafile.outputs).map(([path, output]) => {
    // Every output the metafile lists is one of outputFiles.
    const code = /** @type {Uint8Array} */ (files.get(resolve(ROOT, path)));
    return {
      name: path.split('/').pop(),
      path,
      entry: output.entryPoint !== undefined,
      min: code.length,
      gzip: gzipSync(code, { level: 9 }).length,
      statics: output.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path),
      dynamics: output.imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => i.path),
      modules: Object.entries(output.inputs).map(([file, { bytesInOutput }]) => ({ file, min: bytesInOutput })).filter((m) => m.min > 0),
    };
  });
}

/** One chunk of a split build. @typedef {Awaited<ReturnType<typeof bundleChunks>>[number]} Chunk */

/**
 * The modern HTTP path of `export { connect } from '@byhand/client'`: its gzip total, its chunks, each module's minified bytes.
 * @param {{ source?: boolean }} [options]
 */
export async function modernPathBundle({ source = false } = {}) {
  const chunks = await bundleChunks("export { connect } from '@byhand/client';", { source });
  const byPath = new Map(chunks.map((c) => [c.path, c]));
  // Imports name chunks of the same build: each is in byPath.
  /** @param {string} path */
  const chunkAt = (path) => /** @type {Chunk} */ (byPath.get(path));
  /** @param {string} start */
  const closure = (start) => {
    /** @type {Set<string>} */
    const seen = new Set();
    /** @param {string} path */
    const visit = (path) => {
      if (seen.has(path)) return;
      seen.add(path);
      for (const next of chunkAt(path).statics) visit(next);
    };
    visit(start);
    return seen;
  };
  // A build of one entry has one entry chunk.
  const modernPaths = closure(/** @type {Chunk} */ (chunks.find((c) => c.entry)).path);
  for (const chunk of chunks) {
    for (const lazy of chunk.dynamics) {
      const reached = [...closure(lazy)];
      const offPath = reached.some((p) => chunkAt(p).modules.some((m) => OFF_PATH.some((re) => re.test(m.file))));
      if (!offPath) for (const p of reached) modernPaths.add(p);
    }
  }
  const marked = chunks.map((c) => ({ ...c, modern: modernPaths.has(c.path) }));
  return {
    modern: marked.filter((c) => c.modern).reduce((sum, c) => sum + c.gzip, 0),
    chunks: marked,
    method: "esbuild 0.28 of `export { connect } from '@byhand/client'` (bundle, minify, format esm, platform browser, code splitting), gzip level 9 of each chunk; the modern path is the sum over the entry chunk, what it imports and every lazily imported chunk except those holding the legacy era or stdio (loaded only when a server turns out to be legacy, or for a command).",
  };
}
