// --answers FILE for forms without a terminal, --root for roots, and what createHost declares.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, it } from './support/node-test.js';
import { pathToFileURL } from 'node:url';
import type { ElicitParams, InputContext } from '../packages/client/src/types.ts';
import { answerFromFile, loadAnswers } from '../packages/host/src/answers-file.ts';
import { AnswersFileError, createHost, RootError, type HostEvent } from '../packages/host/src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'byhand-host-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const ctx = (key = 'booking'): InputContext => ({
  key, method: 'tools/call', name: 'book_table', round: 2, era: 'legacy', signal: new AbortController().signal,
});
const answersFile = (data: unknown, name = 'answers.json') => {
  const path = join(dir, name);
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
  return path;
};
const booking: ElicitParams = {
  message: 'Book a table',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 2 },
      size: { type: 'integer', minimum: 1, maximum: 12 },
      seating: { type: 'string', oneOf: [{ const: 'in', title: 'Inside' }, { const: 'out', title: 'Terrace' }], default: 'in' },
      extras: { type: 'array', items: { type: 'string', enum: ['cake', 'candles'] } },
      note: { type: 'string' },
    },
    required: ['name', 'size'],
  },
};
const hostWith = (data: unknown, events: HostEvent[] = []) =>
  createHost({ sampling: false, answersFile: answersFile(data), output: new PassThrough(), input: new PassThrough(), onEvent: (e) => events.push(e) });

describe('--answers FILE', () => {
  it('answers by field name, applies defaults, and never reads the terminal', async () => {
    const events: HostEvent[] = [];
    const host = hostWith({ name: 'Ada', size: 4, extras: ['cake'] }, events);
    assert.deepEqual(await host.elicit(booking, ctx()), { action: 'accept', content: { name: 'Ada', size: 4, seating: 'in', extras: ['cake'] } });
    assert.equal((events[1] as Extract<HostEvent, { type: 'elicitation-result' }>).source, 'answers-file');
  });

  it('lets answers keyed by the input request key win over the top-level ones', async () => {
    const host = hostWith({ name: 'Ada', size: 4, booking: { size: 6, seating: 'out' } });
    assert.deepEqual(await host.elicit(booking, ctx('booking')), { action: 'accept', content: { name: 'Ada', size: 6, seating: 'out' } });
    assert.deepEqual(await host.elicit(booking, ctx('other')), { action: 'accept', content: { name: 'Ada', size: 4, seating: 'in' } });
  });

  it('declines or cancels when $action says so', async () => {
    const host = hostWith({ $action: 'decline', booking: { $action: 'cancel' } });
    assert.deepEqual(await host.elicit(booking, ctx('other')), { action: 'decline' });
    assert.deepEqual(await host.elicit(booking, ctx('booking')), { action: 'cancel' });
  });

  it('is a clear error when a required field is missing', async () => {
    const host = hostWith({ name: 'Ada' });
    await assert.rejects(
      host.elicit(booking, ctx()),
      (e: Error) => e instanceof AnswersFileError && /does not answer the required field "size" \(a whole number from 1 to 12\) of the form "booking"/.test(e.message),
    );
  });

  it('checks values the way typed answers are checked', async () => {
    await assert.rejects(hostWith({ name: 'A', size: 4 }).elicit(booking, ctx()), /"name" for the form "booking" needs at least 2 characters/);
    await assert.rejects(hostWith({ name: 'Ada', size: '4' }).elicit(booking, ctx()), /"size" .* expected a number \(got "4"\)/);
    await assert.rejects(hostWith({ name: 'Ada', size: 4, seating: 'Terrace' }).elicit(booking, ctx()), /expected one of "in", "out"/);
    await assert.rejects(hostWith({ name: 'Ada', size: 4, extras: ['cake', 'fireworks'] }).elicit(booking, ctx()), /"fireworks" is not one of the choices/);
    await assert.rejects(hostWith({ $action: 'maybe' }).elicit(booking, ctx()), /must be accept, decline or cancel/);
  });

  it('declines URL mode unless consent is given for that request', async () => {
    const login: ElicitParams = { mode: 'url', message: 'Sign in', url: 'https://auth.example/start' };
    const output = new PassThrough();
    let shown = '';
    output.on('data', (c) => (shown += c));
    const host = createHost({ sampling: false, answersFile: answersFile({ login: { $action: 'accept' } }), output, input: new PassThrough() });
    assert.deepEqual(await host.elicit(login, ctx('elsewhere')), { action: 'decline' });
    assert.deepEqual(await host.elicit(login, ctx('login')), { action: 'accept' });
    assert.match(shown, /URL: {2}https:\/\/auth\.example\/start/);
  });

  it('fails at createHost when the file is missing or not a JSON object', () => {
    assert.throws(() => createHost({ sampling: false, answersFile: join(dir, 'nope.json') }), (e: Error) => e instanceof AnswersFileError && /cannot read/.test(e.message));
    assert.throws(() => createHost({ sampling: false, answersFile: answersFile('{"name": ', 'bad.json') }), /is not JSON/);
    assert.throws(() => createHost({ sampling: false, answersFile: answersFile('[1]', 'list.json') }), /must hold one JSON object/);
  });
});

describe('roots', () => {
  it('lists the working directory as a file:// root by default', async () => {
    const events: HostEvent[] = [];
    const host = createHost({ sampling: false, cwd: dir, onEvent: (e) => events.push(e) });
    assert.deepEqual(await host.roots(ctx()), { roots: [{ uri: pathToFileURL(dir).href, name: basename(dir) }] });
    assert.deepEqual(events.map((e) => e.type), ['roots-listed']);
  });

  it('roots asked while a form waits are given at once and told once the form is answered, not inside its prompt', { timeout: 10_000 }, async () => {
    const events: HostEvent[] = [];
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    // As byhand's narration does: events are told on the stream the form is drawn on.
    const host = createHost({ sampling: false, cwd: dir, input, output, onEvent: (e) => {
      events.push(e);
      if (e.type === 'roots-listed') output.write('the host gave the roots\n');
    } });
    const form = host.elicit({ message: 'How many?', requestedSchema: { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'] } }, ctx());
    for (let i = 0; i < 50 && !shown.includes('size'); i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal((await host.roots(ctx('roots'))).roots.length, 1, 'the server has its roots while the form is open');
    assert.deepEqual(events.map((e) => e.type), ['elicitation-request']);
    input.write('3\n');
    assert.deepEqual(await form, { action: 'accept', content: { size: 3 } });
    for (let i = 0; i < 50 && events.length < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events.map((e) => e.type), ['elicitation-request', 'elicitation-result', 'roots-listed']);
    assert.match(shown, /\nthe host gave the roots\n$/, 'the announcement starts a line of its own');
  });

  it('lists each --root, relative ones from the working directory', async () => {
    mkdirSync(join(dir, 'my project'), { recursive: true });
    mkdirSync(join(dir, 'docs'), { recursive: true });
    const host = createHost({ sampling: false, cwd: dir, roots: ['my project', join(dir, 'docs'), '/'] });
    const { roots } = await host.roots(ctx());
    assert.deepEqual(roots, [
      { uri: pathToFileURL(join(dir, 'my project')).href, name: 'my project' },
      { uri: pathToFileURL(join(dir, 'docs')).href, name: 'docs' },
      { uri: 'file:///', name: '/' },
    ]);
    assert.match(roots[0].uri, /^file:\/\/\/.*my%20project$/);
  });

  it('refuses a --root that is not a directory', () => {
    writeFileSync(join(dir, 'file.txt'), 'x');
    assert.throws(() => createHost({ sampling: false, cwd: dir, roots: ['missing'] }), (e: Error) => e instanceof RootError && /`roots` missing/.test(e.message));
    assert.throws(() => createHost({ sampling: false, cwd: dir, roots: ['file.txt'] }), RootError);
  });
});

describe('createHost', () => {
  it('declares exactly what it fulfils', () => {
    const plain = createHost({ env: {} });
    assert.deepEqual(plain.capabilities, { elicitation: { form: {}, url: {} }, roots: {}, sampling: {} });
    assert.deepEqual(plain.elicitationModes, ['form', 'url']);
    assert.equal(plain.provider?.name, 'offline');
    assert.equal(typeof plain.sample, 'function');

    const noSampling = createHost({ sampling: false });
    assert.equal(noSampling.sample, undefined);
    assert.equal(noSampling.capabilities.sampling, undefined);

    assert.deepEqual(createHost({ env: {}, samplingTools: true }).capabilities.sampling, { tools: {} });
  });

  it('chooses the provider from the env it is given, not from process.env', () => {
    assert.equal(createHost({ env: { ANTHROPIC_API_KEY: 'k' } }).provider?.name, 'anthropic');
    assert.throws(() => createHost({ env: { BYHAND_PROVIDER: 'anthropic' } }), /needs ANTHROPIC_API_KEY/);
  });
});

describe('answers file and secrets', () => {
  it('does not print a secret field\'s value when it does not fit', { timeout: 5000 }, () => {
    const path = join(dir, 'secret-answers.json');
    writeFileSync(path, JSON.stringify({ pin: 'hunter2' }));
    const params = { message: 'PIN?', requestedSchema: { type: 'object' as const, properties: { pin: { type: 'string', title: 'PIN', maxLength: 4 } }, required: ['pin'] } };
    assert.throws(() => answerFromFile(loadAnswers(path), params, { key: 'card' }), (e: Error) => /takes at most 4 characters \(got \*\*\*\)/.test(e.message) && !e.message.includes('hunter2'));
  });
});
