// The Host and Origin rule byhand's listeners apply is the SDK's, written out in edge/host-check.ts so that the bridge's
// listener loads no SDK. Here both give the same verdict, word for word, on every case listed, and the web handler's
// 403 is the SDK's response.

import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { hostHeaderValidationResponse, originValidationResponse, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { test } from './support/node-test.js';
import { hostGuard, hostRefusal, LOOPBACK_HOSTS } from '../packages/servers/src/edge/host-check.js';
import { requestProblem } from '../packages/servers/src/edge/node-adapter.js';

const HOSTS = [undefined, '', 'localhost', 'localhost:3000', '127.0.0.1:8080', '[::1]:9', '[::1]', 'LOCALHOST:1', 'localhost.', 'evil.example', 'evil.example:80', 'toolbox.test', 'a b', 'localhost:abc', '[::1', '127.0.0.1@evil.example', '0x7f.1'];
const ORIGINS = [undefined, '', 'null', 'http://localhost:3000', 'https://127.0.0.1', 'http://[::1]:8', 'https://evil.example', 'http://toolbox.test', 'moz-extension://abc-def', 'chrome-extension://abcdef', 'http://*', 'file://', 'file:///etc/passwd', 'not a url', 'vscode-webview://x'];
const ACCEPTED = [[], ['toolbox.test', 'moz-extension://*', 'http://*']];

/** The SDK's verdict: the first refusal's message, or undefined. */
function sdkRefusal(host: string | undefined, origin: string | undefined, allowed: string[]): string | undefined {
  const hostCheck = validateHostHeader(host, allowed);
  if (!hostCheck.ok) return hostCheck.message;
  const originCheck = validateOriginHeader(origin, allowed);
  return originCheck.ok ? undefined : originCheck.message;
}

test('hostRefusal refuses what the SDK refuses, with its words, and lets through what it lets through', () => {
  let refused = 0;
  for (const accepted of ACCEPTED) {
    const allowed = [...LOOPBACK_HOSTS, ...accepted];
    const ours = hostRefusal(accepted);
    for (const host of HOSTS) {
      for (const origin of ORIGINS) {
        const expected = sdkRefusal(host, origin, allowed);
        // Twice: the second verdict is the one kept from the first (every pair differs from the one before it).
        for (const time of ['first', 'again']) assert.equal(ours(host, origin), expected, `Host ${JSON.stringify(host)}, Origin ${JSON.stringify(origin)}, accepted ${JSON.stringify(accepted)}, ${time}`);
        if (expected !== undefined) refused++;
      }
    }
  }
  assert.ok(refused > 0 && refused < ACCEPTED.length * HOSTS.length * ORIGINS.length, 'the cases hold both verdicts');
});

test('hostGuard answers a refused web request with the SDK\'s 403, and passes the others', async () => {
  let refused = 0;
  for (const accepted of ACCEPTED) {
    const allowed = [...LOOPBACK_HOSTS, ...accepted];
    const guard = hostGuard(accepted);
    for (const host of HOSTS.filter((h) => h !== undefined && h !== '' && !/\s/.test(h))) {
      for (const origin of ORIGINS.filter((o) => o !== undefined)) {
        const headers = new Headers({ host: host!, ...(origin !== '' ? { origin } : {}) });
        const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers });
        const ours = guard(request);
        const sdk = hostHeaderValidationResponse(request, allowed) ?? originValidationResponse(request, allowed);
        assert.equal(ours?.status, sdk?.status, `Host ${host}, Origin ${origin}`);
        assert.deepEqual(await ours?.json(), await sdk?.json());
        if (sdk !== undefined) refused++;
      }
    }
  }
  assert.ok(refused > 0, 'some requests are refused');
});

test('requestProblem: a plain path is on the origin; a target that names another host, or two Host headers, is refused', () => {
  const origin = 'http://127.0.0.1:3000';
  const problem = (url: string, rawHeaders = ['Host', '127.0.0.1:3000']) => requestProblem({ url, rawHeaders } as IncomingMessage, origin);
  for (const url of ['/mcp', '/', '/api/kitchen?x=1&y=%20', "/a/b.c~d_e-f!$&'()*+,;=:@", '/@evil.example', '/mcp#frag', '/mcp\\x', '/ space']) {
    assert.equal(problem(url), undefined, url);
  }
  for (const url of ['//evil.example/mcp', '/\\evil.example/mcp', '/\t/evil.example', 'http://evil.example/mcp', 'https://127.0.0.1:3000/mcp']) {
    assert.equal(problem(url), `the target ${url} names another origin`, url);
  }
  assert.equal(problem('http://127.0.0.1:3000/mcp'), undefined, 'an absolute target on this origin');
  assert.equal(problem('/mcp', ['Host', '127.0.0.1:3000', 'X-Other', 'v', 'HOST', 'evil.example']), 'more than one Host header');
  assert.equal(problem('/mcp', ['host', '127.0.0.1:3000', 'Hosts', 'x']), undefined);
});
