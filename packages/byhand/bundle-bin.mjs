#!/usr/bin/env node
// The command as `bin/byhand.js` loads it: dist/cli.js and the workspace packages under it (client, host, toolboxes)
// bundled into dist/bin/, so every start pays Node's per-module ESM cost for a few files, not for every module.
// Code splitting keeps each command, the toolboxes and the legacy era in chunks loaded only when used. npm packages
// stay imports (the server SDK, zod, ajv, the provider SDK): they are byhand's own dependencies, resolved from the
// install as before. Run by `npm run build` after `tsc -b` and the client's bundle-node.mjs; the library entries
// (byhand/client, …) stay tsc's dist/ files. `node bundle-bin.mjs OUTDIR` writes elsewhere.

import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outdir = resolve(process.argv[2] ?? join(here, 'dist', 'bin'));
/**
 * The workspace is bundled in, and jsonc-parser from its ESM build: the one CommonJS package a start loaded, it
 * brought node's CommonJS loader into every command. Every other bare import is an npm package.
 */
const BUNDLED = /^(@byhand\/|byhand(\/|$)|jsonc-parser$)/;

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: here,
  entryPoints: { cli: './dist/cli.js' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // @byhand/client's "node" condition is its own bundle (bundle-node.mjs), with its #imports for Node.
  conditions: ['node'],
  // jsonc-parser's `module` field is its ESM build; the workspace packages resolve through `exports`.
  mainFields: ['module', 'main'],
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [
    {
      name: 'npm-packages-external',
      setup(builder) {
        builder.onResolve({ filter: /^[^./#]/ }, (args) => (BUNDLED.test(args.path) || args.path.startsWith('node:') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
  logLevel: 'warning',
  // The client's own bundle imports a shared chunk for order alone; the client has no side effects, as it declares.
  logOverride: { 'ignored-bare-import': 'silent' },
});
