// A result nested far deeper than any stack, from a real stdio server through the real binary: the client takes
// it (its bound is bytes, not depth), and byhand prints it cut at its print depth, saying where, as text, as
// --json and in --trace, instead of failing with "Maximum call stack size exceeded".

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from './support/node-test.js';
import { connect, LimitError } from '../packages/client/src/index.js';
import { byhandBinary } from './support/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'byhand-deep-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
/** The binary: a stack overflow would be its own process's. */
const byhand = (...args: string[]) => byhandBinary({ cwd: scratch }, ...args);

// A modern stdio server whose tool `deep` answers structuredContent {"a":{"a":…1…}} nested DEPTH levels deep.
const server = join(scratch, 'deep.cjs');
writeFileSync(server, `
const readline = require('node:readline');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const depth = Number(process.argv[2]);
const deep = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  const ok = (result) => send({ jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete', ...result } });
  if (msg.method === 'server/discover') return ok({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'deep', version: '1' } });
  if (msg.method === 'tools/list') return ok({ tools: [{ name: 'deep', inputSchema: { type: 'object' } }] });
  if (msg.method === 'tools/call') return process.stdout.write('{"jsonrpc":"2.0","id":' + JSON.stringify(msg.id) + ',"result":{"resultType":"complete","content":[],"structuredContent":' + deep + '}}\\n');
  send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
});
`);

/** How deep a parsed value nests, counted without recursion. */
function depthOf(value: unknown): number {
  let most = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    most = Math.max(most, depth + 1);
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return most;
}

const CUT = /^byhand: the result nests deeper than 100 levels: one value cut, marked "\[cut: nested deeper than 100 levels\]"; the first at \$\.structuredContent\.a\(×99\)$/m;

describe('a result nested 100,000 deep', { timeout: 60_000 }, () => {
  test('the client takes it whole: its bound is the message size, not the depth', async () => {
    const client = await connect({ command: process.execPath, args: [server, '100000'] });
    try {
      assert.equal(depthOf((await client.callTool('deep')).structuredContent), 100_000);
    } finally {
      await client.close();
    }
    const small = await connect({ command: process.execPath, args: [server, '100000'] }, { limits: { maxMessageBytes: 64 * 1024 } });
    try {
      await assert.rejects(small.callTool('deep'), LimitError, 'a smaller byte bound refuses it, the depth aside');
    } finally {
      await small.close();
    }
  });

  test('call --json prints it cut at 100 levels, valid JSON, and says where', async () => {
    const run = await byhand('call', 'deep', '--json', '--', process.execPath, server, '100000');
    assert.equal(run.code, 0, run.stderr);
    const printed = JSON.parse(run.stdout) as { structuredContent: unknown };
    assert.equal(depthOf(printed), 100, 'the result object and 99 levels under it; the 100th is the mark');
    assert.match(run.stdout, /"a":"\[cut: nested deeper than 100 levels\]"/);
    assert.match(run.stderr, CUT);
  });

  test('call prints it as text, and --trace shows the message, both cut', async () => {
    const run = await byhand('call', 'deep', '--trace', '--', process.execPath, server, '100000');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /"a": "\[cut: nested deeper than 100 levels\]"/);
    assert.match(run.stderr, CUT);
    assert.match(run.stderr, /\{"a":\{"a":"\[cut: nested deeper than 100 levels\]"\}+/);
  });

  test('a result within the depth is printed whole, without a notice', async () => {
    const run = await byhand('call', 'deep', '--json', '--', process.execPath, server, '90');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(depthOf(JSON.parse(run.stdout)), 91);
    assert.doesNotMatch(run.stderr + run.stdout, /cut/);
  });
});
