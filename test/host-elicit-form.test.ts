// Elicitation at the terminal, driven through a stream pair: defaults, enums, re-asks, decline, cancel, URL consent.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { describe, it } from './support/node-test.js';
import type { ElicitParams, InputContext } from '../packages/client/src/types.ts';
import { createHost, FormSchemaError, NoAnswerError, type HostEvent } from '../packages/host/src/index.ts';

const ctx = (): InputContext => ({
  key: 'booking', method: 'tools/call', name: 'book_table', round: 1, era: 'modern', signal: new AbortController().signal,
});

/** Types the lines (all at once, as a pipe would deliver them) and answers the form. */
async function answer(params: ElicitParams, lines: string[] | null) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk) => (shown += chunk));
  const events: HostEvent[] = [];
  const host = createHost({ sampling: false, input, output, onEvent: (e) => events.push(e) });
  input.end(lines === null ? '' : lines.map((l) => `${l}\n`).join(''));
  const result = await host.elicit(params, ctx());
  return { result, shown, events };
}

const form = (properties: NonNullable<ElicitParams['requestedSchema']>['properties'], required: string[] = []): ElicitParams => ({
  message: 'Book a table',
  requestedSchema: { type: 'object', properties, required },
});

describe('elicitation form at the terminal', () => {
  it('applies defaults on Enter and leaves unanswered optional fields out', async () => {
    const { result, shown } = await answer(
      form({
        name: { type: 'string', title: 'Your name', default: 'Ada' },
        size: { type: 'integer', minimum: 1, maximum: 12, default: 2 },
        terrace: { type: 'boolean', default: true },
        seating: { type: 'string', enum: ['inside', 'outside'], default: 'outside' },
        extras: { type: 'array', items: { type: 'string', enum: ['cake', 'candles', 'flowers'] }, default: ['cake', 'flowers'] },
        note: { type: 'string' },
      }),
      ['', '', '', '', '', ''],
    );
    assert.deepEqual(result, {
      action: 'accept',
      content: { name: 'Ada', size: 2, terrace: true, seating: 'outside', extras: ['cake', 'flowers'] },
    });
    assert.match(shown, /The server asks for input \(tools\/call "book_table"\):\n {2}Book a table/);
    assert.match(shown, /Your name \[Ada\]: /);
    assert.match(shown, /size \[2\]: /);
    assert.match(shown, /terrace \[y\]: /);
    assert.match(shown, /seating \[2\) outside\]: /);
    assert.match(shown, /extras \[1,3\]: /);
    assert.match(shown, /note \(optional\) — text/);
  });

  it('offers enums as numbered choices in every spelling, and takes numbers, values or labels', async () => {
    const { result, shown } = await answer(
      form({
        colour: { type: 'string', enum: ['r', 'g', 'b'], enumNames: ['Red', 'Green', 'Blue'] },
        size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
        plain: { type: 'string', enum: ['north', 'south'] },
        toppings: { type: 'array', items: { anyOf: [{ const: 'ham', title: 'Ham' }, { const: 'egg', title: 'Egg' }, { const: 'kale', title: 'Kale' }] } },
        sides: { type: 'array', items: { type: 'string', enum: ['fries', 'salad', 'bread'] } },
      }),
      ['2', 'large', 'south', '3 1', 'salad, bread'],
    );
    assert.deepEqual(result, {
      action: 'accept',
      content: { colour: 'g', size: 'l', plain: 'south', toppings: ['kale', 'ham'], sides: ['salad', 'bread'] },
    });
    assert.match(shown, / {2}1\) Red\n {2}2\) Green\n {2}3\) Blue/);
    assert.match(shown, / {2}1\) Small\n {2}2\) Large/);
    assert.match(shown, /pick by number, e\.g\. 1,3/);
  });

  it('re-asks until the answer has the right type, range, length and format', async () => {
    const { result, shown } = await answer(
      form(
        {
          guests: { type: 'integer', minimum: 1, maximum: 8 },
          budget: { type: 'number', minimum: 0 },
          email: { type: 'string', format: 'email' },
          day: { type: 'string', format: 'date' },
          code: { type: 'string', minLength: 3, maxLength: 4 },
          ok: { type: 'boolean' },
          pick: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 2 },
        },
        ['guests'],
      ),
      ['many', '2.5', '9', '4', '12,50', '-1', '12.5', 'ada-at-example', 'ada@example.com', '2026-02-30', '2026-03-01', 'ab', 'abcde', 'abc', 'perhaps', 'n', '1', '1,4', '1,2'],
    );
    assert.deepEqual(result, {
      action: 'accept',
      content: { guests: 4, budget: 12.5, email: 'ada@example.com', day: '2026-03-01', code: 'abc', ok: false, pick: ['a', 'b'] },
    });
    for (const problem of [
      'guests: expected a number', 'guests: expected a whole number', 'guests: must be at most 8',
      'budget: expected a number', 'budget: must be at least 0', 'email: must be an email address',
      'day: must be a date as YYYY-MM-DD', 'code: needs at least 3 characters', 'code: takes at most 4 characters',
      'ok: answer y or n', 'pick: pick at least 2', 'pick: "4" is not a choice',
    ]) {
      assert.ok(shown.includes(`✗ ${problem}`), `shows "${problem}"`);
    }
  });

  it('the answers file the error shows has each value in its JSON type', async () => {
    const schema = form({
      guests: { type: 'integer', minimum: 1 },
      budget: { type: 'number' },
      vegan: { type: 'boolean' },
      size: { type: 'string', enum: ['S', 'M'] },
      sides: { type: 'array', items: { type: 'string', enum: ['rice', 'salad'] } },
      note: { type: 'string' },
    });
    const error = await answer(schema, null).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof NoAnswerError, String(error));
    const example = JSON.parse(/a JSON object such as (\{.*?\}\}) \(/.exec(error.message)?.[1] ?? 'null') as unknown;
    assert.deepEqual(example, { booking: { guests: 1, budget: 0, vegan: false, size: 'S', sides: ['rice'], note: '<text>' } });
  });

  it('insists on a required field', async () => {
    const { result, shown } = await answer(form({ name: { type: 'string' } }, ['name']), ['', '  ', 'Grace']);
    assert.deepEqual(result, { action: 'accept', content: { name: 'Grace' } });
    assert.equal(shown.split('✗ name is required; type a value, or :decline / :cancel').length - 1, 2, 'a blank line is no answer either');
  });

  it('declines with :decline and cancels with :cancel; piped input that runs out is an error naming --answers', async () => {
    const schema = form({ a: { type: 'string' }, b: { type: 'string' } }, ['a', 'b']);
    assert.deepEqual((await answer(schema, ['x', ':decline'])).result, { action: 'decline' });
    assert.deepEqual((await answer(schema, [':cancel'])).result, { action: 'cancel' });
    const noAnswer = (error: unknown) =>
      error instanceof NoAnswerError &&
      /stdin is not a terminal and has no answer for it/.test(error.message) &&
      /`answersFile`, a JSON object such as \{"booking":\{"a":"<text>","b":"<text>"\}\}/.test(error.message);
    await assert.rejects(answer(schema, ['x']), noAnswer, 'end of piped input mid-form is no answer, not a cancel');
    await assert.rejects(answer(schema, null), noAnswer);
  });

  it('flags secret fields by name, title, description or format, reads them unechoed and masks them', async () => {
    const { result, shown, events } = await answer(
      form({
        nickname: { type: 'string', title: 'Public nickname' },
        shipping: { type: 'string', description: 'pinned to your profile' },
        card_pin: { type: 'string' },
        key: { type: 'string', title: 'API key' },
        word: { type: 'string', format: 'password' },
        // A description that only mentions a PIN is no secret, and its default is shown; one that asks for a password is.
        colour: { type: 'string', description: 'printed next to your PIN on the card', default: 'teal' },
        login: { type: 'string', description: 'your account password' },
      }),
      ['zed', 'fast', '4321', 'sk-abc', 'hunter2', '', 'letmein'],
    );
    assert.deepEqual(result, { action: 'accept', content: { nickname: 'zed', shipping: 'fast', card_pin: '4321', key: 'sk-abc', word: 'hunter2', colour: 'teal', login: 'letmein' } });
    assert.equal(shown.split('! this looks like a secret').length - 1, 4, 'card_pin, API key, format password and the password described; not nickname, shipping or colour');
    assert.match(shown, /teal/);
    for (const secret of ['4321', 'sk-abc', 'hunter2', 'letmein']) assert.ok(!shown.includes(secret), `${secret} is not shown`);
    assert.match(shown, /Sending: \{"nickname":"zed","shipping":"fast","card_pin":"\*\*\*","key":"\*\*\*","word":"\*\*\*","colour":"teal","login":"\*\*\*"\}/);
    const done = events[1] as Extract<HostEvent, { type: 'elicitation-result' }>;
    assert.deepEqual(done.result.content, { nickname: 'zed', shipping: 'fast', card_pin: '***', key: '***', word: '***', colour: 'teal', login: '***' });
  });

  it('reports the request and the result as events', async () => {
    const { events } = await answer(form({ a: { type: 'string' } }), ['hi']);
    assert.deepEqual(events.map((e) => e.type), ['elicitation-request', 'elicitation-result']);
    assert.deepEqual(events[1], { type: 'elicitation-result', ctx: events[1].ctx, source: 'piped', result: { action: 'accept', content: { a: 'hi' } } });
  });

  it('prints server text with control characters made visible', async () => {
    const { shown } = await answer({ ...form({ a: { type: 'string', title: 'A\u001b[2J' } }), message: 'Hi\u001b[31m there' }, ['x']);
    assert.ok(!shown.includes('\u001b'));
    assert.match(shown, /Hi\\u001b\[31m there/);
  });

  it('stops waiting for an answer when the request is aborted', async () => {
    const controller = new AbortController();
    const host = createHost({ sampling: false, input: new PassThrough(), output: new PassThrough() });
    const pending = host.elicit(form({ a: { type: 'string' } }), { ...ctx(), signal: controller.signal });
    setTimeout(() => controller.abort(new Error('the call was cancelled')), 20);
    await assert.rejects(pending, /the call was cancelled/);
  });

  it('refuses a schema that is not an elicitation form', async () => {
    await assert.rejects(answer(form({ nested: { type: 'object', properties: {} } }), []), FormSchemaError);
  });
});

describe('URL mode', () => {
  it('shows the whole URL and its host, asks for consent, and never fetches it', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits += 1;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/start?state=abc123`;
    try {
      const params: ElicitParams = { mode: 'url', message: 'Sign in to continue', url };
      const accepted = await answer(params, ['maybe', 'a']);
      assert.deepEqual(accepted.result, { action: 'accept' });
      assert.ok(accepted.shown.includes(`URL:  ${url}`));
      assert.match(accepted.shown, /Host: 127\.0\.0\.1:\d+/);
      assert.match(accepted.shown, /! it uses http:, not https:/);
      assert.match(accepted.shown, /byhand will not open or fetch it/);
      assert.match(accepted.shown, /✗ type a, d or c/);
      assert.deepEqual((await answer(params, ['decline'])).result, { action: 'decline' });
      await assert.rejects(answer(params, null), (e: Error) => e instanceof NoAnswerError && /\{"booking":\{"\$action":"accept"\}\}/.test(e.message));
      assert.equal(hits, 0, 'the URL was never requested');
    } finally {
      server.close();
    }
  });

  it('warns about credentials placed before the host', async () => {
    const { shown } = await answer({ mode: 'url', message: 'Go', url: 'https://bank.example@evil.example/login' }, ['d']);
    assert.match(shown, /Host: evil\.example/);
    assert.match(shown, /carries a user name or password before the host/);
  });
});
