import assert from 'node:assert/strict';
import { after, before, describe, test } from './support/node-test.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { MAX_SAMPLING_TOKENS } from '../packages/servers/src/edge/mrtr.js';
import { connectHost, modernRpc, textOf } from './servers-support.js';

let server: RunningServer;
let url: string;

before(async () => {
  server = await startServer({ port: 0, toolboxes: ['kitchen'] });
  url = server.urls.kitchen!;
});
after(() => server.close());

for (const era of ['modern', 'legacy'] as const) {
  describe(`The Kitchen, ${era} era`, () => {
    test('identifies itself and offers exactly 2 tools, 2 resources, 1 prompt', async () => {
      const host = await connectHost(url, { era });
      try {
        assert.equal(host.client.getProtocolEra(), era);
        const info = host.client.getServerVersion();
        assert.equal(info?.title, 'The Kitchen');
        assert.equal(info?.description, 'asks you to think');
        const tools = (await host.client.listTools()).tools.map((t) => t.name).sort();
        assert.deepEqual(tools, ['suggest_dinner', 'summarise_week']);
        const resources = (await host.client.listResources()).resources.map((r) => r.uri).sort();
        assert.deepEqual(resources, ['kitchen://pantry', 'kitchen://week']);
        const prompts = (await host.client.listPrompts()).prompts;
        assert.deepEqual(prompts.map((p) => p.name), ['plan_meals']);
        assert.ok(prompts[0].arguments?.some((a) => a.name === 'days' && a.required === true));
      } finally {
        await host.close();
      }
    });

    test('serves the pantry and the week as JSON, and the meal-planning prompt', async () => {
      const host = await connectHost(url, { era });
      try {
        const pantry = await host.client.readResource({ uri: 'kitchen://pantry' });
        const items = JSON.parse((pantry.contents[0] as { text: string }).text) as Array<{ item: string }>;
        assert.ok(items.some((i) => i.item === 'red lentils'));
        assert.equal(pantry.contents[0].mimeType, 'application/json');
        const week = await host.client.readResource({ uri: 'kitchen://week' });
        const meals = JSON.parse((week.contents[0] as { text: string }).text) as unknown[];
        assert.equal(meals.length, 7);
        const prompt = await host.client.getPrompt({ name: 'plan_meals', arguments: { days: '3', diet: 'vegetarian' } });
        const said = JSON.stringify(prompt.messages);
        assert.match(said, /Plan 3 day\(s\) of dinners/);
        assert.match(said, /vegetarian/);
        assert.match(said, /kitchen:\/\/pantry/);
      } finally {
        await host.close();
      }
    });

    for (const depth of ['brief', 'full'] as const) {
      test(`summarise_week (${depth}) asks the host to think, with bounded maxTokens, and returns its answer`, async () => {
        const host = await connectHost(url, { era, think: (p) => `summary of ${p.includes('Pantry') ? 'meals and pantry' : 'meals'}` });
        try {
          const result = await host.client.callTool({ name: 'summarise_week', arguments: { depth } });
          assert.equal(result.isError, undefined);
          assert.equal(textOf(result), depth === 'full' ? 'summary of meals and pantry' : 'summary of meals');
          assert.equal(host.sampling.length, 1);
          const asked = host.sampling[0];
          assert.ok(asked.maxTokens > 0 && asked.maxTokens <= MAX_SAMPLING_TOKENS, `maxTokens ${asked.maxTokens}`);
          assert.match(JSON.stringify(asked.messages), /shakshuka/);
          assert.equal(host.elicitations.length, 0);
        } finally {
          await host.close();
        }
      });
    }

    test('suggest_dinner asks the user, then asks the host with the answers carried across rounds', async () => {
      const host = await connectHost(url, {
        era,
        elicit: () => ({ action: 'accept', content: { people: 5, avoid: 'mushrooms' } }),
        think: (p) => (p.includes('5 people') && p.includes('mushrooms') ? 'chickpea curry for five' : `wrong prompt: ${p}`),
      });
      try {
        const result = await host.client.callTool({ name: 'suggest_dinner', arguments: {} });
        assert.equal(textOf(result), 'chickpea curry for five');
        assert.deepEqual(result.structuredContent, { people: 5, avoid: 'mushrooms', suggestion: 'chickpea curry for five' });
        assert.equal(host.elicitations.length, 1);
        assert.match(host.elicitations[0].message, /How many people/);
        assert.equal(host.sampling.length, 1);
        assert.ok(host.sampling[0].maxTokens <= MAX_SAMPLING_TOKENS);
      } finally {
        await host.close();
      }
    });

    for (const action of ['decline', 'cancel'] as const) {
      test(`suggest_dinner: a ${action} ends the tool with a clear message and is not asked again`, async () => {
        const host = await connectHost(url, { era, elicit: () => ({ action }) });
        try {
          const result = await host.client.callTool({ name: 'suggest_dinner', arguments: {} });
          assert.match(textOf(result), new RegExp(`No dinner suggested: you chose to ${action}`));
          assert.equal(host.elicitations.length, 1, 'asked exactly once');
          assert.equal(host.sampling.length, 0, 'the model was never asked');
        } finally {
          await host.close();
        }
      });
    }

    test('suggest_dinner re-asks when the answer does not fit the schema', async () => {
      let round = 0;
      const host = await connectHost(url, {
        era,
        elicit: () => (++round === 1 ? { action: 'accept', content: { people: 99 } } : { action: 'accept', content: { people: 2 } }),
        think: () => 'omelette for two',
      });
      try {
        const result = await host.client.callTool({ name: 'suggest_dinner', arguments: {} });
        assert.equal(textOf(result), 'omelette for two');
        assert.equal(host.elicitations.length, 2);
        assert.match(host.elicitations[1].message, /did not fit/);
      } finally {
        await host.close();
      }
    });
  });
}

describe('The Kitchen on the wire (modern)', () => {
  test('round 1 of summarise_week is input_required with a sampling/createMessage request', async () => {
    const answer = await modernRpc(url, 'tools/call', { name: 'summarise_week', arguments: { depth: 'brief' } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body?.result?.resultType, 'input_required');
    const request = answer.body?.result?.inputRequests?.summary;
    assert.equal(request?.method, 'sampling/createMessage');
    assert.ok(request.params.maxTokens <= MAX_SAMPLING_TOKENS);
  });

  test('a sampling answer in the background-document wrapper shape is not read; the server asks again', async () => {
    const answer = await modernRpc(url, 'tools/call', {
      name: 'summarise_week',
      arguments: { depth: 'brief' },
      inputResponses: { summary: { kind: 'sampling', result: { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' } } },
    });
    assert.equal(answer.body?.result?.resultType, 'input_required');
  });

  test('resources carry ttlMs and cacheScope', async () => {
    const answer = await modernRpc(url, 'resources/read', { uri: 'kitchen://pantry' });
    assert.equal(answer.body?.result?.ttlMs, 60_000);
    assert.equal(answer.body?.result?.cacheScope, 'public');
  });
});
