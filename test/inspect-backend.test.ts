// byhand inspect's backend without a browser: the policy a view is rendered under (csp.ts), the bounded event log, a
// question withdrawn when its call is given up, and a history entry exported as a byhand call line or curl.

import assert from 'node:assert/strict';
import { HostError, type Client } from '../packages/client/src/index.js';
import { describe, test } from './support/node-test.js';
import { viewPolicy } from '../packages/byhand/src/inspect/csp.js';
import { EventLog } from '../packages/byhand/src/inspect/events.js';
import { Questions } from '../packages/byhand/src/inspect/questions.js';
import { callLine, curlLine } from '../packages/byhand/src/inspect/exports.js';
import type { HistoryEntry } from '../packages/byhand/src/inspect/session.js';

const DEFAULT = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; media-src 'self' data:; connect-src 'none'; frame-src 'none'; base-uri 'self'; object-src 'none'; worker-src 'none'; form-action 'none'";

describe('the policy a view is rendered under', () => {
  test('nothing declared: the restrictive default, no permission', () => {
    for (const ui of [undefined, {}, { csp: {} }]) {
      const policy = viewPolicy(ui);
      assert.equal(policy.csp, DEFAULT);
      assert.equal(policy.allow, '');
      assert.deepEqual(policy.refused, []);
    }
  });

  test('each declared domain in its own directives, and only there', () => {
    const policy = viewPolicy({ csp: { connectDomains: ['https://api.example.com', 'wss://live.example.com'], resourceDomains: ['https://*.cdn.example'], frameDomains: ['https://player.example'], baseUriDomains: ['https://base.example'] } });
    assert.match(policy.csp, /script-src 'self' 'unsafe-inline' https:\/\/\*\.cdn\.example;/);
    assert.match(policy.csp, /img-src 'self' data: https:\/\/\*\.cdn\.example;/);
    assert.match(policy.csp, /connect-src https:\/\/api\.example\.com wss:\/\/live\.example\.com;/);
    assert.match(policy.csp, /frame-src https:\/\/player\.example;/);
    assert.match(policy.csp, /base-uri https:\/\/base\.example;/);
    assert.doesNotMatch(policy.csp.replace(/connect-src[^;]*;/, ''), /api\.example\.com/, 'a connect domain is not a resource domain');
    assert.deepEqual(policy.granted.connectDomains, ['https://api.example.com', 'wss://live.example.com']);
  });

  test('what is not an origin is refused and named, so a server cannot widen the policy by what it writes', () => {
    const policy = viewPolicy({ csp: { connectDomains: ['*', "'unsafe-eval'", 'data:', 'https://a.example; script-src *', 'https://b.example/path', 42], resourceDomains: 'https://ok.example' } });
    assert.equal(policy.csp.includes('*'), false);
    assert.equal(policy.csp.includes('unsafe-eval'), false);
    assert.match(policy.csp, /connect-src 'none'/);
    assert.match(policy.csp, /script-src 'self' 'unsafe-inline' https:\/\/ok\.example;/);
    assert.equal(policy.refused.length, 6);
    assert.match(policy.refused.join('\n'), /connectDomains: "https:\/\/a\.example; script-src \*" is not an origin/);
  });

  test('permissions the extension names go to the allow attribute; others are refused', () => {
    const policy = viewPolicy({ permissions: { camera: {}, clipboardWrite: {}, usb: {} } });
    assert.equal(policy.allow, 'camera; clipboard-write');
    assert.deepEqual(policy.permissions, { camera: {}, clipboardWrite: {} });
    assert.match(policy.refused.join('\n'), /permissions: "usb"/);
  });
});

test('the event log keeps its last entries and counts what it dropped', () => {
  let now = 0;
  const log = new EventLog(3, () => ++now);
  const heard: number[] = [];
  const stop = log.listen((event) => heard.push(event.seq));
  for (let i = 0; i < 5; i++) log.push('wire', { i });
  stop();
  log.push('wire', { i: 5 });
  const { events, dropped } = log.snapshot();
  assert.deepEqual(events.map((e) => e.i), [3, 4, 5]);
  assert.equal(dropped, 3);
  assert.deepEqual(heard, [1, 2, 3, 4, 5], 'a listener hears each as it happens, until it stops');
});

test('a question is withdrawn when its call is given up: the server gets no answer, and a late one is refused', async () => {
  const log = new EventLog();
  const questions = new Questions(log, undefined, []);
  const stop = new AbortController();
  const ctx = { key: 'who', method: 'tools/call', name: 'ask', round: 1, era: 'modern' as const, signal: stop.signal };
  const asked = questions.host().elicit!({ message: 'Who?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, ctx);
  const question = log.snapshot().events.find((e) => e.type === 'question')!;
  assert.equal(question.kind, 'elicitation');
  stop.abort();
  await assert.rejects(asked, (error: unknown) => error instanceof HostError && /withdrawn/.test(error.message));
  assert.equal(questions.answer(String(question.id), { action: 'accept', content: { name: 'late' } }), false);
  assert.ok(log.snapshot().events.some((e) => e.type === 'question-withdrawn' && e.id === question.id));

  const sampled = questions.host().sample!({ messages: [], maxTokens: 10 }, { ...ctx, key: 'think', signal: new AbortController().signal });
  const sampling = log.snapshot().events.filter((e) => e.type === 'question').at(-1)!;
  assert.equal(questions.answer(String(sampling.id), { by: 'hand', text: 'a thought' }), true);
  assert.deepEqual(await sampled, { role: 'assistant', content: { type: 'text', text: 'a thought' }, model: 'a person at byhand inspect', stopReason: 'endTurn' });
});

test("sampling sent to the host package's provider when the person chooses it; declined, nothing is sent", async () => {
  const log = new EventLog();
  const sent: unknown[] = [];
  const provider = { name: 'offline', sample: async (params: unknown) => (sent.push(params), { role: 'assistant' as const, content: { type: 'text' as const, text: 'from the provider' }, model: 'stand-in' }) };
  const questions = new Questions(log, provider, []);
  const ctx = { key: 'think', method: 'tools/call', name: 'think', round: 1, era: 'modern' as const, signal: new AbortController().signal };
  const params = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'soup?' } }], maxTokens: 10 };
  const asked = questions.host().sample!(params, ctx);
  const question = log.snapshot().events.find((e) => e.type === 'question')!;
  assert.equal(question.provider, 'offline', 'the page is told which provider it may send to');
  assert.deepEqual(question.params, params, 'the request shown in full');
  questions.answer(String(question.id), { by: 'provider' });
  assert.equal(((await asked).content as { text: string }).text, 'from the provider');
  assert.deepEqual(sent, [params]);

  const declined = questions.host().sample!(params, ctx);
  const next = log.snapshot().events.filter((e) => e.type === 'question').at(-1)!;
  questions.answer(String(next.id), { decline: true });
  await assert.rejects(declined, (error: unknown) => error instanceof HostError && /declined/.test(error.message));
  assert.equal(sent.length, 1);
});

describe('a history entry exported', () => {
  const entry: HistoryEntry = { at: 0, kind: 'call', name: 'add', args: { a: 2, b: "it's" }, ok: true, ms: 3, from: 'page' };
  const modern = { era: 'modern', protocolVersion: '2026-07-28', capabilities: {}, paramHeadersFor: () => undefined } as unknown as Client;

  test('as the byhand call line, quoted for a shell', () => {
    assert.equal(callLine(entry, 'kitchen'), `byhand call kitchen add '{"a":2,"b":"it'\\''s"}'`);
    assert.equal(callLine({ ...entry, kind: 'read', name: 'kitchen://week', args: {} }, 'https://x.example/mcp'), 'byhand read https://x.example/mcp kitchen://week');
  });

  test('as curl for a modern HTTP server, with the envelope and the headers; no curl for stdio or a 2025 session', () => {
    const curl = curlLine(entry, modern, 'http://127.0.0.1:1/mcp');
    assert.match(curl, /-H 'mcp-method: tools\/call'/);
    assert.match(curl, /-H 'mcp-name: add'/);
    assert.match(curl, /-H 'mcp-protocol-version: 2026-07-28'/);
    assert.match(curl, /"io\.modelcontextprotocol\/protocolVersion":"2026-07-28"/);
    assert.throws(() => curlLine(entry, modern, undefined), /stdio server has no HTTP request/);
    assert.throws(() => curlLine(entry, { ...modern, era: 'legacy' } as unknown as Client, 'http://127.0.0.1:1/mcp'), /needs its session/);
  });
});
