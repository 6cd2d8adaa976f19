// The calls a 2026 host has left waiting in `byhand bridge` (pending-calls.ts), on an injected timer: a call whose
// caller never retries is given up and what the server asked is answered with an error; there are only so many at
// once, and one caller may hold only so many; a requestState the bridge did not issue, for another call, of an earlier
// round or of another instance is refused. One call at a time runs on a back, so what its server asks is that call's:
// a second call waits its turn, one asked while no call ran waits for the next call, and a call given up frees the
// back at once.

import assert from 'node:assert/strict';
import { describe, test } from './support/node-test.js';
import type { CreateMessageParams, InputContext, JsonObject, JsonRpcNotification } from '../packages/client/src/types.js';
import { PendingCalls, type CallStart, type Leased } from '../packages/switchboard/src/pending-calls.js';
import { AnswerError } from '../packages/switchboard/src/json-rpc-peer.js';
import { createStateCodec } from '../packages/servers/src/edge/state-codec.js';

const codec = createStateCodec(new Uint8Array(32).fill(7), 600);
const SAMPLING = { sampling: {} };
const question = (text = 'think'): CreateMessageParams => ({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 10 });
const reply = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'm' });
const ctx = (key: string, signal: AbortSignal): InputContext => ({ key, method: 'tools/call', name: 'ask', round: 1, era: 'legacy', signal });

/** A timer that fires only when the test says so. */
function manualTimer() {
  const timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
  return {
    timers,
    schedule: (run: () => void, ms: number) => {
      const timer = { run, ms, cancelled: false };
      timers.push(timer);
      return { cancel: () => void (timer.cancelled = true) };
    },
    fire: () => timers.filter((t) => !t.cancelled).forEach((t) => ((t.cancelled = true), t.run())),
  };
}

/** A server that asks for sampling once (through the back's host), then answers with what it was told. */
function asking(pending: PendingCalls, seen: { error?: Error } = {}, text = 'think', scope = ''): Work {
  const host = pending.host(SAMPLING, scope);
  return async (signal) => {
    try {
      const answer = await host.sample!(question(text), ctx('think', signal));
      return { content: [{ type: 'text', text: `answered: ${JSON.stringify(answer.content)}` }] };
    } catch (error) {
      seen.error = error as Error;
      throw error;
    }
  };
}

type Work = Leased['run'];

/** A call that holds the back `scope` (released into `released`, when given) and runs `work` on it. */
const start = (work: Work, { scope = '', released, ...more }: Partial<CallStart> & { scope?: string; released?: string[] } = {}): CallStart => ({
  declared: SAMPLING,
  binding: 'tools/call\0ask',
  caller: 'host',
  lease: async () => ({ scope, release: () => void released?.push(scope), run: work }),
  ...more,
});

function code(error: unknown): number | undefined {
  return error instanceof AnswerError ? error.error.code : undefined;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('byhand bridge: calls waiting for a 2026 host', () => {
  test('asked, retried, answered: the handle carries the call across rounds', { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule });
    const first = await pending.start(start(asking(pending)));
    assert.equal(first.resultType, 'input_required');
    assert.deepEqual(Object.keys(first.inputRequests as JsonObject), ['think']);
    const done = await pending.resume(String(first.requestState), { think: reply('blue') }, SAMPLING, 'tools/call\0ask');
    assert.deepEqual(done, { content: [{ type: 'text', text: 'answered: {"type":"text","text":"blue"}' }] });
    assert.equal(pending.size, 0);
  });

  test('a caller who never retries: the call is given up when its wait ends, and the server gets an error answer', { timeout: 5_000 }, async () => {
    const timer = manualTimer();
    const pending = new PendingCalls({ codec, schedule: timer.schedule, waitMs: 1_000 });
    const seen: { error?: Error } = {};
    const first = await pending.start(start(asking(pending, seen)));
    assert.equal(pending.size, 1);
    assert.equal(timer.timers[0]?.ms, 1_000);
    timer.fire();
    assert.equal(pending.size, 0);
    // The server's side sees the rejection on its next turn.
    await turn();
    assert.match(String(seen.error?.message), /did not retry within 1000 ms/);
    await assert.rejects(pending.resume(String(first.requestState), {}, SAMPLING, 'tools/call\0ask'), (error) => code(error) === -32602);
  });

  test('bounded in count, in all and per caller: a call past a bound is refused while the others wait', { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule, max: 3, maxPerCaller: 2 });
    await pending.start(start(asking(pending, {}, 'think', 'a'), { scope: 'a' }));
    await pending.start(start(asking(pending, {}, 'think', 'b'), { scope: 'b' }));
    await assert.rejects(pending.start(start(asking(pending, {}, 'think', 'c'), { scope: 'c' })), (error) => code(error) === -32603 && /this caller has 2 calls/.test((error as Error).message));
    await pending.start(start(asking(pending, {}, 'think', 'c'), { scope: 'c', caller: 'another host' }));
    await assert.rejects(pending.start(start(asking(pending, {}, 'think', 'd'), { scope: 'd', caller: 'a third host' })), (error) => code(error) === -32603 && /3 calls/.test((error as Error).message));
    pending.close();
    assert.equal(pending.size, 0);
  });

  test("a requestState for another tool, not the bridge's, or of another instance (or this one restarted) is refused, saying which", { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule });
    const first = await pending.start(start(asking(pending)));
    await assert.rejects(pending.resume(String(first.requestState), {}, SAMPLING, 'tools/call\0other'), (error) => code(error) === -32602);
    await assert.rejects(pending.resume(`${String(first.requestState)}x`, {}, SAMPLING, 'tools/call\0ask'), (error) => code(error) === -32602);
    // Another process with the same secret: the call is not there, and the host is told why.
    const restarted = new PendingCalls({ codec, schedule: manualTimer().schedule });
    await assert.rejects(restarted.resume(String(first.requestState), { think: reply('x') }, SAMPLING, 'tools/call\0ask'), (error) => code(error) === -32602 && /another bridge instance/.test((error as Error).message));
    pending.close();
  });

  test('a caller who gives up a retry gives the call up; a requestState is retried once at a time', { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule });
    const seen: { error?: Error } = {};
    const host = pending.host(SAMPLING);
    // A server that asks twice: the second question is left to the caller who then gives up.
    const twice = async (signal: AbortSignal): Promise<JsonObject> => {
      await host.sample!(question(), ctx('one', signal));
      try {
        await host.sample!(question(), { ...ctx('two', signal), round: 2 });
      } catch (error) {
        seen.error = error as Error;
        throw error;
      }
      return { content: [] };
    };
    const first = await pending.start(start(twice));
    const answer = { one: reply('x') };
    const cancel = new AbortController();
    const second = pending.resume(String(first.requestState), answer, SAMPLING, 'tools/call\0ask', { signal: cancel.signal });
    await assert.rejects(pending.resume(String(first.requestState), answer, SAMPLING, 'tools/call\0ask'), (error) => code(error) === -32602 && /already being retried/.test((error as Error).message));
    const asked = await second;
    assert.deepEqual(Object.keys(asked.inputRequests as JsonObject), ['two']);
    // Each round has its own requestState, and an earlier round's is refused once the call moved on.
    assert.notEqual(asked.requestState, first.requestState);
    await assert.rejects(pending.resume(String(first.requestState), answer, SAMPLING, 'tools/call\0ask'), (error) => code(error) === -32602);
    const third = pending.resume(String(asked.requestState), {}, SAMPLING, 'tools/call\0ask', { signal: cancel.signal });
    cancel.abort();
    await assert.rejects(third);
    assert.equal(pending.size, 0);
    assert.match(String(seen.error?.message), /gave up the call/);
  });

  test("a round's request that ends after its answer ends nothing: the call waits for the retry", { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule });
    const connection = new AbortController();
    const first = await pending.start(start(asking(pending)), { signal: connection.signal });
    // The host's connection closes once the round is answered (a keep-alive that ran out, an event stream that ended).
    connection.abort();
    const done = await pending.resume(String(first.requestState), { think: reply('still here') }, SAMPLING, 'tools/call\0ask');
    assert.match(JSON.stringify(done), /still here/);
  });

  test('the server asked for what the caller did not declare: -32021 naming it, and the server gets an error answer', { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule });
    // The back declares only elicitation: the client refuses a sampling request, and tells the host it was asked.
    const host = pending.host({ elicitation: {} });
    const work: Work = async (signal) => {
      host.askedUndeclared!({ method: 'sampling/createMessage', params: question() }, ctx('think', signal));
      throw new Error('the client refused sampling');
    };
    await assert.rejects(pending.start(start(work, { declared: { elicitation: {} } })), (error) => {
      assert.equal(code(error), -32021);
      assert.match((error as Error).message, /do not declare sampling/);
      assert.deepEqual((error as AnswerError).error.data, { requiredCapabilities: { sampling: {} } });
      return true;
    });
    assert.equal(pending.size, 0);
  });

  test('a call holds its back until it ends, however it ends: what the server pushes meanwhile is its own, and the back is released once', { timeout: 5_000 }, async () => {
    const released: string[] = [];
    const timer = manualTimer();
    const pending = new PendingCalls({ codec, schedule: timer.schedule });
    const one = await pending.start(start(asking(pending, {}, 'one', 'a'), { scope: 'a', released }));
    const two = await pending.start(start(asking(pending, {}, 'two', 'b'), { scope: 'b', released }));
    assert.match(JSON.stringify(one.inputRequests), /"one"/);
    assert.match(JSON.stringify(two.inputRequests), /"two"/);
    assert.deepEqual(released, []);
    await pending.resume(String(one.requestState), { think: reply('1') }, SAMPLING, 'tools/call\0ask');
    assert.deepEqual(released, ['a']);
    // The other's caller never comes back: its wait ends, and so does its hold on the back.
    timer.fire();
    assert.deepEqual(released, ['a', 'b']);
    pending.close();
    assert.deepEqual(released, ['a', 'b']);
  });

  test('a caller that gives up while its call waits for a back leaves no call behind', { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule });
    const leaves = new AbortController();
    // A lease that waits until the call gives up, as a back that is never free does.
    const waiting = pending.start({ ...start(async () => ({})), lease: (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))) }, { signal: leaves.signal });
    leaves.abort();
    await assert.rejects(waiting, /gave up/);
    assert.equal(pending.size, 0);
  });

  test('what the server asked while no call ran is the next call\'s first question, answered before that call is sent', { timeout: 5_000 }, async () => {
    const said: string[] = [];
    const timer = manualTimer();
    const pending = new PendingCalls({ codec, schedule: timer.schedule, warn: (text) => said.push(text) });
    const host = pending.host({ roots: {} });
    const told = host.roots!(ctx('roots', new AbortController().signal));
    let sent = false;
    const first = await pending.start(start(async () => ((sent = true), { content: [] }), { declared: { roots: {} } }));
    assert.equal(first.resultType, 'input_required');
    assert.deepEqual(Object.values(first.inputRequests as JsonObject), [{ method: 'roots/list', params: {} }]);
    assert.equal(sent, false, 'the call was sent before its host answered what the server asked first');
    assert.match(said.join('\n'), /asked for roots\/list while no call ran/);
    const done = await pending.resume(String(first.requestState), { roots: { roots: [{ uri: 'file:///x' }] } }, { roots: {} }, 'tools/call\0ask');
    assert.deepEqual(await told, { roots: [{ uri: 'file:///x' }] });
    assert.equal(sent, true);
    assert.deepEqual(done, { content: [] });
    // Asked again while no call runs, and no call comes: refused when the wait ends, and said.
    const unanswered = host.roots!(ctx('roots', new AbortController().signal));
    timer.fire();
    await assert.rejects(unanswered, /no call came/);
    assert.match(said.at(-1)!, /found no call/);
  });

  test('a question the server asks during a call that is then answered waits for the next call, not for nobody', { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule });
    const host = pending.host({ roots: {} }, 'a');
    let asked: Promise<unknown> | undefined;
    // The server asks on its own while the call runs, and answers the call without waiting for it.
    const done = await pending.start(start(async (signal) => ((asked = host.roots!(ctx('roots', signal))), { content: [] }), { declared: { roots: {} }, scope: 'a' }));
    assert.deepEqual(done, { content: [] });
    assert.equal(pending.asked('a'), true, 'the question was dropped with the call');
    const next = await pending.start(start(async () => ({ content: [{ type: 'text', text: 'second' }] }), { declared: { roots: {} }, scope: 'a' }));
    assert.deepEqual(Object.values(next.inputRequests as JsonObject), [{ method: 'roots/list', params: {} }]);
    await pending.resume(String(next.requestState), { roots: { roots: [{ uri: 'file:///y' }] } }, { roots: {} }, 'tools/call\0ask');
    assert.deepEqual(await asked, { roots: [{ uri: 'file:///y' }] });
  });

  test("the call's progress and log messages go to the round now running, under its token and at its level", { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule });
    const heard: JsonRpcNotification[] = [];
    const log = (level: string, data: string): JsonRpcNotification => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level, data } });
    const done = await pending.start(
      start(async (_signal, progress) => {
        progress({ progress: 1, total: 2 });
        pending.relay(log('debug', 'too quiet'), '');
        pending.relay(log('warning', 'heard'), '');
        return { content: [] };
      }, { logLevel: 'info' }),
      { notify: (n) => heard.push(n), progressToken: 'tok' },
    );
    assert.deepEqual(done, { content: [] });
    assert.deepEqual(heard.map((n) => n.params), [{ progress: 1, total: 2, progressToken: 'tok' }, { level: 'warning', data: 'heard' }]);
  });
});
