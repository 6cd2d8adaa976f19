// The client's pure parts: header value encoding, x-mcp-header validation, the SSE reader, the probe classifier, the retry engine.

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { encodeHeaderValue, headerParams, paramHeaders } from '../packages/client/src/headers.js';
import { ModernConnection, standardHeaders } from '../packages/client/src/modern.js';
import type { Transport } from '../packages/client/src/transport/transport.js';
import type { JsonObject, JsonRpcRequest } from '../packages/client/src/types.js';
import { classifyProbe } from '../packages/client/src/verdict.js';
import { retryAfter, type Retry } from '../packages/client/src/retry.js';
import { fromReadableStream } from '../packages/client/src/transport/bytes.js';
import { readSse } from '../packages/client/src/transport/event-stream.js';
import { HttpStatusError, McpError, RpcError, StreamClosedError, TimeoutError } from '../packages/client/src/errors.js';

test('header values: the spec\'s encoding table (streamable-http.mdx "Value Encoding")', () => {
  assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
  assert.equal(encodeHeaderValue('Hello, 世界'), '=?base64?SGVsbG8sIOS4lueVjA==?=');
  assert.equal(encodeHeaderValue(' padded '), '=?base64?IHBhZGRlZCA=?=');
  assert.equal(encodeHeaderValue('line1\nline2'), '=?base64?bGluZTEKbGluZTI=?=');
  assert.equal(encodeHeaderValue('=?base64?literal?='), '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
  assert.equal(encodeHeaderValue('inner space'), 'inner space');
  assert.equal(encodeHeaderValue('a\tb'), `=?base64?${Buffer.from('a\tb').toString('base64')}?=`);
});

test('standard headers: Mcp-Name only on the three named methods', () => {
  assert.deepEqual(standardHeaders('tools/call', { name: 'x' }, '2026-07-28'), { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'x' });
  assert.equal(standardHeaders('resources/read', { uri: 'file:///é' }, 'v')['mcp-name'], `=?base64?${Buffer.from('file:///é').toString('base64')}?=`);
  assert.equal(standardHeaders('tools/list', { name: 'x' }, 'v')['mcp-name'], undefined);
});

test('the envelope is kept between requests, and made again for a new version, a new log level or a request\'s own _meta', async () => {
  const sent: { meta: JsonObject; header: string }[] = [];
  const transport: Transport = {
    name: 'recording',
    key: 'units',
    carriesHeaders: true,
    held: false,
    async request(message: JsonRpcRequest, exchange) {
      sent.push({ meta: message.params!._meta as JsonObject, header: exchange.headers['mcp-protocol-version'] });
      return { message: { jsonrpc: '2.0', id: message.id, result: {} } };
    },
    notify: async () => undefined,
    close: async () => undefined,
  };
  const settings = {
    wire: { transport, timeoutMs: 5_000, signal: undefined, onNotification: undefined },
    capabilities: {},
    clientInfo: { name: 'units', version: '1' },
    host: {},
    maxRounds: 10,
    logLevel: undefined,
    onRound: undefined,
  };
  const modern = new ModernConnection(settings, '2026-07-28');
  const version = (i: number) => sent[i].meta['io.modelcontextprotocol/protocolVersion'];
  await modern.request('tools/list');
  await modern.request('tools/list');
  assert.equal(sent[1].meta, sent[0].meta, 'the same envelope, not one made per request');
  await modern.send('server/discover', {}, {}, '2099-01-01');
  assert.deepEqual([version(2), sent[2].header], ['2099-01-01', '2099-01-01'], 'a probe at another version carries it in body and header');
  await modern.request('tools/list');
  assert.deepEqual([version(3), sent[3].header], ['2026-07-28', '2026-07-28'], 'and the next request is back on the connection\'s');
  await modern.setLogLevel('debug');
  await modern.request('tools/list');
  assert.equal(sent[4].meta['io.modelcontextprotocol/logLevel'], 'debug', 'a new level is on the next request');
  await modern.request('tools/list', { _meta: { 'example.com/trace': 't-1' } });
  assert.equal(sent[5].meta['example.com/trace'], 't-1');
  await modern.request('tools/list');
  assert.equal(sent[6].meta['example.com/trace'], undefined, 'a request\'s own _meta stays on that request');
  assert.equal(sent[6].meta['io.modelcontextprotocol/logLevel'], 'debug');
});

test('x-mcp-header: the tools the conformance suite calls invalid are invalid', () => {
  const tool = (properties: Record<string, unknown>) => ({ name: 't', inputSchema: { type: 'object', properties } });
  const invalid = [
    { value: { type: 'string', 'x-mcp-header': '' } },
    { data: { type: 'object', 'x-mcp-header': 'Data' } },
    { items: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } },
    { nil: { type: 'null', 'x-mcp-header': 'Nil' } },
    { score: { type: 'number', 'x-mcp-header': 'Score' } },
    { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'Region' } },
    { a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } },
    { value: { type: 'string', 'x-mcp-header': 'My Region' } },
    { value: { type: 'string', 'x-mcp-header': 'Region:Primary' } },
    { value: { type: 'string', 'x-mcp-header': 'Région' } },
    { value: { type: 'string', 'x-mcp-header': 'Region\t1' } },
    { list: { type: 'array', items: { type: 'object', properties: { r: { type: 'string', 'x-mcp-header': 'R' } } } } },
    { choice: { oneOf: [{ type: 'string', 'x-mcp-header': 'C' }] } },
  ];
  for (const properties of invalid) assert.ok('invalid' in headerParams(tool(properties)), JSON.stringify(properties));
  // A stray annotation is named by where it sits; a schema nested past the walk's bound is refused, not recursed into.
  assert.deepEqual(headerParams(tool({ choice: { oneOf: [{ type: 'string' }, { type: 'string', 'x-mcp-header': 'C' }] } })), { invalid: 'x-mcp-header at /properties/choice/oneOf/1 is not reachable through properties alone' });
  assert.deepEqual(headerParams({ name: 't', inputSchema: { type: 'object', $defs: { r: { type: 'string', 'x-mcp-header': 'R' } } } }), { invalid: 'x-mcp-header at /$defs/r is not reachable through properties alone' });
  let deep: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 70; i++) deep = { items: deep };
  assert.deepEqual(headerParams(tool({ deep })), { invalid: 'the inputSchema is nested too deeply to check' });
  const valid = headerParams(tool({ region: { type: 'string', 'x-mcp-header': 'Region' }, nested: { type: 'object', properties: { n: { type: 'integer', 'x-mcp-header': 'N' } } } }));
  assert.ok('params' in valid);
  assert.deepEqual(paramHeaders(valid.params, { region: 'eu', nested: { n: 42 } }), { 'Mcp-Param-Region': 'eu', 'Mcp-Param-N': '42' });
  assert.deepEqual(paramHeaders(valid.params, { region: null }), {}, 'null and absent values are omitted');
});

function streamOf(...chunks: string[]) {
  const encoder = new TextEncoder();
  return fromReadableStream(new ReadableStream({ start(c) { for (const chunk of chunks) c.enqueue(encoder.encode(chunk)); c.close(); } }));
}

test('SSE: events split across chunks, CRLF, comments, multi-line data, id and retry', async () => {
  const events = [];
  for await (const e of readSse(streamOf(': keepalive\r\n', 'event: mess', 'age\r\nid: 7\r\nretry: 500\r\ndata: {"a":\r', '\ndata: 1}\r\n\r\n', 'data: tail\n\n'), 1 << 20)) events.push(e);
  assert.deepEqual(events, [
    { event: 'message', data: '{"a":\n1}', id: '7', retry: 500 },
    { event: 'message', data: 'tail', id: '7', retry: undefined },
  ]);
});

test('the probe classifier: evidence for each era, outages for neither', () => {
  const reply = (body: object, status = 200) => ({ message: { jsonrpc: '2.0' as const, id: 1, ...body }, status });
  const err = (code: number, data?: unknown) => reply({ error: { code, message: 'x', data } }, 400);
  assert.equal(classifyProbe(reply({ result: { supportedVersions: ['2026-07-28'] } }), '2026-07-28').kind, 'modern');
  assert.deepEqual(classifyProbe(err(-32022, { supported: ['2026-07-28'] }), '2026-07-28'), { kind: 'retry', version: '2026-07-28' });
  assert.equal(classifyProbe(err(-32022, { supported: ['2025-11-25'] }), '2026-07-28').kind, 'legacy');
  assert.equal(classifyProbe(err(-32020), '2026-07-28').kind, 'error');
  assert.equal(classifyProbe(err(-32021), '2026-07-28').kind, 'error');
  for (const code of [-32601, -32602, -32000, -32600]) assert.equal(classifyProbe(err(code), '2026-07-28').kind, 'legacy', String(code));
  const status = (n: number) => new HttpStatusError(n, '', new Headers(), 'u');
  for (const n of [400, 404, 405]) assert.equal(classifyProbe(status(n), '2026-07-28').kind, 'legacy');
  for (const n of [401, 403, 500, 502]) assert.equal(classifyProbe(status(n), '2026-07-28').kind, 'error');
  assert.equal(classifyProbe(new TimeoutError('server/discover', 1), '2026-07-28', true).kind, 'legacy');
  assert.equal(classifyProbe(new TimeoutError('server/discover', 1), '2026-07-28').kind, 'error');
  assert.equal(classifyProbe(new StreamClosedError('gone'), '2026-07-28', true).kind, 'legacy');
});

test('an error reads as its code, a colon, the message; a hint names no library call', { timeout: 5_000 }, () => {
  const error = new RpcError({ code: -32601, message: 'Method not found' }, { method: 'resources/list' });
  assert.equal(new McpError('timeout', 'no answer within 300 ms', 'raise --timeout').explain(), 'timeout: no answer within 300 ms (hint: raise --timeout)');
  assert.match(error.hint, /no method resources\/list/);
  assert.doesNotMatch(error.hint, /\w\(\)/);
});

test('one retry engine: the first rule that knows a failure takes it, each as often as it may, and a rule that cannot help ends with the failure as it was', { timeout: 5_000 }, async () => {
  const took: string[] = [];
  /** Knows failures named `name`, recovers up to `limit` times, and says `helps`. */
  const rule = (name: string, limit: number, helps = true): Retry<string> => (error, context, used) => {
    if ((error as Error).message !== name || used >= limit) return undefined;
    took.push(`${name} for ${context}`);
    return Promise.resolve(helps);
  };
  const failing = (...failures: string[]) => {
    let at = 0;
    return async () => {
      if (at < failures.length) throw new Error(failures[at++]);
      return 'done';
    };
  };
  /** As the client and the HTTP transport use the engine: an attempt, and the engine on its failure. */
  const retrying = (attempt: () => Promise<string>, rules: Retry<string>[], context: string) => attempt().catch((error: unknown) => retryAfter(error, attempt, rules, context));
  assert.equal(await retrying(failing('version', 'header', 'auth', 'auth'), [rule('version', 1), rule('header', 1), rule('auth', 2)], 'tools/call'), 'done');
  assert.deepEqual(took, ['version for tools/call', 'header for tools/call', 'auth for tools/call', 'auth for tools/call']);

  took.length = 0;
  await assert.rejects(retrying(failing('version', 'version'), [rule('version', 1)], 'x'), /^Error: version$/);
  assert.deepEqual(took, ['version for x'], 'a rule sends one request again only as often as it may');
  await assert.rejects(retrying(failing('verdict'), [rule('verdict', 1, false)], 'x'), /^Error: verdict$/);
  await assert.rejects(retrying(failing('unknown'), [rule('verdict', 1)], 'x'), /^Error: unknown$/);
});
