// The calls a 2026 host has left waiting in `byhand bridge` (pending-calls.ts), on an injected timer: a call whose
// caller never retries is given up and what the server asked is answered with an error; there are only so many at
// once; a requestState the bridge did not issue, for another call, or of an earlier round, is refused.

import assert from 'node:assert/strict';
import { describe, test } from './support/node-test.js';
import type { CreateMessageParams, InputContext, JsonObject } from '../packages/client/src/types.js';
import { PendingCalls } from '../packages/byhand/src/bridge/pending-calls.js';
import { AnswerError } from '../packages/byhand/src/bridge/json-rpc-peer.js';
import { createStateCodec } from '../packages/servers/src/edge/state-codec.js';

const codec = createStateCodec(new Uint8Array(32).fill(7), 600);
const SAMPLING = { sampling: {} };
const question: CreateMessageParams = { messages: [{ role: 'user', content: { type: 'text', text: 'think' } }], maxTokens: 10 };

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
    fire: () => timers.filter((t) => !t.cancelled).forEach((t) => t.run()),
  };
}

/** A server that asks for sampling once, then answers with what the host said (or with the error it got). */
function askingWork(pending: PendingCalls, seen: { error?: Error }) {
  const host = pending.host(SAMPLING);
  return async (signal: AbortSignal): Promise<JsonObject> => {
    const ctx: InputContext = { key: 'think', method: 'tools/call', name: 'ask', round: 1, era: 'legacy', signal };
    try {
      const answer = await host.sample!(question, ctx);
      return { content: [{ type: 'text', text: `answered: ${JSON.stringify(answer.content)}` }] };
    } catch (error) {
      seen.error = error as Error;
      throw error;
    }
  };
}

function code(error: unknown): number | undefined {
  return error instanceof AnswerError ? error.error.code : undefined;
}

describe('byhand bridge: calls waiting for a 2026 host', () => {
  test('asked, retried, answered: the handle carries the call across rounds', { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule });
    const first = await pending.start(SAMPLING, 'tools/call\0ask', askingWork(pending, {}));
    assert.equal(first.resultType, 'input_required');
    assert.deepEqual(Object.keys(first.inputRequests as JsonObject), ['think']);
    const done = await pending.resume(String(first.requestState), { think: { role: 'assistant', content: { type: 'text', text: 'blue' }, model: 'm' } }, SAMPLING, 'tools/call\0ask');
    assert.deepEqual(done, { content: [{ type: 'text', text: 'answered: {"type":"text","text":"blue"}' }] });
    assert.equal(pending.size, 0);
  });

  test('a caller who never retries: the call is given up when its wait ends, and the server gets an error answer', { timeout: 5_000 }, async () => {
    const timer = manualTimer();
    const pending = new PendingCalls({ codec, schedule: timer.schedule, waitMs: 1_000 });
    const seen: { error?: Error } = {};
    const first = await pending.start(SAMPLING, 'tools/call\0ask', askingWork(pending, seen));
    assert.equal(pending.size, 1);
    assert.equal(timer.timers[0]?.ms, 1_000);
    timer.fire();
    assert.equal(pending.size, 0);
    // The server's side sees the rejection on its next turn.
    await new Promise((resolve) => setImmediate(resolve));
    assert.match(String(seen.error?.message), /did not retry within 1000 ms/);
    await assert.rejects(pending.resume(String(first.requestState), {}, SAMPLING, 'tools/call\0ask'), (error) => code(error) === -32602);
  });

  test('bounded in count: a call past the bound is refused while the others wait', { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule, max: 2 });
    await pending.start(SAMPLING, 'tools/call\0ask', askingWork(pending, {}));
    await pending.start(SAMPLING, 'tools/call\0ask', askingWork(pending, {}));
    await assert.rejects(pending.start(SAMPLING, 'tools/call\0ask', askingWork(pending, {})), (error) => code(error) === -32603 && /2 calls/.test((error as Error).message));
    pending.close();
    assert.equal(pending.size, 0);
  });

  test('a requestState for another tool, or not the bridge\'s, is refused', { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule });
    const first = await pending.start(SAMPLING, 'tools/call\0ask', askingWork(pending, {}));
    await assert.rejects(pending.resume(String(first.requestState), {}, SAMPLING, 'tools/call\0other'), (error) => code(error) === -32602);
    await assert.rejects(pending.resume(`${String(first.requestState)}x`, {}, SAMPLING, 'tools/call\0ask'), (error) => code(error) === -32602);
    pending.close();
  });

  test('a caller who cancels its retry gives the call up; a requestState is retried once at a time', { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule });
    const seen: { error?: Error } = {};
    const host = pending.host(SAMPLING);
    // A server that asks twice: the second question is left to the caller who then cancels.
    const twice = async (signal: AbortSignal): Promise<JsonObject> => {
      const ctx: InputContext = { key: 'one', method: 'tools/call', name: 'ask', round: 1, era: 'legacy', signal };
      await host.sample!(question, ctx);
      try {
        await host.sample!(question, { ...ctx, key: 'two', round: 2 });
      } catch (error) {
        seen.error = error as Error;
        throw error;
      }
      return { content: [] };
    };
    const first = await pending.start(SAMPLING, 'tools/call\0ask', twice);
    const answer = { one: { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' } };
    const cancel = new AbortController();
    const second = pending.resume(String(first.requestState), answer, SAMPLING, 'tools/call\0ask', cancel.signal);
    await assert.rejects(pending.resume(String(first.requestState), answer, SAMPLING, 'tools/call\0ask'), (error) => code(error) === -32602 && /already being retried/.test((error as Error).message));
    const asked = await second;
    assert.deepEqual(Object.keys(asked.inputRequests as JsonObject), ['two']);
    // Each round has its own requestState, and an earlier round's is refused once the call moved on.
    assert.notEqual(asked.requestState, first.requestState);
    await assert.rejects(pending.resume(String(first.requestState), answer, SAMPLING, 'tools/call\0ask'), (error) => code(error) === -32602);
    const third = pending.resume(String(asked.requestState), {}, SAMPLING, 'tools/call\0ask', cancel.signal);
    cancel.abort();
    await assert.rejects(third);
    assert.equal(pending.size, 0);
    assert.match(String(seen.error?.message), /cancelled the call/);
  });

  test('the caller did not declare sampling: -32021 naming it, and the server gets an error answer', { timeout: 5_000 }, async () => {
    const pending = new PendingCalls({ codec, schedule: manualTimer().schedule });
    const seen: { error?: Error } = {};
    await assert.rejects(pending.start({ elicitation: {} }, 'tools/call\0ask', askingWork(pending, seen)), (error) => {
      assert.equal(code(error), -32021);
      assert.match((error as Error).message, /do not declare sampling/);
      assert.deepEqual((error as AnswerError).error.data, { requiredCapabilities: { sampling: {} } });
      return true;
    });
    assert.match(String(seen.error?.message), /did not declare sampling/);
    assert.equal(pending.size, 0);
  });
});
