// The connection contract: what a caller of the client gets whichever era the server speaks, written once and run by
// each era's own test file (test/connection-modern, test/connection-legacy) against the SDK fixture server
// (fixtures/sdk-server.ts), whose tools ask for input the same way in both eras: the SDK turns an input_required into
// a request pushed down the session for a 2025 client. Where the eras differ, the case reads client.traits.

import assert from 'node:assert/strict';
import { describe, test } from './node-test.js';
import { AbortedError, RpcError, type Client, type ElicitResult, type Host, type InputContext } from '../../packages/client/src/index.js';
import { textOf } from '../servers-support.js';

/** A host that answers every ask the same way in both eras, and records each with its context. */
export function answeringHost(): Host & { asked: { kind: string; ctx: InputContext }[] } {
  const asked: { kind: string; ctx: InputContext }[] = [];
  return {
    asked,
    sample: async (_params, ctx) => (asked.push({ kind: 'sample', ctx }), { role: 'assistant' as const, content: { type: 'text' as const, text: 'bread' }, model: 'test-model' }),
    elicit: async (params, ctx): Promise<ElicitResult> => {
      asked.push({ kind: 'elicit', ctx });
      return { action: 'accept', content: 'ok' in (params.requestedSchema?.properties ?? {}) ? { ok: true } : { name: 'Ada' } };
    },
    roots: async (ctx) => (asked.push({ kind: 'roots', ctx }), { roots: [{ uri: 'file:///work', name: 'work' }] }),
  };
}

export interface ConnectionSubject {
  /** The era the subject's server is found to speak. */
  era: 'modern' | 'legacy';
  /** A client connected to a fresh fixture server with `host`; closing the client stops what it started. */
  connect(host: Host): Promise<{ client: Client; stop(): Promise<void> }>;
}

export function connectionContract(name: string, subject: ConnectionSubject): void {
  describe(`the connection contract: ${name}`, () => {
    const connected = async (t: { after(fn: () => Promise<void>): void }, host: Host = answeringHost()) => {
      const { client, stop } = await subject.connect(host);
      t.after(async () => {
        await client.close();
        await stop();
      });
      return client;
    };

    test('knows who the server is and what it can do, and says how it asks', { timeout: 30_000 }, async (t) => {
      const client = await connected(t);
      assert.equal(client.era, subject.era);
      assert.equal(client.serverInfo?.name, 'sdk-fixture');
      assert.deepEqual(Object.keys(client.serverCapabilities).filter((c) => ['tools', 'resources', 'prompts'].includes(c)).sort(), ['prompts', 'resources', 'tools']);
      // A server asks in one way or the other, never both.
      assert.equal(client.traits.inputRounds, !client.traits.pushes);
    });

    test('lists what the server offers', { timeout: 30_000 }, async (t) => {
      const client = await connected(t);
      assert.deepEqual((await client.listTools()).map((tool) => tool.name).sort(), ['ask_name', 'echo', 'regional', 'state_only', 'think', 'three_rounds', 'two_inputs']);
      assert.deepEqual((await client.listResources()).map((r) => r.uri).sort(), ['fixture://plain', 'fixture://secret']);
      assert.deepEqual((await client.listPrompts()).map((p) => p.name), ['muse']);
    });

    test('calls a tool', { timeout: 30_000 }, async (t) => {
      const client = await connected(t);
      assert.equal(textOf(await client.callTool('echo', { text: 'rye' })), 'echo: rye');
    });

    test('a tool that asks the host to think: the host is asked once, in the era the client speaks, and the tool gets the answer', { timeout: 30_000 }, async (t) => {
      const host = answeringHost();
      const client = await connected(t, host);
      assert.equal(textOf(await client.callTool('think', { topic: 'rye' })), 'model said: bread (state topic=rye)');
      assert.deepEqual(host.asked.map((a) => [a.kind, a.ctx.era, a.ctx.method, a.ctx.name]), [['sample', subject.era, 'tools/call', 'think']]);
    });

    test('a form and the roots asked together, each answered once', { timeout: 30_000 }, async (t) => {
      const host = answeringHost();
      const client = await connected(t, host);
      assert.equal(textOf(await client.callTool('two_inputs')), 'Ada works in file:///work');
      assert.deepEqual(host.asked.map((a) => a.kind).sort(), ['elicit', 'roots']);
    });

    test('a resource and a prompt that ask for input first', { timeout: 30_000 }, async (t) => {
      const client = await connected(t);
      assert.equal((await client.readResource('fixture://secret')).contents[0].text, 'the secret is bread');
      assert.deepEqual((await client.getPrompt('muse', { subject: 'rye' })).messages[0].content, { type: 'text', text: 'Write about rye: bread' });
    });

    test('a tool the server does not have is an error the caller can read', { timeout: 30_000 }, async (t) => {
      const client = await connected(t);
      const outcome = await client.callTool('no_such_tool').then((result) => result, (error: unknown) => error);
      if (outcome instanceof RpcError) assert.match(outcome.message, /no_such_tool|not found/i);
      else assert.equal((outcome as { isError?: boolean }).isError, true, JSON.stringify(outcome));
    });

    test('a call its caller gives up while the host is asked ends with an AbortedError, however long the host would take', { timeout: 30_000 }, async (t) => {
      const caller = new AbortController();
      let asked!: () => void;
      const askedOnce = new Promise<void>((resolve) => (asked = resolve));
      // A person who never answers: the host honours no signal, so only the client can end the call.
      const client = await connected(t, { sample: () => (asked(), new Promise(() => undefined)) });
      const call = client.callTool('think', { topic: 'rye' }, { signal: caller.signal });
      await askedOnce;
      caller.abort();
      await assert.rejects(call, (e: unknown) => e instanceof AbortedError && /tools\/call was cancelled/.test(e.message));
    });
  });
}
