// No tracked file names a place outside the repository: a reader elsewhere cannot open it, and it says where one
// person's machine kept things. The rule, kept simple:
// - an absolute path under a machine's own folders (/work, /home, /Users, /root, /tmp, /var, /opt, /mnt, /srv,
//   /private) is refused, unless it is part of a URL (`https://host/home/…`, `file:///…`); /dev/null, /proc, /usr
//   and shebangs are not in the list, and `~/…` names the reader's own home, so both are fine;
// - a relative path that climbs out of the repository from the file that names it (`../shared` at the top level)
//   is refused; `../` that stays inside is fine.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { test } from './support/node-test.js';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// Not after a word character, a dot, a slash, a colon or a tilde: so not inside a URL, a longer path or `~/`.
const ABSOLUTE = /(?<![\w.:/~-])\/(?:work|home|Users|root|tmp|var|opt|mnt|srv|private)\/[\w./-]*/g;
const CLIMBING = /(?<![\w./-])(?:\.\.\/)+[\w.-]+(?:\/[\w.-]+)*/g;

/** Each outside path a file names, as `line: path`. */
function outsidePaths(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [path] of line.matchAll(ABSOLUTE)) found.push(`${file}:${i + 1}: ${path}`);
    for (const [path] of line.matchAll(CLIMBING)) {
      if (posix.normalize(posix.join(posix.dirname(file), path)).startsWith('../')) found.push(`${file}:${i + 1}: ${path}`);
    }
  });
  return found;
}

test('the rule: outside paths are found, URLs, system files and paths inside the repository are not', { timeout: 5_000 }, () => {
  const mine = '/' + 'work/shared/reference/notes.md';
  const home = '/' + 'home/ada/project';
  assert.deepEqual(outsidePaths('README.md', `see ${mine} and (${home})`), [`README.md:1: ${mine}`, `README.md:1: ${home}`]);
  assert.deepEqual(outsidePaths('README.md', 'read `' + '../' + 'shared/notes.md`'), ['README.md:1: ../shared/notes.md']);
  const up = '../../' + 'elsewhere';
  assert.deepEqual(outsidePaths('docs/x.md', `\`${up}\``), [`docs/x.md:1: ${up}`]);
  const fine = [
    '#!/usr/bin/env node',
    'echo hi > /dev/null; cat /proc/self/status',
    'https://example.com/home/page and file:///srv/data',
    "new URL('../..', import.meta.url); import x from '../shared/config.js';",
    '~/.config/byhand/credentials.json',
  ].join('\n');
  assert.deepEqual(outsidePaths('packages/byhand/src/shared/x.ts', fine), []);
});

test('no tracked text file names a path outside the repository', { timeout: 30_000 }, () => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  assert.ok(files.length > 100, `git ls-files listed ${files.length} files`);
  const found: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(posix.join(root, file), 'utf8');
    } catch {
      continue; // listed but not in this checkout (deleted and not yet committed)
    }
    if (text.includes('\0')) continue; // binary
    found.push(...outsidePaths(file, text));
  }
  assert.deepEqual(found, [], 'name these inside the repository (or as a public URL) instead');
});
