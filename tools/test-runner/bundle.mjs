// Each test file bundled to one plain ES module before the run. Through a loader (tsx), every test process compiled
// and resolved the same sources again, module by module; bundled once, a test process is plain Node. The workspace
// packages are bundled from their TypeScript sources (the `byhand-source` condition, as the type check reads them);
// npm packages stay imports, found from the repository's node_modules, so the tests run the SDK that is installed.

import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** `@byhand/*` and `byhand/*` are the workspace; every other bare import is an npm package (a `#name` is a package's own import map, resolved by esbuild). */
const WORKSPACE = /^(@byhand\/|byhand(\/|$))/;

/**
 * A bundled module's `import.meta.url` would name the bundle; the tests find their fixtures and the repository
 * root from it. Each source module gets its own file's URL instead, through a constant esbuild keeps per module.
 * @type {import('esbuild').Plugin}
 */
const ownModuleUrl = {
  name: 'own-module-url',
  setup(builder) {
    builder.onResolve({ filter: /^[^./#]/ }, (args) => (WORKSPACE.test(args.path) ? undefined : { path: args.path, external: true }));
    builder.onLoad({ filter: /\.m?[jt]s$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      return {
        // On the first line (a #! line becomes a comment after it), so the source map keeps every line where it is.
        contents: `const __moduleUrl = ${JSON.stringify(pathToFileURL(args.path).href)}; ${text.startsWith('#!') ? '//' : ''}${text}`,
        loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js',
      };
    });
  },
};

/**
 * Bundles `files` (paths relative to `root`) into `outdir`, emptied first. Modules shared by several test files go
 * in shared chunks (esbuild's splitting), which also keeps a module imported both statically and lazily one module,
 * as Node would load it.
 * @param {string} root
 * @param {string[]} files
 * @param {string} outdir
 * @returns {Promise<Map<string, string>>} each source file's bundle
 */
export async function bundleTests(root, files, outdir) {
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: files,
    outdir,
    outbase: root,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['byhand-source'],
    sourcemap: 'linked',
    sourcesContent: false,
    define: { 'import.meta.url': '__moduleUrl' },
    plugins: [ownModuleUrl],
    metafile: true,
    logLevel: 'warning',
  });
  const bundles = new Map();
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint !== undefined) bundles.set(meta.entryPoint, join(root, output));
  }
  return bundles;
}
