// The 2026 face's backs (modern-backs.ts): callers grouped by what they declare, each call holding a back of its own
// while it runs (a 2025 server's pushed requests name no call), the first back reused whenever it is free, a new one
// opened for a call that overlaps another, and past the bound a call waits for one, said on stderr.

import assert from 'node:assert/strict';
import { describe, test } from './support/node-test.js';
import { ModernBacks } from '../packages/switchboard/src/modern-backs.js';
import type { OpenBack } from '../packages/switchboard/src/legacy-face.js';
import { PendingCalls } from '../packages/switchboard/src/pending-calls.js';
import { createStateCodec } from '../packages/servers/src/edge/state-codec.js';
import type { Client } from '../packages/client/src/index.js';

const SAMPLING = { sampling: {} };

/** Backs that open at once, each a stand-in client named by its number, and what was opened and closed. */
function fakeBacks() {
  const opened: string[] = [];
  const closed: string[] = [];
  const open: OpenBack = async () => {
    const name = `client ${opened.length}`;
    opened.push(name);
    return { client: { name, traits: { pushes: false } } as unknown as Client, close: async () => void closed.push(name) };
  };
  return { open, opened, closed };
}

const nameOf = (client: Client) => (client as unknown as { name: string }).name;
const turn = () => new Promise((resolve) => setImmediate(resolve));

function backs(open: OpenBack, options: { maxPerGroup?: number; warn?: (text: string) => void } = {}): ModernBacks {
  return new ModernBacks(open, new PendingCalls({ codec: createStateCodec(new Uint8Array(32).fill(5), 600) }), () => undefined, options);
}

describe('byhand bridge: the backs of the 2026 face', () => {
  test('a call holds a back of its own: the first while it is free, a new one for a call that overlaps; lists use the first', { timeout: 5_000 }, async () => {
    const fake = fakeBacks();
    const pool = backs(fake.open);
    const first = await pool.lease(SAMPLING);
    const second = await pool.lease(SAMPLING);
    assert.deepEqual([nameOf(first.back.client), nameOf(second.back.client)], ['client 0', 'client 1']);
    assert.notEqual(first.back.scope, second.back.scope);
    assert.equal(first.back.group, second.back.group);
    assert.equal(nameOf((await pool.client(SAMPLING)).client), 'client 0', 'lists and discovery use the first back');
    first.release();
    first.release();
    const third = await pool.lease(SAMPLING);
    assert.equal(nameOf(third.back.client), 'client 0', 'a free back is reused before another is opened');
    // Callers that declare something else have backs of their own.
    const other = await pool.lease({ roots: {} });
    assert.equal(nameOf(other.back.client), 'client 2');
    assert.notEqual(other.back.group, first.back.group);
    await pool.close();
    assert.deepEqual(fake.closed.sort(), ['client 0', 'client 1', 'client 2']);
  });

  test('past the bound a call waits for the first back released, said on stderr; one that gives up leaves the line', { timeout: 5_000 }, async () => {
    const fake = fakeBacks();
    const said: string[] = [];
    const pool = backs(fake.open, { maxPerGroup: 2, warn: (text) => said.push(text) });
    const one = await pool.lease(SAMPLING);
    await pool.lease(SAMPLING);
    const leaves = new AbortController();
    const gone = pool.lease(SAMPLING, { signal: leaves.signal });
    const waits = pool.lease(SAMPLING);
    await turn();
    assert.equal(fake.opened.length, 2);
    assert.equal(said.length, 2);
    assert.match(said[0], /waits for a back: all 2 opened/);
    leaves.abort(new Error('the caller left'));
    await assert.rejects(gone, /the caller left/);
    one.release();
    assert.equal(nameOf((await waits).back.client), 'client 0');
    await pool.close();
  });

  test('a back whose server asked something while no call held it is the one a call takes; a task waits for its own back', { timeout: 5_000 }, async () => {
    const fake = fakeBacks();
    const pool = backs(fake.open);
    const a = await pool.lease(SAMPLING);
    const b = await pool.lease(SAMPLING);
    a.release();
    b.release();
    const asked = await pool.lease(SAMPLING, { asked: (scope) => scope === b.back.scope });
    assert.equal(asked.back.scope, b.back.scope);
    let taken = false;
    const own = pool.lease(SAMPLING, { only: b.back.scope }).then((lease) => ((taken = true), lease));
    await turn();
    assert.equal(taken, false, 'the task took a back other than its own, or one held by another call');
    asked.release();
    assert.equal((await own).back.scope, b.back.scope);
    await pool.close();
  });
});
