// The edge's shortcut for modern requests never disagrees with the SDK: whatever it calls modern, isLegacyRequest
// calls not legacy, and the bodies it leaves to the SDK include the ones where the two could differ.

import assert from 'node:assert/strict';
import { describe, test } from './support/node-test.js';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { surelyModern } from '../packages/servers/src/edge/era.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

describe('era shortcut', () => {
  test('what it calls modern the SDK never calls legacy', { timeout: 10_000 }, async () => {
    const modern = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: META } },
      { jsonrpc: '2.0', id: 'a', method: 'tools/list', params: { _meta: META } },
      // A claim naming an unserved revision, or a broken envelope: the modern path answers these with its errors.
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '1999-01-01' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 7 } } },
      { jsonrpc: '2.0', id: 4, method: 'server/discover', params: { _meta: META }, extra: true },
    ];
    for (const body of modern) {
      assert.equal(surelyModern(body), true, JSON.stringify(body));
      for (const headers of [{}, { 'mcp-protocol-version': '2025-06-18' }, { 'mcp-protocol-version': '2026-07-28' }] as Record<string, string>[]) {
        assert.equal(await isLegacyRequest(post(body, headers), body), false, `${JSON.stringify(body)} ${JSON.stringify(headers)}`);
      }
    }
  });

  test('everything else is left to the SDK', { timeout: 10_000 }, async () => {
    const left = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', _meta: META } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized', params: { _meta: META } },
      { jsonrpc: '2.0', id: 1, result: {}, method: 'tools/list', params: { _meta: META } },
      { jsonrpc: '2.0', id: null, method: 'tools/list', params: { _meta: META } },
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }],
      { jsonrpc: '1.0', id: 1, method: 'tools/list', params: { _meta: META } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: [] } },
    ];
    for (const body of left) assert.equal(surelyModern(body), false, JSON.stringify(body));
    // The legacy ones among them are still routed as legacy (by isLegacyRequest, as before).
    assert.equal(await isLegacyRequest(post(left[1]), left[1]), true);
    assert.equal(await isLegacyRequest(post(left[2]), left[2]), true);
  });
});
