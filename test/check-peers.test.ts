// `byhand check` on the reference servers people run (tools/peers: server-filesystem, server-memory and
// server-sequential-thinking 2026.8.31, each on the SDK 1.x over stdio), as a server author would run it: no error,
// only the warnings docs/check.md names as real, and nothing changed: the filesystem server's folder and the folder
// check runs in are byte for byte the same after a default run and after --all-tools, and the memory server's file
// is untouched.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from './support/node-test.js';
import { assertInstalled } from './conformance/suite.js';
import type { Finding } from '../packages/byhand/src/check/finding.js';
import { errorIds, findingText, inTempFolder, runCheck } from './fixtures/check/run-check.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const peer = (name: string) => join(root, 'tools', 'peers', 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');
const SERVERS = { filesystem: peer('server-filesystem'), memory: peer('server-memory'), thinking: peer('server-sequential-thinking') };

/** The warnings docs/check.md names as real on a 2025-only server on the SDK 1.x. */
const KNOWN = new Set(['era.discover', 'lists.unknown-tool']);

/** Every file under `dir` with its bytes' hash, and every folder: what "unchanged" is held to. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) {
        out[`${relative(dir, path)}/`] = 'folder';
        walk(path);
      } else out[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

function assertClean(findings: Finding[]): void {
  assert.deepEqual(errorIds(findings), [], findings.filter((f) => f.status === 'error').map(findingText).join('\n'));
  const warned = findings.filter((f) => f.status === 'warn' && !KNOWN.has(f.id));
  assert.deepEqual(warned.map((f) => `${f.id}: ${f.title}`), []);
}

describe('byhand check on the reference servers', () => {
  test('server-filesystem: no error, and neither its folder nor the folder check runs in changes, by default or with --all-tools', { timeout: 60_000 }, async () => {
    assertInstalled(Object.values(SERVERS));
    await inTempFolder('byhand-check-peers-', async (dir) => {
      const sandbox = join(dir, 'sandbox');
      const user = join(dir, 'user');
      mkdirSync(join(sandbox, 'docs'), { recursive: true });
      mkdirSync(user);
      writeFileSync(join(sandbox, 'docs', 'notes.txt'), 'the sandbox the server was started with\n');
      writeFileSync(join(user, 'keep.txt'), 'the folder check runs in\n');
      const before = { sandbox: snapshot(sandbox), user: snapshot(user) };
      const server = ['--', process.execPath, SERVERS.filesystem, sandbox];
      const plain = await runCheck(user, '--json', '--timeout', '15000', ...server);
      assertClean(plain.findings);
      assert.equal(plain.code, 0);
      assert.deepEqual({ sandbox: snapshot(sandbox), user: snapshot(user) }, before, 'a default run changes nothing');
      const all = await runCheck(user, '--json', '--timeout', '15000', '--all-tools', ...server);
      assert.deepEqual(errorIds(all.findings), []);
      assert.match(all.findings.find((f) => f.id === 'tools.called')?.title ?? '', /write_file.*not read-only, with canned arguments: they may have changed something/);
      assert.deepEqual({ sandbox: snapshot(sandbox), user: snapshot(user) }, before, '--all-tools writes into neither folder: the roots offered are an empty folder of check\'s own');
    });
  });

  test('server-memory: no error, and its file is untouched', { timeout: 60_000 }, async () => {
    assertInstalled(Object.values(SERVERS));
    await inTempFolder('byhand-check-peers-', async (dir) => {
      const file = join(dir, 'memory.jsonl');
      writeFileSync(file, `${JSON.stringify({ type: 'entity', name: 'Ada', entityType: 'person', observations: ['writes programs'] })}\n`);
      const before = snapshot(dir);
      const { code, findings } = await runCheck(dir, '--json', '--timeout', '15000', '--env', `MEMORY_FILE_PATH=${file}`, '--', process.execPath, SERVERS.memory);
      assertClean(findings);
      assert.match(findings.find((f) => f.id === 'tools.called')?.title ?? '', /read_graph, search_nodes, open_nodes \(read-only\)$/);
      assert.deepEqual(snapshot(dir), before);
      assert.equal(code, 0);
    });
  });

  test('server-sequential-thinking: no error', { timeout: 60_000 }, async () => {
    assertInstalled(Object.values(SERVERS));
    await inTempFolder('byhand-check-peers-', async (dir) => {
      const { code, findings } = await runCheck(dir, '--json', '--timeout', '15000', '--', process.execPath, SERVERS.thinking);
      assertClean(findings);
      assert.equal(code, 0);
    });
  });
});
