// `byhand check` on servers written from the 2026-07-28 spec alone (test/fixtures/check/spec-server.ts, plain
// node:http), each with one seeded mistake: the mistake is found with its cause, and nothing else is at error level.
// The correct variants (a form that is validated and asked again saying why; an unsigned requestState the server
// never reads) raise no error. Then the eras apart (a 2025 server whose modern answer is a 500 page), a stdio server
// that cannot start, and what a default run gives the server (no folder of the user's as a root).

import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from './support/node-test.js';
import type { Recorded } from './fixtures/loopback.js';
import { errorIds, findingText, inTempFolder, runCheck, statusOf, type Checked } from './fixtures/check/run-check.js';
import { serveSpecServer, type SpecMistake } from './fixtures/check/spec-server.js';
import { serveLegacyServer } from './fixtures/check/legacy-server.js';

async function checkSpec(mistake: SpecMistake, ...flags: string[]): Promise<Checked & { requests: Recorded[] }> {
  const served = await serveSpecServer(mistake);
  try {
    return { ...(await inTempFolder('byhand-check-cwd-', (cwd) => runCheck(cwd, served.url, '--json', '--timeout', '10000', ...flags))), requests: served.requests };
  } finally {
    await served.close();
  }
}

const HEADER_IDS = ['headers.protocol-version.mismatch', 'headers.protocol-version.missing', 'headers.mcp-method.mismatch', 'headers.mcp-method.missing', 'headers.mcp-name.mismatch', 'headers.mcp-name.missing', 'headers.mcp-param:forecast', 'headers.mcp-param.missing:forecast'];

describe('byhand check on a correct 2026-07-28 server: no false alarm', () => {
  test('no error, and every check it can make passes', { timeout: 30_000 }, async () => {
    const { code, findings } = await checkSpec('none');
    assert.deepEqual(errorIds(findings), []);
    assert.equal(code, 0);
    for (const id of [...HEADER_IDS, 'headers.origin', 'era.envelope', 'lists.unknown-method', 'schemas.result-type', 'schemas.cache-hints', 'mrtr.only-where-allowed', 'era.unsupported-version', 'capabilities.gate:brainstorm', 'capabilities.gate:check_availability', 'capabilities.gate:list_workspace', 'mrtr.complete:brainstorm', 'mrtr.placement:brainstorm', 'mrtr.request-state:brainstorm', 'mrtr.replay:brainstorm']) {
      assert.equal(statusOf(findings, id), 'pass', `${id}: ${findingText(findings.find((f) => f.id === id))}`);
    }
  });

  test('a form the server validates and asks again for, saying why, completes with canned answers made from today\'s date', { timeout: 30_000 }, async () => {
    const { findings } = await checkSpec('none');
    assert.equal(statusOf(findings, 'mrtr.complete:check_availability'), 'pass', findingText(findings.find((f) => f.id.endsWith(':check_availability') && f.status !== 'pass')));
    assert.equal(statusOf(findings, 'mrtr.reask:check_availability'), undefined);
  });

  test('an unsigned requestState the server never reads is a warning at most', { timeout: 30_000 }, async () => {
    const { findings } = await checkSpec('none');
    const state = findings.find((f) => f.id === 'mrtr.request-state:survey');
    assert.equal(state?.status, 'warn', findingText(state));
    assert.match(state?.title ?? '', /not protected/);
    assert.match(state?.why ?? '', /nothing worse than fail/);
  });

  test('a rule the form\'s schema cannot say: the re-ask after the canned answer is a warning that shows the server\'s own message', { timeout: 30_000 }, async () => {
    const { code, findings } = await checkSpec('form-rule');
    assert.deepEqual(errorIds(findings), []);
    const reask = findings.find((f) => f.id === 'mrtr.reask:check_availability');
    assert.equal(reask?.status, 'warn', findingText(reask));
    assert.match(findingText(reask), /tables are for an even number of guests/);
    assert.doesNotMatch(findingText(reask), /re-ask trap/);
    assert.equal(code, 0);
  });
});

describe('byhand check: each seeded mistake is found with its cause, and nothing else is at error level', () => {
  const cases: { mistake: SpecMistake; ids: string[]; says: RegExp; not?: RegExp }[] = [
    { mistake: 'unsigned-state', ids: ['mrtr.request-state:brainstorm'], says: /forged requestState.*byhand-forged|byhand-forged/s },
    { mistake: 'no-result-type', ids: ['schemas.result-type'], says: /without resultType: .*tools\/list/ },
    { mistake: 'no-cache-hints', ids: ['schemas.cache-hints'], says: /ttlMs.*cacheScope.*server\/discover.*tools\/list.*resources\/read/s },
    { mistake: 'method-header-lists-only', ids: ['headers.mcp-method.mismatch', 'headers.mcp-method.missing'], says: /accepted on tools\/call, resources\/read, prompts\/get/ },
    { mistake: 'missing-method-accepted', ids: ['headers.mcp-method.missing'], says: /a missing Mcp-Method is accepted/ },
    { mistake: 'missing-version-accepted', ids: ['headers.protocol-version.missing'], says: /a missing MCP-Protocol-Version is accepted/ },
    { mistake: 'name-header-tools-only', ids: ['headers.mcp-name.mismatch', 'headers.mcp-name.missing'], says: /accepted on resources\/read, prompts\/get/ },
    { mistake: 'missing-param-accepted', ids: ['headers.mcp-param.missing:forecast'], says: /Mcp-Param-City/ },
    { mistake: 'completion-asks', ids: ['mrtr.only-where-allowed'], says: /completion\/complete answered input_required/ },
    { mistake: 'answers-in-meta', ids: ['mrtr.placement:brainstorm', 'mrtr.placement:check_availability', 'mrtr.placement:list_workspace', 'mrtr.placement:survey'], says: /placement trap/, not: /acceptedContent/ },
    { mistake: 'gate-elicitation-only', ids: ['capabilities.gate:brainstorm', 'capabilities.gate:list_workspace'], says: /did not declare (sampling|roots)/ },
    { mistake: 'envelope-filled', ids: ['era.envelope'], says: /a request with no params\._meta is served/ },
  ];
  for (const { mistake, ids, says, not } of cases) {
    test(mistake, { timeout: 30_000 }, async () => {
      const { code, findings } = await checkSpec(mistake);
      const text = findings.filter((f) => f.status === 'error').map(findingText).join('\n');
      assert.deepEqual(errorIds(findings), [...ids].sort(), text);
      assert.match(text, says);
      if (not) assert.doesNotMatch(text, not);
      assert.equal(code, 1);
    });
  }

  test('no-origin-check: a loopback server that serves a request from a foreign Origin is a warning naming DNS rebinding', { timeout: 30_000 }, async () => {
    const { code, findings } = await checkSpec('no-origin-check');
    assert.deepEqual(errorIds(findings), []);
    const origin = findings.find((f) => f.id === 'headers.origin');
    assert.equal(origin?.status, 'warn', findingText(origin));
    assert.match(findingText(origin), /DNS rebinding/);
    assert.match(origin?.fix ?? '', /originValidationResponse/);
    assert.equal(code, 0);
  });

  test('replayable-state: a requestState minted for other arguments and taken is a warning (the spec\'s SHOULD)', { timeout: 30_000 }, async () => {
    const { code, findings } = await checkSpec('replayable-state');
    assert.deepEqual(errorIds(findings), []);
    const replay = findings.find((f) => f.id === 'mrtr.replay:brainstorm');
    assert.equal(replay?.status, 'warn', findingText(replay));
    assert.match(findingText(replay), /bind/);
    assert.equal(code, 0);
  });
});

describe('byhand check: each era on its own', () => {
  test('a 2025 server whose answer to a modern request is a 500 HTML page: its 2025 era is checked, and the modern answer named with its fix', { timeout: 30_000 }, async () => {
    const served = await serveLegacyServer('modern-500');
    try {
      const { code, findings } = await runCheck(process.cwd(), served.url, '--json', '--timeout', '10000');
      const fallback = findings.find((f) => f.id === 'era.fallback');
      assert.deepEqual(errorIds(findings), ['era.fallback'], findingText(fallback));
      assert.match(fallback?.got ?? '', /HTTP 500.*text\/html/);
      assert.match(fallback?.fix ?? '', /400/);
      assert.doesNotMatch(findingText(fallback), /no MCP client can use/);
      assert.match(findings.find((f) => f.id === 'era.initialize')?.title ?? '', /legacy era served/);
      assert.equal(statusOf(findings, 'lists.tools'), 'pass');
      assert.equal(code, 1);
    } finally {
      await served.close();
    }
  });

  test('the same server on SDK 1.x without the 500 page has no error', { timeout: 30_000 }, async () => {
    const served = await serveLegacyServer('none');
    try {
      const { code, findings } = await runCheck(process.cwd(), served.url, '--json', '--timeout', '10000');
      assert.deepEqual(errorIds(findings), []);
      assert.equal(statusOf(findings, 'era.fallback'), 'pass');
      assert.equal(code, 0);
    } finally {
      await served.close();
    }
  });

  test('a stdio server that cannot start: said as such, with the line of its stderr that names the error', { timeout: 30_000 }, async () => {
    await inTempFolder('byhand-check-missing-', async (dir) => {
      const { code, findings } = await runCheck(dir, '--json', '--timeout', '10000', '--', process.execPath, join(dir, 'no-such-server.js'));
      assert.equal(findings.length, 1);
      const [exited] = findings;
      assert.equal(exited.id, 'era.exited');
      assert.match(exited.title, /exited before it answered/);
      assert.match(exited.got ?? '', /Cannot find module/);
      assert.doesNotMatch(findingText(exited), /no MCP client can use/);
      assert.equal(code, 1);
    });
  });
});

describe('byhand check changes nothing the author did not ask for', () => {
  const rootsSent = (requests: Recorded[]) =>
    requests.flatMap((r) => {
      const folders = (r.json?.params?.inputResponses as { folders?: { roots?: { uri: string }[] } } | undefined)?.folders;
      return folders?.roots?.map((root) => root.uri) ?? [];
    });

  test('roots: an empty folder of its own by default, never the folder check runs in; removed afterwards', { timeout: 30_000 }, async () => {
    const served = await serveSpecServer('none');
    try {
      await inTempFolder('byhand-check-user-', async (cwd) => {
        await runCheck(cwd, served.url, '--json', '--timeout', '10000');
        const sent = [...new Set(rootsSent(served.requests))];
        assert.equal(sent.length, 1, `one root: ${sent.join(', ')}`);
        assert.notEqual(sent[0], pathToFileURL(cwd).href);
        assert.ok(!sent[0].startsWith(pathToFileURL(cwd).href), sent[0]);
        assert.equal(existsSync(new URL(sent[0])), false, 'the empty folder is removed after the run');
      });
    } finally {
      await served.close();
    }
  });

  test('--root DIR: the folder given, as call has it', { timeout: 30_000 }, async () => {
    const served = await serveSpecServer('none');
    try {
      await inTempFolder('byhand-check-user-', async (cwd) => {
        mkdirSync(join(cwd, 'project'));
        const { findings } = await runCheck(cwd, served.url, '--json', '--timeout', '10000', '--root', 'project');
        assert.deepEqual([...new Set(rootsSent(served.requests))], [pathToFileURL(join(cwd, 'project')).href]);
        assert.deepEqual(errorIds(findings), []);
      });
    } finally {
      await served.close();
    }
  });

  test('the report names every tool called, and says what was not; --call arguments are "your arguments"', { timeout: 30_000 }, async () => {
    const { findings } = await checkSpec('none', '--call', 'delete_note={"day":"monday"}');
    const called = findings.find((f) => f.id === 'tools.called');
    for (const name of ['forecast', 'brainstorm', 'check_availability', 'list_workspace', 'survey', 'delete_note']) assert.match(called?.title ?? '', new RegExp(`\\b${name}\\b`));
    assert.match(called?.title ?? '', /delete_note \(not read-only, with your arguments: it may have changed something\)/);
    const refused = findings.find((f) => f.id === 'tools/call:delete_note');
    assert.match(refused?.title ?? '', /your arguments/);
    assert.doesNotMatch(findingText(refused), /canned/);
  });
});
