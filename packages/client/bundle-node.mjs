#!/usr/bin/env node
// The client as Node loads it: dist/ bundled into a few files (dist/node/), so a cold start pays Node's per-module
// ESM cost (about 0.6 ms a module on Node 20) for a handful of files instead of about twenty. The four entries are
// built together with code splitting: what they share lives in shared chunks, so `instanceof McpError` holds across
// '@byhand/client' and '@byhand/client/auth', and stdio, the legacy era and HTTP+SSE stay lazily loaded. Run by
// `npm run build` after `tsc -b`; package.json's "node" condition points at the output, every other runtime at dist/.
// `node bundle-node.mjs OUTDIR` writes elsewhere (test/bundle-node.test.ts rebuilds to compare).

import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outdir = resolve(process.argv[2] ?? join(here, 'dist', 'node'));

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: here,
  entryPoints: {
    index: './dist/index.js',
    'auth/index': './dist/auth/index.js',
    'auth/file-store': './dist/auth/file-store.js',
    skills: './dist/skills.js',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The package's own #imports resolve as on Node (node:http requester, stdio); nothing else is bundled in but the
  // client's own files: it has no dependencies.
  conditions: ['node'],
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
