// byhand's own client against every toolbox, in both eras, over real loopback HTTP, with a scripted
// host: the counts the checkpoint promises, every MRTR flow to completion, and the legacy refusal.

import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { connect, type Host, type InputContext } from '../packages/client/src/index.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { TOOLBOXES } from '../packages/servers/src/toolboxes/registry.js';
import { textOf } from './servers-support.js';

let server: RunningServer;
before(async () => {
  server = await startServer({ port: 0, toolboxes: ['kitchen', 'cookie-jar', 'probe', 'week'] });
});
after(() => server.close());

function scriptedHost(): Host & { asked: { kind: string; ctx: InputContext }[] } {
  const asked: { kind: string; ctx: InputContext }[] = [];
  return {
    asked,
    sample: async (params, ctx) => {
      asked.push({ kind: 'sample', ctx });
      assert.ok(params.maxTokens > 0 && params.maxTokens <= 4096, 'the toolbox bounds maxTokens');
      return { role: 'assistant', content: { type: 'text', text: `thought about ${ctx.name}` }, model: 'scripted', stopReason: 'endTurn' };
    },
    elicit: async (params, ctx) => {
      asked.push({ kind: 'elicit', ctx });
      const fields = Object.keys(params.requestedSchema?.properties ?? {});
      if (fields.includes('people')) return { action: 'accept', content: { people: 3, avoid: 'nuts' } };
      return { action: 'accept', content: Object.fromEntries(fields.map((f) => [f, true])) };
    },
    roots: async () => ({ roots: [{ uri: 'file:///work' }] }),
  };
}

for (const era of ['modern', 'legacy'] as const) {
  describe(`byhand's client, ${era} era`, () => {

    for (const toolbox of TOOLBOXES.filter((t) => t.counts && t.name !== 'everything')) {
      test(`${toolbox.title}: the promised counts`, async (t) => {
        const client = await connect(server.urls[toolbox.name], { era, host: scriptedHost() });
        t.after(() => client.close());
        assert.equal(client.era, era);
        const counts = {
          tools: (await client.listTools()).length,
          resources: 'resources' in client.serverCapabilities ? (await client.listResources()).length : 0,
          prompts: 'prompts' in client.serverCapabilities ? (await client.listPrompts()).length : 0,
        };
        assert.deepEqual(counts, toolbox.counts);
      });
    }

    test('the Kitchen: summarise_week samples, suggest_dinner elicits then samples', async (t) => {
      const host = scriptedHost();
      const client = await connect(server.urls.kitchen, { era, host });
      t.after(() => client.close());
      const summary = await client.callTool('summarise_week', { depth: 'brief' });
      assert.equal(summary.isError, undefined, JSON.stringify(summary));
      assert.match(textOf(summary), /thought about summarise_week/);
      const dinner = await client.callTool('suggest_dinner', {});
      assert.equal(dinner.isError, undefined, JSON.stringify(dinner));
      assert.deepEqual(host.asked.map((a) => `${a.kind}:${a.ctx.era}`), [`sample:${era}`, `elicit:${era}`, `sample:${era}`]);
      assert.match(JSON.stringify(await client.readResource('kitchen://pantry')), /contents/);
    });

    test('the Cookie Jar: put, list, and forget after the user confirms', async (t) => {
      const client = await connect(server.urls['cookie-jar'], { era, host: scriptedHost() });
      t.after(() => client.close());
      const put = await client.callTool('put_note', { text: `remember the ${era} era`, ttl_seconds: 60 });
      assert.equal(put.isError, undefined, JSON.stringify(put));
      const listed = JSON.stringify(await client.callTool('list_notes', {}));
      assert.match(listed, new RegExp(`remember the ${era} era`));
      const id = Number(/"id":\s*(\d+)/.exec(JSON.stringify(put.structuredContent ?? put.content))?.[1] ?? /#?(\d+)/.exec(textOf(put))?.[1]);
      assert.ok(id > 0, 'put_note names the note it made');
      const forgot = await client.callTool('forget_note', { id });
      assert.equal(forgot.isError, undefined, JSON.stringify(forgot));
      assert.doesNotMatch(JSON.stringify(await client.callTool('list_notes', {})), new RegExp(`remember the ${era} era`));
    });

    test('the Probe: sampling works in the modern era, and is refused per request in the legacy one', async (t) => {
      const client = await connect(server.urls.probe, { era, host: scriptedHost() });
      t.after(() => client.close());
      const result = await client.callTool('probe_sampling', { topic: 'soup' });
      if (era === 'modern') {
        assert.equal(result.isError, undefined, JSON.stringify(result));
        assert.match(textOf(result), /thought about probe_sampling/);
      } else {
        assert.equal(result.isError, true);
        assert.match(textOf(result), /per-request legacy serving cannot receive server-to-client requests/);
      }
    });
  });
}
