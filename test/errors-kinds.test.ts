// Every library error has a kind (who can fix it) beside its code (the machine-readable reason), and its hints speak
// the library's terms, naming options in backticks. The CLI alone turns kinds into exit codes and options into flags,
// each through one table (shared/exit-codes.ts, shared/fail.ts).

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { AbortedError, HttpStatusError, LimitError, McpError, NetworkError, RoundLimitError, RpcError, TimeoutError } from '../packages/client/src/errors.js';
import { AuthError } from '../packages/client/src/auth/errors.js';
import { EXIT, exitCodeFor } from '../packages/byhand/src/shared/exit-codes.js';
import { EXIT_CODES_TEXT } from '../packages/byhand/src/shared/exit-codes-text.js';
import { cliText, describeFailure } from '../packages/byhand/src/shared/fail.js';
import { createHost, RootError } from '../packages/host/src/index.js';

const ctx = { method: 'tools/call', name: 'add' };

test('each error has a kind, and the CLI turns the kind into its exit code', () => {
  const cases: [McpError, McpError['kind'], number][] = [
    [new TimeoutError('tools/call add', 300), 'timeout', EXIT.unreachable],
    [new NetworkError('http://127.0.0.1:1/mcp', new Error('ECONNREFUSED')), 'unreachable', EXIT.unreachable],
    [new HttpStatusError(401, '', new Headers(), 'http://127.0.0.1:1/mcp'), 'auth', EXIT.auth],
    [new HttpStatusError(404, '', new Headers(), 'http://127.0.0.1:1/mcp'), 'protocol', EXIT.failed],
    [new HttpStatusError(503, '', new Headers(), 'http://127.0.0.1:1/mcp'), 'server', EXIT.failed],
    [new AuthError('login-required', 'needs a login', 'log in'), 'auth', EXIT.auth],
    [new RpcError({ code: -32021, message: 'Missing capability' }, ctx), 'protocol', EXIT.failed],
    [new RpcError({ code: -32000, message: 'The kitchen is closed' }, ctx), 'server', EXIT.failed],
    [new AbortedError('tools/call add'), 'cancelled', EXIT.failed],
    [new LimitError('a message', 1024), 'limit', EXIT.failed],
    [new RoundLimitError('tools/call', 'add', 10), 'limit', EXIT.failed],
  ];
  for (const [error, kind, exit] of cases) {
    assert.equal(error.kind, kind, `${error.name} ${String(error.code)}`);
    assert.equal(exitCodeFor(error), exit, `${error.name} ${String(error.code)} exits ${exit}`);
  }
});

test('the exit codes in words (help, README) name every code there is', () => {
  for (const [name, code] of Object.entries(EXIT)) assert.match(EXIT_CODES_TEXT, new RegExp(`\\b${code}\\b`), `EXIT.${name} (${code}) is not in the help text`);
});

test('library hints name options, never CLI flags; the CLI shows each option as its flag', () => {
  const timeout = new TimeoutError('tools/call add', 300);
  assert.match(timeout.hint, /`timeoutMs`/);
  assert.match(describeFailure(timeout, 'call add').hint ?? '', /raise the timeout \(--timeout MS\)/);
  const rounds = new RoundLimitError('tools/call', 'add', 10);
  assert.match(describeFailure(rounds, 'call add').hint ?? '', /`maxRounds`/, 'an option with no flag keeps its library name');
  for (const error of [timeout, rounds, new RpcError({ code: -32602, message: 'Invalid params' }, ctx)]) {
    assert.doesNotMatch(error.hint, /--[a-z]|byhand /, `${error.name}: ${error.hint}`);
  }
  assert.equal(cliText('pass `clientId` and `clientSecret`'), 'pass --client-id and --client-secret');
});

test('the host speaks of its options too: a missing root names `roots`, and the CLI says --root', () => {
  let refused: unknown;
  try {
    createHost({ sampling: false, roots: ['no-such-folder-here'], cwd: process.cwd() });
  } catch (error) {
    refused = error;
  }
  assert.ok(refused instanceof RootError);
  assert.match(refused.message, /^`roots` no-such-folder-here: /);
  assert.match(describeFailure(refused, 'call add').message, /^--root no-such-folder-here: /);
});
