import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ListRootsResult } from '@byhand/client';
import { RootError } from './errors.js';

/** The --root directories (or the working directory when there are none) as file:// roots. */
export function resolveRoots(dirs: readonly string[], cwd: string): ListRootsResult {
  const paths = dirs.length ? dirs.map((dir) => resolve(cwd, dir)) : [resolve(cwd)];
  return {
    roots: paths.map((path, i) => {
      if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
        throw new RootError(`\`roots\` ${dirs[i] ?? path}: ${path} is not a directory`);
      }
      return { uri: pathToFileURL(path).href, name: basename(path) || path };
    }),
  };
}
