// The peer docs hold to what is installed and run. docs/inspector.md, measured against the installed Inspector
// (tools/peers, on the Node 22 of tools/conformance): the methods its one-shot `--cli` refuses are the ones the doc
// gives to `mcpdo`, which does list them, at the version the doc names. docs/mcp-remote.md points at the two bridges
// run side by side, a file the bridge-peers test writes, rather than promising it.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from './support/node-test.js';
import { requireTestTool } from './support/test-tools.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const peers = join(root, 'tools', 'peers', 'node_modules');
const node22 = join(root, 'tools', 'conformance', 'node_modules', '.bin', 'node');
const doc = () => readFileSync(join(root, 'docs', 'inspector.md'), 'utf8');

/** What `inspector --cli --method METHOD` says, against a port nothing listens on: a refusal comes before any connect. */
async function cliSays(method: string): Promise<string> {
  const launcher = join(peers, '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
  const result = await run(node22, [launcher, '--cli', '--method', method, '--connect-timeout', '2000', 'http://127.0.0.1:9/mcp'], { timeout: 30_000 }).catch((error: { stdout?: string; stderr?: string }) => error);
  return `${result.stdout ?? ''}${result.stderr ?? ''}`;
}

test('the methods docs/inspector.md gives to mcpdo are refused by --cli and offered by mcpdo, at the version the doc names', { timeout: 60_000 }, async () => {
  requireTestTool('tools/peers');
  requireTestTool('tools/conformance');
  const installed = (JSON.parse(readFileSync(join(peers, '@modelcontextprotocol', 'inspector', 'package.json'), 'utf8')) as { version: string }).version;
  assert.match(doc(), new RegExp(`MCP Inspector \\*\\*${installed.replace(/\./g, '\\.')}\\*\\*`), `the doc names the installed version, ${installed}`);
  const mcpdoHelp = (await run(node22, [join(peers, '.bin', 'mcpdo'), '--help'], { timeout: 30_000 })).stdout;
  for (const [row, methods] of [['Argument completion', ['prompts/complete']], ['Subscriptions', ['resources/subscribe']], ['Tasks', ['tasks/get', 'tasks/cancel', 'tasks/result']]] as const) {
    const line = doc().split('\n').find((l) => l.startsWith(`| ${row} |`)) ?? assert.fail(`docs/inspector.md has no "${row}" row`);
    assert.match(line, /`--cli` refuses/, `${row}: the doc says --cli refuses it`);
    for (const method of methods) {
      assert.match(await cliSays(method), new RegExp(`Unsupported method: ${method}`), `--cli refuses ${method}`);
      assert.match(mcpdoHelp, new RegExp(`^\\s+${method} `, 'm'), `mcpdo offers ${method}`);
      const [kind, verb] = method.split('/');
      assert.match(line, new RegExp(`mcpdo ${kind}/.*\\b${verb}\\b`), `${row}: the doc names mcpdo ${method}`);
    }
  }
  for (const method of ['tools/call', 'resources/read', 'prompts/get', 'logging/setLevel']) assert.doesNotMatch(await cliSays(method), /Unsupported method/, `--cli runs ${method}`);
});

test('docs/mcp-remote.md points at the bridges side by side, which exist, and promises nothing still to be made', { timeout: 5_000 }, () => {
  const text = readFileSync(join(root, 'docs', 'mcp-remote.md'), 'utf8');
  assert.doesNotMatch(text, /still to be made/);
  const link = /\]\((\.\.\/test\/results\/bridge-peers\.md)\)/.exec(text)?.[1] ?? assert.fail('docs/mcp-remote.md links test/results/bridge-peers.md');
  assert.match(readFileSync(join(root, 'docs', link), 'utf8'), /mcp-remote/);
});
