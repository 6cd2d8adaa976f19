#!/usr/bin/env node
// `npm run pack`: every package of the workspace as a tarball in packs/ (built first by the script), and the line that
// installs them. They go in together: the names `byhand` and `@byhand/*` are not on the npm registry, so each package
// finds the others among the tarballs installed beside it, and only third-party dependencies come from the registry.

import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packAll, root } from './packaging.mjs';

const dest = join(root, 'packs');
mkdirSync(dest, { recursive: true });
for (const old of readdirSync(dest)) if (old.endsWith('.tgz')) rmSync(join(dest, old));

const packs = await packAll(dest);
const paths = Object.values(packs).map((p) => `./${relative(root, p.path)}`);
for (const [name, pack] of Object.entries(packs)) process.stdout.write(`${name}: ${relative(root, pack.path)} (${pack.files.length} files)\n`);
process.stdout.write(`\nfrom this folder, all of them at once:\n  npm install -g ${paths.join(' ')}\n`);
