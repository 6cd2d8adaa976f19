// Secrets a user passes to byhand stay out of what it prints, through the real binary: a stdio server's
// arguments in the "has no tool" error, a server URL's userinfo, and a sampling endpoint's userinfo and api-key
// in `doctor` and in the approval screen of a model call. Everything goes through the one rule (client redact.ts).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, test } from './support/node-test.js';
import { fakeModel, serveHostSafety, type FakeModel } from './fixtures/host-safety-server.js';
import type { Served } from './fixtures/sdk-server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'byhand-secrets-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The real binary with exactly this environment (no BYHAND_PROVIDER unless given). */
async function byhand(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['packages/byhand/bin/byhand.js', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: scratch, NO_COLOR: '1', ...env },
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// A modern stdio server with one tool, which takes whatever arguments it is given.
const server = join(scratch, 'one-tool.cjs');
writeFileSync(server, `
const readline = require('node:readline');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  const ok = (result) => send({ jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete', ...result } });
  if (msg.method === 'server/discover') return ok({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'one', version: '1' } });
  if (msg.method === 'tools/list') return ok({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] });
  send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
});
`);

/** A sampling endpoint that carries a password in its userinfo and a key in its query. */
const secretBase = (url: string) => url.replace('http://', 'http://alice:pw-SECRET-1@') + '/?api-key=sk-SECRET-2';

describe('secrets stay out of what byhand prints', { timeout: 60_000 }, () => {
  test('"has no tool" names the stdio server with its secret arguments redacted', async () => {
    const run = await byhand(['call', 'nosuch', '--', process.execPath, server, '--api-key', 'sk-SECRET-3', '--token=sk-SECRET-4']);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^✗ .*has no tool "nosuch"; it has echo/m);
    assert.match(run.stderr, /--api-key \(redacted\) --token=\(redacted\)/);
    assert.doesNotMatch(run.stderr + run.stdout, /SECRET/);
  });

  test('a token as the userinfo of a server URL: neither the checkpoint, --trace nor the error prints it', async () => {
    for (const url of ['http://ghp_SECRET-5@127.0.0.1:9/mcp', 'http://sk_live_SECRET-6:@127.0.0.1:9/mcp']) {
      for (const args of [['checkpoint', url, '--trace'], ['checkpoint', url, '--json'], ['list', url]]) {
        const run = await byhand([...args, '--timeout', '2000']);
        assert.equal(run.code, 4, `${args.join(' ')}: ${run.stderr}`);
        assert.match(run.stdout + run.stderr, /http:\/\/\(redacted\)@127\.0\.0\.1:9\/mcp/);
        assert.doesNotMatch(run.stdout + run.stderr, /SECRET/, args.join(' '));
      }
    }
  });

  test('doctor shows the sampling endpoint with its password and api-key redacted', async () => {
    for (const json of [false, true]) {
      const run = await byhand(['doctor', ...(json ? ['--json'] : [])], { BYHAND_OPENAI_BASE_URL: secretBase('http://127.0.0.1:9') });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /openai-compatible/);
      assert.match(run.stdout, /http:\/\/\(redacted\)@127\.0\.0\.1:9\/\?api-key=\(redacted\)/);
      assert.doesNotMatch(run.stdout + run.stderr, /SECRET/);
    }
  });

  describe('the approval screen of a model call', () => {
    let served: Served;
    let model: FakeModel;
    before(async () => {
      served = await serveHostSafety();
      model = await fakeModel();
    });
    after(async () => {
      await served.close();
      await model.close();
    });

    test('names the endpoint with its password and api-key redacted', async () => {
      const run = await byhand(['call', served.url, 'many_thoughts', 'count=1', '--yes'], { BYHAND_OPENAI_BASE_URL: secretBase(model.url), BYHAND_OPENAI_MODEL: 'fake-model' });
      assert.match(run.stderr, /model: fake-model via openai-compatible \(http:\/\/\(redacted\)@127\.0\.0\.1:\d+\/\?api-key=\(redacted\)/);
      assert.doesNotMatch(run.stderr + run.stdout, /SECRET/);
    });
  });
});
