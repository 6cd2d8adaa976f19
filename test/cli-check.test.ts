// `byhand check`, run in-process as the CLI runs it (injected streams), against byhand's own toolboxes and the
// fixture servers on the official SDK 2.4.0 (test/fixtures/check), each with exactly one known mistake: the mistake is
// found with the right diagnosis, and nothing else is at error level. One run goes through the real binary.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, test } from './support/node-test.js';
import { fixtureScript } from './support/fixture-bundle.js';
import { argumentsFor, cannedRoots } from '../packages/byhand/src/check/canned.js';
import { checkCommand } from '../packages/byhand/src/check/command.js';
import type { Finding } from '../packages/byhand/src/check/finding.js';
import type { CheckContext } from '../packages/byhand/src/check/context.js';
import { checkSchemas } from '../packages/byhand/src/check/schemas.js';
import type { Tool } from '../packages/client/src/types.js';
import { byhandBinary } from './support/cli.js';
import { collector, runOwn } from './support/collector.js';
import { serveCheckFixture, type Mistake } from './fixtures/check/servers.js';
import { fixtureHandler, serve } from './fixtures/sdk-server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Checked {
  code: number;
  findings: Finding[];
  stdout: string;
  stderr: string;
}

function check(...args: string[]): Promise<Checked> {
  return checkIn(process.cwd(), ...args);
}

/** `byhand check` run in the folder `cwd`. */
async function checkIn(cwd: string, ...args: string[]): Promise<Checked> {
  const stdin = new PassThrough();
  stdin.end();
  const io = { stdout: collector(), stderr: collector(), stdin, env: { BYHAND_PROVIDER: 'offline' }, ...runOwn(cwd) };
  const code = await checkCommand(args, io);
  const json = args.includes('--json') ? (JSON.parse(io.stdout.text) as { findings: Finding[] }) : { findings: [] };
  return { code, findings: json.findings, stdout: io.stdout.text, stderr: io.stderr.text };
}

const errors = (findings: Finding[]) => findings.filter((f) => f.status === 'error');

async function checkFixture(mistake: Mistake, ...flags: string[]): Promise<Checked> {
  const served = await serveCheckFixture(mistake);
  try {
    return await check(served.url, '--json', '--timeout', '10000', ...flags);
  } finally {
    await served.close();
  }
}

describe('byhand check: no false alarm', () => {
  for (const toolbox of ['kitchen', 'probe', 'cookie-jar', 'everything']) {
    test(`the ${toolbox} toolbox has no error`, { timeout: 20_000 }, async () => {
      const { code, findings } = await check(toolbox, '--embedded', '--json');
      assert.deepEqual(errors(findings), []);
      assert.equal(code, 0);
      assert.ok(findings.some((f) => f.id === 'era.discover' && f.status === 'pass'));
      assert.ok(findings.some((f) => f.id === 'lists.unknown-method' && f.status === 'pass'));
    });
  }

  test('the SDK 2.4.0 interop fixture server (dual era) has no error', { timeout: 20_000 }, async () => {
    const served = await serve(fixtureHandler('dual'));
    try {
      const { code, findings } = await check(served.url, '--json');
      assert.deepEqual(errors(findings), []);
      assert.equal(code, 0);
    } finally {
      await served.close();
    }
  });

  test('the reference server-everything (legacy era, stdio) has no error', { timeout: 30_000 }, async () => {
    const everything = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    // Its read-only trigger-long-running-operation runs longer than the short timeout, which gives it up (a warning).
    // The timeout also covers the server's start, so it leaves room for a loaded machine.
    const { code, findings } = await check('--json', '--timeout', '4000', '--', process.execPath, everything, 'stdio');
    assert.deepEqual(errors(findings), []);
    assert.equal(findings.find((f) => f.id === 'era.discover')?.status, 'warn', 'it serves only the legacy era');
    assert.equal(findings.find((f) => f.id === 'schemas.valid')?.status, 'pass', 'its draft-07 schemas are read as draft-07');
    assert.equal(code, 0);
  });

  test('the everything toolbox: a tool named with --call is called, and its Mcp-Param-* header checked', { timeout: 20_000 }, async () => {
    const { code, findings } = await check('everything', '--embedded', '--json', '--call', 'test_custom_header');
    assert.deepEqual(errors(findings), []);
    assert.equal(findings.find((f) => f.id === 'headers.mcp-param:test_custom_header')?.status, 'pass');
    assert.equal(code, 0);
  });

  test('the everything toolbox with --all-tools: no warning either (a tool that runs only as a task is followed through the client; a tool error with canned arguments is not the server\'s fault)', { timeout: 30_000 }, async () => {
    const { code, findings } = await check('everything', '--embedded', '--json', '--all-tools', '--timeout', '10000');
    assert.deepEqual(findings.filter((f) => f.status === 'error' || f.status === 'warn').map((f) => `${f.id}: ${f.title}`), []);
    assert.equal(code, 0);
  });

  test('the control fixture (no mistake) passes every check it can make, and calls no tool that is not read-only', { timeout: 20_000 }, async () => {
    const { code, findings } = await checkFixture('none');
    assert.deepEqual(errors(findings), []);
    assert.equal(code, 0);
    for (const id of ['headers.mcp-method.mismatch', 'headers.mcp-method.missing', 'headers.mcp-name.mismatch', 'headers.mcp-name.missing', 'headers.protocol-version.mismatch', 'headers.protocol-version.missing', 'schemas.result-type', 'schemas.cache-hints', 'capabilities.gate:think', 'mrtr.complete:think', 'mrtr.placement:think', 'mrtr.request-state:think', 'schemas.result:lookup', 'era.unsupported-version', 'mrtr.complete:check://secret', 'capabilities.gate:check://secret', 'mrtr.placement:check://secret']) {
      assert.equal(findings.find((f) => f.id === id)?.status, 'pass', id);
    }
    assert.match(findings.find((f) => f.id === 'tools.not-called')?.title ?? '', /delete_everything/);
    assert.equal(findings.find((f) => f.id === 'lists.offered')?.title, 'offered: the same tools in both eras; every tool to any modern client');
    // The SDK's stateless legacy fallback: the per-request finding.
    assert.equal(findings.find((f) => f.id === 'era.per-request-legacy')?.status, 'warn');
  });
});

describe('byhand check: each mistake is found, and nothing else is at error level', () => {
  const cases: { mistake: Mistake; ids: string[]; says: RegExp }[] = [
    { mistake: 'header-check-off', ids: ['headers.mcp-method.mismatch', 'headers.mcp-method.missing', 'headers.mcp-name.mismatch', 'headers.mcp-name.missing', 'headers.protocol-version.mismatch', 'headers.protocol-version.missing'], says: /accepted on tools\/list, tools\/call, resources\/read, prompts\/get \(the header check is off\)/ },
    { mistake: 'no-capability-gate', ids: ['capabilities.gate:think', 'capabilities.gate:ask_name', 'capabilities.gate:check://secret'], says: /capability gate is missing/ },
    { mistake: 'reader-trap', ids: ['mrtr.reask:think'], says: /acceptedContent\(\)/ },
    { mistake: 'answers-in-meta', ids: ['mrtr.placement:think', 'mrtr.placement:ask_name', 'mrtr.placement:check://secret'], says: /placement trap/ },
    { mistake: 'forged-state-accepted', ids: ['mrtr.request-state:think'], says: /createRequestStateCodec/ },
    { mistake: 'no-supported', ids: ['era.unsupported-version'], says: /-32022 without data\.supported/ },
    { mistake: 'invalid-schema', ids: ['schemas.valid'], says: /invalid schema\(s\): lookup/ },
    { mistake: 'never-converges', ids: ['mrtr.converge:think'], says: /never converges/ },
    { mistake: 'list-asks', ids: ['lists.prompts'], says: /prompts\/list answered input_required, which only tools\/call, resources\/read and prompts\/get may/ },
  ];
  for (const { mistake, ids, says } of cases) {
    test(mistake, { timeout: 20_000 }, async () => {
      const { code, findings } = await checkFixture(mistake);
      assert.deepEqual(errors(findings).map((f) => f.id).sort(), [...ids].sort());
      assert.match(errors(findings).map((f) => `${f.title} ${f.got} ${f.why} ${f.fix}`).join('\n'), says);
      assert.equal(code, 1);
    });
  }
});

describe('byhand check: canned arguments', () => {
  test('a default, an example, else the simplest valid value; only the required properties; dates are the run\'s today', () => {
    const now = new Date('2031-05-06T07:08:09.000Z');
    assert.deepEqual(argumentsFor({
      type: 'object',
      properties: { a: { type: 'string', default: 'x' }, b: { type: 'integer', minimum: 3 }, c: { type: 'string', examples: ['ex'] }, d: { type: 'string', enum: ['e1', 'e2'] }, e: { type: 'boolean' }, f: { type: 'string', maxLength: 4 }, g: { type: 'array', minItems: 1, items: { type: 'number' } }, h: { type: 'string', format: 'date' }, i: { type: 'string', format: 'date-time' }, j: { type: 'integer', exclusiveMaximum: 0 }, skipped: { type: 'string' } },
      required: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'],
    }, now), { a: 'x', b: 3, c: 'ex', d: 'e1', e: true, f: 'byha', g: [1], h: '2031-05-06', i: '2031-05-06T07:08:09.000Z', j: -1 });
  });
});

describe('byhand check: roots', () => {
  test('a server on another machine is offered no root; a local one an empty folder of check\'s own, removed after the run', () => {
    assert.deepEqual(cannedRoots([], process.cwd(), false).roots, []);
    const local = cannedRoots([], process.cwd(), true);
    const folder = fileURLToPath(local.roots[0].uri);
    assert.deepEqual(readdirSync(folder), []);
    local.dispose();
    assert.equal(existsSync(folder), false);
  });
});

describe('byhand check: schemas', () => {
  test('schemas sharing an $id are each judged on their own, across tools and across servers in one process', () => {
    const tool = (name: string, inputSchema: Record<string, unknown>): Tool => ({ name, description: 'd', inputSchema });
    const judged = (tools: Tool[]) => {
      const ctx = { tools, findings: [] as Finding[] } as unknown as CheckContext;
      checkSchemas(ctx);
      return ctx.findings.find((f) => f.id === 'schemas.valid');
    };
    const good = { $id: 'https://example.com/same.json', type: 'object', properties: { a: { type: 'string' } } };
    const bad = { $id: 'https://example.com/same.json', type: 'object', properties: { a: { type: 'no-such-type' } } };
    assert.equal(judged([tool('one', good), tool('two', { ...good })])?.status, 'pass');
    const second = judged([tool('three', bad)]);
    assert.equal(second?.status, 'error');
    assert.match(second?.got ?? '', /^three: inputSchema /);
    assert.equal(judged([tool('four', { ...good })])?.status, 'pass');
  });
});

describe('byhand check: what is not a server', () => {
  test('an endpoint that answers neither era is one error finding, exit 1', { timeout: 20_000 }, async () => {
    const served = await serve(async () => new Response('no MCP here', { status: 404 }));
    try {
      const { code, findings } = await check(served.url, '--json');
      assert.deepEqual(findings.map((f) => [f.id, f.status]), [['era.none', 'error']]);
      assert.match(findings[0].got ?? '', /HTTP 404/);
      assert.equal(code, 1);
    } finally {
      await served.close();
    }
  });

  test('--call names a tool the server does not list: a usage error (2) with a did-you-mean', { timeout: 20_000 }, async () => {
    const { code, stderr } = await check('kitchen', '--embedded', '--call', 'summarise_wek');
    assert.equal(code, 2);
    assert.match(stderr, /--call summarise_wek: the server lists no such tool.*summarise_week/);
  });
});

describe('byhand check: output', () => {
  test('--strict fails on warnings; --accept and --baseline accept known ones; --junit names each case by its check id (a relative FILE in the command\'s folder)', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'byhand-check-'));
    const served = await serveCheckFixture('reader-trap');
    try {
      const { code, findings } = await checkIn(dir, served.url, '--json', '--timeout', '10000', '--strict', '--junit', 'check.xml');
      const file = join(dir, 'check.xml');
      assert.equal(code, 1);
      assert.ok(findings.some((f) => f.status === 'warn'));
      const xml = readFileSync(file, 'utf8');
      assert.match(xml, /<testsuites name="byhand check">/);
      // The name is the id alone (the same every run), the title the message, and a time.
      assert.match(xml, /<testcase classname="byhand\.check\.mrtr" name="mrtr\.reask:think" time="\d+\.\d{3}"><failure message="[^"]*re-ask trap"/);
      assert.match(xml, /<testsuite name="Era" tests="\d+" failures="\d+" skipped="\d+" time="\d+\.\d{3}">/);
      assert.doesNotMatch(xml, /name="[^"]*(pass|fail|\d+ ms)[^"]*"/i);
      // --strict: the per-request warning fails too, unless accepted.
      assert.match(xml, /name="era\.per-request-legacy" time="[\d.]+"><failure [^>]*type="warn"/);
      const plain = await checkFixture('none', '--strict');
      assert.equal(plain.code, 1, 'the control fixture has a warning, so --strict fails it');
      const warned = [...new Set(plain.findings.filter((f) => f.status === 'warn').map((f) => f.id))];
      assert.ok(warned.length > 0);
      const accepted = await checkFixture('none', '--strict', ...warned.flatMap((id) => ['--accept', id]));
      assert.equal(accepted.code, 0, 'every warning accepted');
      assert.ok(accepted.findings.filter((f) => f.status === 'warn').every((f) => f.accepted === true));
      const byPrefix = await checkFixture('none', '--strict', ...warned.flatMap((id) => ['--accept', `${id.split('.')[0]}.*`]));
      assert.equal(byPrefix.code, 0, 'ID* accepts every id it starts');
      writeFileSync(join(dir, 'baseline.txt'), `# known warnings\n${warned.join('\n')}\n`);
      const served2 = await serveCheckFixture('none');
      try {
        const fromFile = await checkIn(dir, served2.url, '--json', '--timeout', '10000', '--strict', '--baseline', 'baseline.txt');
        assert.equal(fromFile.code, 0);
        const errorAccepted = await checkIn(dir, served.url, '--timeout', '10000', '--accept', 'mrtr.reask:think', '--accept', 'no.such-check');
        assert.equal(errorAccepted.code, 1, 'an error is never accepted');
        assert.match(errorAccepted.stdout, /^note: --accept mrtr\.reask:think names an error, which stays an error$/m);
        assert.match(errorAccepted.stdout, /^note: --accept no\.such-check matched no warning in this run/m);
      } finally {
        await served2.close();
      }
    } finally {
      await served.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the text report: the problems first, each with its id, what was sent, what came back, why and the fix; then the tools called and one summary line; the passes behind --verbose', { timeout: 30_000 }, async () => {
    const served = await serveCheckFixture('reader-trap');
    try {
      const { code, stdout } = await check(served.url, '--timeout', '10000');
      assert.equal(code, 1);
      const lines = stdout.split('\n');
      assert.equal(lines[2], "✗ tool think asks again for 'answer' after a correct answer: the re-ask trap [mrtr.reask:think]", stdout);
      assert.match(stdout, /^ {4}fix: {2}read a sampling answer with inputResponse\(/m);
      assert.match(stdout, /^! a 2025 client of this server can never be asked to think.* \[era\.per-request-legacy\]$/m);
      assert.ok(stdout.indexOf('✗ ') < stdout.indexOf('! '), 'errors before warnings');
      assert.doesNotMatch(stdout, /^ *✓/m, 'no pass without --verbose');
      assert.match(stdout, /^Called \d+ tool\(s\): lookup, think, ask_name \(read-only\)$/m);
      assert.match(stdout, /^Not called \(not readOnlyHint\): delete_everything$/m);
      assert.match(stdout, /^1 error\(s\), \d+ warning\(s\), \d+ passed, \d+ skipped; --verbose shows the passes and skips$/m);
      assert.equal(stdout.trimEnd().split('\n').at(-1)?.startsWith('1 error(s)'), true, 'the summary is the last line');
      const verbose = await check(served.url, '--timeout', '10000', '--verbose');
      assert.match(verbose.stdout, /^Multi round-trip \(MRTR\)$/m);
      assert.match(verbose.stdout, /^ {2}✓ tool think: answers inside _meta are not taken \[mrtr\.placement:think\]$/m);
    } finally {
      await served.close();
    }
  });
  test('on a terminal, "checking" stands while the checks run and is wiped before the report or the error: the server is named once', { timeout: 20_000 }, async () => {
    const served = await serveCheckFixture('none');
    try {
      const onScreen = async (...args: string[]) => {
        const screen = Object.assign(collector(), { isTTY: true });
        const stdin = new PassThrough();
        stdin.end();
        const code = await checkCommand(args, { stdout: screen, stderr: screen, stdin, env: { BYHAND_PROVIDER: 'offline' }, ...runOwn() });
        return { code, parts: screen.text.split('\r\x1b[2K') };
      };
      const clean = await onScreen(served.url, '--timeout', '10000');
      assert.equal(clean.code, 0);
      assert.deepEqual(clean.parts.slice(0, 1), [`byhand: checking ${served.url}…`]);
      assert.equal(clean.parts.length, 2);
      assert.ok(clean.parts[1].startsWith(`byhand check ${served.url}\n`), clean.parts[1]);
      const refused = await onScreen('http://127.0.0.1:9/mcp', '--timeout', '5000');
      assert.equal(refused.parts[0], 'byhand: checking http://127.0.0.1:9/mcp…');
      assert.match(refused.parts[1] ?? '', /^✗ /);
      // In a log (no terminal) the notice is a line of its own, as every notice is.
      const logged = await check(served.url, '--timeout', '10000');
      assert.equal(logged.stderr, `byhand: checking ${served.url}\n`);
    } finally {
      await served.close();
    }
  });
});

describe('byhand check over stdio', () => {
  const fixture = (mode: string) => ['--', process.execPath, fixtureScript('test/fixtures/check/stdio-server.ts'), mode];

  test('a stray console.log on stdout is reported with the line; header checks are skipped with the reason', { timeout: 30_000 }, async () => {
    const { code, findings } = await check('--json', '--timeout', '15000', ...fixture('stray'));
    const stray = findings.find((f) => f.id === 'stdio.stdout');
    assert.equal(stray?.status, 'error');
    assert.match(stray?.got ?? '', /check fixture: listening on stdio/);
    assert.deepEqual(errors(findings).map((f) => f.id), ['stdio.stdout']);
    const headers = findings.find((f) => f.id === 'headers');
    assert.equal(headers?.status, 'skip');
    assert.match(headers?.why ?? '', /stdio has no HTTP headers/);
    assert.match(findings.find((f) => f.id === 'stdio.stderr')?.title ?? '', /check fixture: started/);
    assert.equal(code, 1);
  });

  test('a clean stdio server has no error', { timeout: 30_000 }, async () => {
    const { code, findings } = await check('--json', '--timeout', '15000', ...fixture('clean'));
    assert.deepEqual(errors(findings), []);
    assert.equal(findings.find((f) => f.id === 'stdio.stdout')?.status, 'pass');
    assert.equal(findings.find((f) => f.id === 'mrtr.complete:think')?.status, 'pass');
    assert.equal(code, 0);
  });
});

test('the real binary: byhand check is a command, exits 0 on a clean server and 2 on a usage mistake', { timeout: 30_000 }, async () => {
  const ok = await byhandBinary({ cwd: ROOT }, 'check', 'kitchen', '--embedded');
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /^0 error\(s\)/m);
  const usage = await byhandBinary({ cwd: ROOT }, 'check', 'kitchen', '--embedded', '--call', 'x={');
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--call x: the arguments must be a JSON object/);
});
