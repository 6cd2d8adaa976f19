// `byhand bridge` with a command line that cannot work: it says why on stderr and exits 2 at once, before any host
// speaks (a host that launched it shows its stderr), rather than starting and answering the host's first request with
// the mistake, or listening with nothing behind it. The built command (support/cli.ts), in an empty folder with an empty HOME.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from './support/node-test.js';
import { byhandIn } from './support/cli.js';

describe('byhand bridge: a command line that cannot work', () => {
  let folder: string;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'bridge-usage-'));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));
  const bridge = (...args: string[]) => byhandIn({ cwd: folder, env: { HOME: folder, USERPROFILE: folder } }, 'bridge', ...args);

  for (const face of [[], ['--listen', '127.0.0.1:0']]) {
    test(`an unknown SERVER${face.length > 0 ? ' with --listen' : ' on stdio'}: exit 2, the reason on stderr, nothing served`, { timeout: 15_000 }, async () => {
      const run = await bridge('no-such-server', ...face);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /unknown server "no-such-server".*give an http\(s\) URL/);
      assert.equal(run.stdout, '', 'no URL printed, no JSON-RPC answered');
    });
  }

  test('a --listen that is not [HOST:]PORT and a --sampling provider byhand does not have: exit 2, said before anything starts', { timeout: 15_000 }, async () => {
    const listen = await bridge('everything', '--listen', 'localhost:http');
    assert.equal(listen.code, 2, listen.stderr);
    assert.match(listen.stderr, /--listen takes \[HOST:\]PORT/);
    assert.doesNotMatch(listen.stderr, /bundled, started/, 'the toolbox was not started for a command line that was refused');
    const sampling = await bridge('everything', '--sampling', 'gpt');
    assert.equal(sampling.code, 2, sampling.stderr);
    assert.match(sampling.stderr, /--sampling takes anthropic, openai or offline/);
  });
});
