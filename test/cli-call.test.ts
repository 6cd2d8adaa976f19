// `byhand call | read | prompt | demo`, run in-process as the CLI runs them, with injected streams,
// against real loopback servers (the bundled toolboxes, the Node server) and a real stdio child.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from './support/node-test.js';
import { closedPort } from './support/closed-port.js';
import { fixtureScript } from './support/fixture-bundle.js';
import { callCommand } from '../packages/byhand/src/call/command.js';
import { coerceToolArguments } from '../packages/byhand/src/call/coerce.js';
import { demoCommand, LEGACY_REFUSAL } from '../packages/byhand/src/call/demo.js';
import type { Tool } from '../packages/client/src/index.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';
import { byhandBinary, byhandIn } from './support/cli.js';
import { collector, runOwn } from './support/collector.js';
import { cleanupAfter } from './support/cleanup.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'byhand-cli-call-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function streams(stdinText: string) {
  const stdin = new PassThrough();
  stdin.end(stdinText);
  return { stdout: collector(), stderr: collector(), stdin, env: { BYHAND_PROVIDER: 'offline' }, ...runOwn() };
}

async function run(verb: 'call' | 'read' | 'prompt', args: string[], stdinText = ''): Promise<Run> {
  const io = streams(stdinText);
  const code = await callCommand(verb, args, io);
  return { code, stdout: io.stdout.text, stderr: io.stderr.text };
}

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('byhand call against the bundled Kitchen', () => {
  test('summarise_week depth=full --yes: the round is told on stderr, the offline answer is on stdout', async () => {
    const { code, stdout, stderr } = await run('call', ['kitchen', 'summarise_week', 'depth=full', '--yes']);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^byhand: kitchen, bundled, started in this process at http:\/\/127\.0\.0\.1:\d+\/api\/kitchen; modern era, 2026-07-28$/m);
    // depth=full reached the server: its prompt and its maxTokens are the full ones.
    assert.match(stderr, /^round 1: the server asks the host to think: "Summarise this week of meals day by day.*", maxTokens 600 \[summary\]$/m);
    assert.match(stderr, /the host answered \[summary\] with byhand's offline provider, which is not a model: no model was called/);
    assert.match(stderr, /^round 2: tools\/call summarise_week again, with the answers for summary$/m);
    assert.match(stderr, /^round 2: complete$/m);
    assert.match(stdout, /^byhand offline provider: this is not a language model, and no model was called/);
    assert.doesNotMatch(stdout, /round \d/, 'narration stays off stdout');
  });

  test('--answers FILE, relative, is read from the command\'s folder', async () => {
    file('relative-diners.json', { people: 2, avoid: 'figs' });
    const io = { ...streams(''), ...runOwn(dir) };
    const code = await callCommand('call', ['kitchen', 'suggest_dinner', '--answers', 'relative-diners.json'], io);
    assert.equal(code, 0, io.stderr.text);
    assert.match(io.stderr.text, /you answered \[diners\] from relative-diners\.json: accept \{"people":2,"avoid":"figs"\}/);
  });

  test('suggest_dinner with --answers: the form, then the model, three rounds', async () => {
    const answers = file('diners.json', { people: 3, avoid: 'nuts' });
    const { code, stdout, stderr } = await run('call', ['kitchen', 'suggest_dinner', '--answers', answers]);
    assert.equal(code, 0, stderr);
    const lines = stderr.split('\n').filter((line) => /^(round| {2}you answered| {2}the host answered)/.test(line));
    assert.deepEqual(lines.map((line) => line.replace(/: ".*$/, ': "…').replace(/ from \S+:/, ' from FILE:')), [
      'round 1: the server asks you: "…',
      '  you answered [diners] from FILE: accept {"people":3,"avoid":"nuts"}',
      'round 2: tools/call suggest_dinner again, with the answers for diners',
      'round 2: the server asks the host to think: "…',
      "  the host answered [idea] with byhand's offline provider, which is not a model: no model was called; the text is made from the request's own words",
      'round 3: tools/call suggest_dinner again, with the answers for idea',
      'round 3: complete',
    ]);
    assert.match(stderr, /asks you: "Who is eating\? How many people, and anything to avoid\?" \(fields: people, avoid\) \[diners\]/);
    assert.match(stderr, /asks the host to think: "Suggest one dinner for 3 people, avoiding: nuts\./);
    assert.match(stdout, /not a language model/);
  });

  test('suggest_dinner declined in the answers file: the server says so, exit 0', async () => {
    const { code, stdout, stderr } = await run('call', ['kitchen', 'suggest_dinner', '--answers', file('decline.json', { $action: 'decline' })]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /you answered \[diners\] from .*decline\.json: decline/);
    assert.equal(stdout, 'No dinner suggested: you chose to decline the question about who is eating.\n');
  });

  test('an answers file that misses a required field fails the call with the host error, exit 2: the file is the user\'s to fix', async () => {
    const { code, stdout, stderr } = await run('call', ['kitchen', 'suggest_dinner', '--answers', file('empty.json', {})]);
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /^✗ the host did not fulfil elicitation for 'diners' .*does not answer the required field "people".*\n {2}hint: /m);
  });

  test('form answers typed on stdin, in the legacy era: the requests come from the server mid-call', async () => {
    const { code, stdout, stderr } = await run('call', ['kitchen', 'suggest_dinner', '--era', 'legacy', '--trace'], '2\n\n');
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^← sse \{"method":"elicitation\/create","params":\{"message":"Who is eating\?/m);
    assert.match(stderr, /^→ POST \S+ \{"jsonrpc":"2\.0","id":\d+,"result":\{"action":"accept","content":\{"people":2\}\}\}$/m);
    assert.match(stderr, /legacy era, 2025-11-25, pinned by --era/);
    assert.match(stderr, /^the server asks you: "Who is eating\?.*\(a 2025-era request from server to client, during the call\)$/m);
    assert.match(stderr, /^ {2}the answer \[request #\d+\] from the pipe on stdin: accept \{"people":2\}$/m);
    assert.match(stderr, /^the server asks the host to think: "Suggest one dinner for 2 people\./m);
    assert.doesNotMatch(stderr, /^round/m, 'a legacy call has no rounds');
    assert.match(stdout, /not a language model/);
  });

  test('read kitchen://pantry prints the resource text', async () => {
    const { code, stdout, stderr } = await run('read', ['kitchen', 'kitchen://pantry']);
    assert.equal(code, 0, stderr);
    const pantry = JSON.parse(stdout) as { item: string }[];
    assert.ok(pantry.some((p) => p.item === 'rice'));
  });

  test('read --json prints the whole result', async () => {
    const { code, stdout } = await run('read', ['kitchen', 'kitchen://week', '--json']);
    assert.equal(code, 0);
    const result = JSON.parse(stdout);
    assert.equal(result.contents[0].uri, 'kitchen://week');
    assert.equal(result.contents[0].mimeType, 'application/json');
  });

  test('prompt plan_meals with arguments: the messages, the embedded resource summarised', async () => {
    const { code, stdout, stderr } = await run('prompt', ['kitchen', 'plan_meals', 'days=3', 'diet=vegetarian']);
    assert.equal(code, 0, stderr);
    const [first, second] = stdout.trimEnd().split('\n');
    assert.match(first, /^user: \[resource kitchen:\/\/pantry application\/json, \d+ characters\]$/);
    assert.equal(second, 'user: Plan 3 day(s) of dinners for 2 people (vegetarian), using the pantry above first. List what to buy.');
  });

  test('prompt errors: a missing required argument, an unknown one, an unknown prompt (exit 2)', async () => {
    const missing = await run('prompt', ['kitchen', 'plan_meals', 'diet=vegan']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^✗ plan_meals: missing required argument days \(how many days to plan, e\.g\. "3"\)$/m);
    const unknown = await run('prompt', ['kitchen', 'plan_meals', 'days=2', 'dite=vegan']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^✗ plan_meals has no argument "dite" \(did you mean diet\?\); it takes days, people, diet$/m);
    const name = await run('prompt', ['kitchen', 'plan_meal']);
    assert.equal(name.code, 2);
    assert.match(name.stderr, /^✗ kitchen has no prompt "plan_meal" \(did you mean plan_meals\?\); it has plan_meals \(byhand prompt kitchen lists them with their arguments\)$/m);
  });

  test('an unknown tool: did you mean, and the names it has (exit 2)', async () => {
    const { code, stdout, stderr } = await run('call', ['kitchen', 'sumarise_wek']);
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /^✗ kitchen has no tool "sumarise_wek" \(did you mean summarise_week\?\); it has summarise_week, suggest_dinner \(byhand call kitchen lists them with their arguments\)$/m);
  });

  test('coercion errors against the real schema: enum, unknown name, a tool with no arguments (exit 2)', async () => {
    const enumRun = await run('call', ['kitchen', 'summarise_week', 'depth=deep']);
    assert.equal(enumRun.code, 2);
    assert.match(enumRun.stderr, /^✗ summarise_week: depth="deep" is not one of brief, full$/m);
    const typo = await run('call', ['kitchen', 'summarise_week', 'dpth=full']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /^✗ summarise_week has no argument "dpth" \(did you mean depth\?\); it takes depth$/m);
    const none = await run('call', ['kitchen', 'suggest_dinner', 'people=2']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^✗ suggest_dinner takes no arguments, but got people=$/m);
    const malformed = await run('call', ['kitchen', 'summarise_week', 'depth']);
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /^✗ summarise_week: expected key=value \(or all the arguments as one JSON object, .*\), got "depth"$/m);
    assert.match(malformed.stderr, /^usage: byhand call SERVER TOOL/m);
  });
});

describe('byhand call against a URL: the Cookie Jar on a real Node server', () => {
  let server: RunningServer;
  let url: string;
  before(async () => {
    server = await startServer({ port: 0, toolboxes: ['cookie-jar'] });
    url = server.urls['cookie-jar']!;
  });
  after(() => server.close());

  test('put, list, forget declined, forget accepted, list again', async () => {
    const put = await run('call', [url, 'put_note', 'text=buy bread', 'ttl_seconds=600', '--json']);
    assert.equal(put.code, 0, put.stderr);
    assert.match(put.stderr, new RegExp(`^byhand: ${url}; modern era, 2026-07-28$`, 'm'));
    const note = JSON.parse(put.stdout).structuredContent.note as { id: number; text: string };
    assert.equal(note.text, 'buy bread');
    assert.equal(typeof note.id, 'number', 'ttl_seconds=600 was sent as a number and accepted');

    const listed = await run('call', [url, 'list_notes']);
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, new RegExp(`^#${note.id} "buy bread" \\(forgets itself at `));

    const declined = await run('call', [url, 'forget_note', `id=${note.id}`, '--answers', file('no.json', { $action: 'decline' })]);
    assert.equal(declined.code, 0, declined.stderr);
    assert.match(declined.stderr, new RegExp(`round 1: the server asks you: "Forget note #${note.id} "buy bread" now\\?" \\(fields: confirm\\) \\[confirm\\]`));
    assert.match(declined.stderr, /^ {2}\(with a requestState of \d+ characters, sent back unchanged\)$/m);
    assert.match(declined.stderr, /you answered \[confirm\] from .*no\.json: decline/);
    assert.match(declined.stdout, /^Kept #\d+ "buy bread" .*: you chose to decline\.$/m);

    const accepted = await run('call', [url, 'forget_note', `id=${note.id}`, '--answers', file('yes.json', { confirm: true })]);
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.match(accepted.stderr, /you answered \[confirm\] from .*yes\.json: accept \{"confirm":true\}/);
    assert.equal(accepted.stdout, `Forgot note #${note.id}.\n`);

    const empty = await run('call', [url, 'list_notes']);
    assert.equal(empty.stdout, 'The jar is empty.\n');
  });

  test('a tool that reports isError exits 5, with its text on stdout', async () => {
    const { code, stdout, stderr } = await run('call', [url, 'forget_note', 'id=999']);
    assert.equal(code, 5);
    assert.equal(stdout, 'There is no note #999 in the jar (it may already have been forgotten).\n');
    assert.match(stderr, /^✗ forget_note reported an error \(isError: true\)$/m);
  });

  test('wrong types and a missing required argument are caught before anything is called (exit 2)', async () => {
    const ttl = await run('call', [url, 'put_note', 'text=x', 'ttl_seconds=soon']);
    assert.equal(ttl.code, 2);
    assert.match(ttl.stderr, /^✗ put_note: ttl_seconds="soon" is not a whole number$/m);
    const id = await run('call', [url, 'forget_note', 'id=1.5']);
    assert.equal(id.code, 2);
    assert.match(id.stderr, /^✗ forget_note: id="1\.5" is not a whole number$/m);
    const missing = await run('call', [url, 'put_note', 'ttl_seconds=5']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^✗ put_note: missing required argument text \(string, the note, at most 280 characters\)$/m);
    const listed = await run('call', [url, 'list_notes']);
    assert.equal(listed.stdout, 'The jar is empty.\n', 'nothing was put');
  });

  test('--trace prints every wire message on stderr, one line each', async () => {
    const { code, stderr } = await run('call', [url, 'list_notes', '--trace']);
    assert.equal(code, 0);
    const sent = stderr.split('\n').filter((line) => line.startsWith(`→ POST ${url} `));
    const methods = sent.map((line) => JSON.parse(line.slice(`→ POST ${url} `.length)).method);
    // Each test starts with no cached era, so the era is probed first.
    assert.deepEqual(methods, ['server/discover', 'tools/list', 'tools/call']);
    const received = stderr.split('\n').filter((line) => line.startsWith('← HTTP 200 application/json {'));
    assert.equal(received.length, 3);
    assert.equal(JSON.parse(received[2].slice('← HTTP 200 application/json '.length)).result.content[0].text, 'The jar is empty.');
  });
});

describe('byhand call against the bundled Everything toolbox', () => {
  test('--root DIR is what the server gets for roots/list', async () => {
    const { code, stdout, stderr } = await run('call', ['everything', 'test_input_required_result_list_roots', '--root', dir, '--root', ROOT]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /round 1: the server asks for the roots \[client_roots\]/);
    assert.match(stderr, /the host gave the roots \[client_roots\]: file:\/\/\/.*byhand-cli-call-.*, file:\/\/\//);
    assert.match(stdout, /^Roots: file:\/\/\/.*byhand-cli-call-[^,]*, file:\/\/\//);
  });

  test('a 2025 server gets the host\'s refusal in the command\'s words (--answers FILE), and may show it in its result', async () => {
    // A 2025 server asks on its session, and the refusal goes back to it as the answer's error.
    const { code, stdout } = await run('call', ['everything', 'test_elicitation', 'message=Your name?', '--era', 'legacy']);
    assert.equal(code, 5);
    assert.match(stdout, /stdin is not a terminal and has no answer for it; run where you can type, or pass --answers FILE, a JSON object such as/);
    assert.doesNotMatch(stdout, /`answersFile`/);
  });

  test('non-text content is summarised', async () => {
    const { code, stdout } = await run('call', ['everything', 'test_multiple_content_types']);
    assert.equal(code, 0);
    const [text, image, resource, ...rest] = stdout.trimEnd().split('\n');
    assert.equal(text, 'Multiple content types test:');
    assert.match(image, /^\[image image\/png, [1-9]\d* bytes\]$/);
    assert.equal(resource, '[resource test://mixed-content-resource application/json, 27 characters]');
    assert.deepEqual(rest, []);
  });

  test('a JSON object value for a $ref property, an enum, strings', async () => {
    const { code, stdout, stderr } = await run('call', [
      'everything', 'json_schema_2020_12_tool', 'name=Ada', 'address={"city":"Paris"}', 'contactMethod=email', 'email=ada@example.com',
    ]);
    assert.equal(code, 0, stderr);
    const sent = JSON.parse(stdout.replace('JSON Schema 2020-12 tool called with: ', ''));
    assert.deepEqual(sent, { name: 'Ada', address: { city: 'Paris' }, contactMethod: 'email', email: 'ada@example.com' });
  });
});

describe('byhand call against a stdio server from --config', () => {
  const config = () =>
    file('mcp.json', {
      mcpServers: {
        fixture: { command: process.execPath, args: [fixtureScript('test/fixtures/sdk-stdio-server.ts'), 'serve'], cwd: ROOT },
        broken: { command: '${BYHAND_TEST_UNSET_COMMAND}' },
      },
    });

  test('a sampling tool over stdio: the round, the offline answer', async () => {
    const { code, stdout, stderr } = await run('call', ['fixture', 'think', 'topic=soup', '--config', config()]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^byhand: fixture from .*mcp\.json \(.*sdk-stdio-server-\w+\.mjs serve\); modern era, 2026-07-28$/m);
    assert.match(stderr, /^round 1: the server asks the host to think: "Think about soup", maxTokens 64 \[answer\]$/m);
    assert.match(stderr, /^ {2}\(with a requestState of 10 characters, sent back unchanged\)$/m);
    assert.match(stdout, /^model said: byhand offline provider: this is not a language model/);
    assert.match(stdout, /\(state topic=soup\)\n$/);
  });

  test('--json and --trace over stdio', async () => {
    const { code, stdout, stderr } = await run('call', ['fixture', 'echo', 'text=hi', '--config', config(), '--json', '--trace']);
    assert.equal(code, 0, stderr);
    assert.deepEqual(JSON.parse(stdout).content, [{ type: 'text', text: 'echo: hi' }]);
    assert.match(stderr, /^→ stdio \{"jsonrpc":"2\.0","id":\d+,"method":"tools\/call","params":\{"name":"echo","arguments":\{"text":"hi"\}/m);
    assert.match(stderr, /^← stdio \{.*"echo: hi"/m);
  });

  test('config problems are exit 2 and name the entry: an unset variable, an unknown name', async () => {
    const broken = await run('call', ['broken', 'echo', '--config', config()]);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /^✗ .*mcp\.json: mcpServers\.broken\.command: \$\{BYHAND_TEST_UNSET_COMMAND\} refers to BYHAND_TEST_UNSET_COMMAND, which is not set$/m);
    const unknown = await run('call', ['fixtrue', 'echo', '--config', config()]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^✗ unknown server "fixtrue" \(did you mean fixture\?\): give an http\(s\) URL, a command line after --, a bundled toolbox \(kitchen, cookie-jar, probe, everything, week\), a name in .*mcp\.json \(fixture, broken\)$/m);
  });
});

describe('byhand call: the command line and failures', () => {
  test('no arguments, --help, a bad --era, --timeout, an unknown option', async () => {
    const none = await run('call', []);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^✗ byhand call needs a SERVER and a TOOL\nusage: byhand call SERVER TOOL/m);
    const help = await run('call', ['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: byhand call SERVER TOOL \[key=value \.\.\.\]/);
    const era = await run('call', ['kitchen', 'summarise_week', '--era', '2025']);
    assert.equal(era.code, 2);
    assert.match(era.stderr, /^✗ --era must be auto, modern or legacy, not "2025"$/m);
    const timeout = await run('call', ['kitchen', 'summarise_week', '--timeout=soon']);
    assert.equal(timeout.code, 2);
    assert.match(timeout.stderr, /^✗ --timeout must be a positive number of milliseconds, not "soon"$/m);
    const option = await run('call', ['kitchen', 'summarise_week', '--yse']);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /^✗ byhand call: unknown option --yse \(did you mean --yes\?\)$/m);
    const read = await run('read', ['kitchen', 'kitchen://pantry', 'extra=1']);
    assert.equal(read.code, 2);
    assert.match(read.stderr, /^✗ byhand read takes one URI and no arguments/m);
  });

  test('an unknown server suggests the bundled name', async () => {
    const { code, stderr } = await run('call', ['kitchn', 'summarise_week']);
    assert.equal(code, 2);
    assert.match(stderr, /^✗ unknown server "kitchn" \(did you mean kitchen\?\)/m);
  });

  test('a --root that is no directory and an unreadable --answers stop before anything starts (exit 2)', async () => {
    const root = await run('call', ['kitchen', 'summarise_week', '--root', join(dir, 'nowhere')]);
    assert.equal(root.code, 2);
    assert.match(root.stderr, /^✗ --root .*nowhere: .* is not a directory$/m);
    assert.doesNotMatch(root.stderr, /^byhand: /m);
    const answers = await run('call', ['kitchen', 'summarise_week', '--answers', join(dir, 'missing.json')]);
    assert.equal(answers.code, 2);
    assert.match(answers.stderr, /^✗ cannot read the answers file /m);
  });

  test('nothing listening at the URL: one ✗ line with the McpError explanation and its hint, exit 4 (unreachable)', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api/probe`;
    const { code, stdout, stderr } = await run('call', [url, 'probe_sampling']);
    assert.equal(code, 4);
    assert.equal(stdout, '');
    assert.deepEqual(stderr.split('\n').filter(Boolean).length, 2, 'the failure and its hint');
    assert.match(stderr, /^✗ call probe_sampling on http:\/\/127\.0\.0\.1:\d+\/api\/probe: cannot reach http:\/\/127\.0\.0\.1:\d+\/api\/probe: .*\n {2}hint: nothing answered at that address/);
  });

  test('the legacy era against the Probe: the SDK refusal is the tool error, exit 5', async () => {
    const { code, stdout, stderr } = await run('call', ['probe', 'probe_sampling_naive', '--era', 'legacy']);
    assert.equal(code, 5);
    assert.match(stdout, new RegExp(LEGACY_REFUSAL));
    assert.match(stderr, /✗ probe_sampling_naive reported an error \(isError: true\)/);
  });

  test('an answers file with a value its form refuses is the command line to fix: exit 2, naming the file, form and field', async () => {
    const { code, stderr } = await run('call', ['kitchen', 'suggest_dinner', '--answers', file('too-many.json', { people: 99 })]);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /too-many\.json: "people" for the form "diners" must be at most 12 \(got 99\)/);
  });

  test('a resource the server does not have is exit 2, as an unknown tool is, with what it has', async () => {
    const { code, stderr } = await run('read', ['kitchen', 'kitchen://pantri']);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^✗ kitchen has no resource "kitchen:\/\/pantri" \(did you mean kitchen:\/\/pantry\?\); it has kitchen:\/\/pantry, kitchen:\/\/week \(byhand read kitchen lists them\)$/m);
    const tool = await run('call', ['kitchen', 'summarise_weak']);
    assert.equal(tool.code, 2, 'the same code for an unknown tool');
  });
});

describe('what a server says besides the protocol, and the hints that name the real cause', () => {
  const stdio = (mode: string) => ['--', process.execPath, fixtureScript('test/fixtures/sdk-stdio-server.ts'), mode];

  test('a stdio server that writes a banner on stdout is served, and said to break the protocol', async () => {
    const { code, stderr } = await run('call', ['--tool', 'echo', 'text=hi', ...stdio('banner')]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^byhand: the server wrote 1 line\(s\) on stdout that are not JSON-RPC, first "Weather server running on stdio": on stdio, stdout is for MCP messages only/m);
    const listed = await byhandIn({ cwd: dir }, 'list', ...stdio('banner'));
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stderr, /the server wrote 1 line\(s\) on stdout that are not JSON-RPC/, 'byhand list says it too');
    const clean = await run('call', ['--tool', 'echo', 'text=hi', ...stdio('legacy')]);
    assert.doesNotMatch(clean.stderr, /not JSON-RPC/, 'a clean server is not accused');
  });

  test('a stdio server that dies at start on an uncaught error: the quote of its stderr has the error line, not only the frames', async () => {
    const { code, stderr } = await run('call', ['--tool', 'echo', ...stdio('throw')]);
    assert.notEqual(code, 0);
    assert.match(stderr, /its stderr said: Error: cannot open the database file \/data\/app\.db \| … \| (.* \| )?Node\.js v\d+/);
  });

  test('https:// to a server that speaks plain http, and a path with no MCP endpoint, are each said as such', async (t) => {
    const served = cleanupAfter(t)(await startServer({ port: 0, toolboxes: ['kitchen'] }));
    const tls = await run('call', [served.urls.kitchen.replace('http:', 'https:'), 'summarise_week']);
    assert.equal(tls.code, 4, tls.stderr);
    assert.match(tls.stderr, /hint: the server answered, but not in TLS: it speaks plain http there; use http:\/\//);
    const missing = await run('call', [`${served.url}/api/kitchn`, 'summarise_week']);
    assert.match(missing.stderr, /hint: HTTP 404 to the opening request: there is no MCP endpoint at this path; check the URL/);
    assert.doesNotMatch(missing.stderr, /other era/);
  });
});

describe('coercion against a schema, in detail', () => {
  const tool: Tool = {
    name: 'kinds',
    inputSchema: {
      type: 'object',
      $defs: { level: { type: 'string', enum: ['low', 'high'] } },
      properties: {
        count: { type: 'integer' },
        ratio: { type: 'number' },
        on: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        sizes: { type: 'array', items: { type: 'integer' } },
        options: { type: 'object' },
        maybe: { type: ['integer', 'null'] },
        either: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
        level: { $ref: '#/$defs/level' },
        anything: {},
        text: { type: 'string' },
      },
      required: ['count'],
    },
  };
  const coerce = (...pairs: string[]) => coerceToolArguments(tool, pairs);

  test('each type from its string', () => {
    assert.deepEqual(
      coerce('count=3', 'ratio=-0.5', 'on=yes', 'tags=a, b,c', 'sizes=[1,"2"]', 'options={"deep":{"x":1}}', 'maybe=null', 'either=false', 'level=high', 'anything=[1,2]', 'text={not json'),
      { count: 3, ratio: -0.5, on: true, tags: ['a', 'b', 'c'], sizes: [1, 2], options: { deep: { x: 1 } }, maybe: null, either: false, level: 'high', anything: [1, 2], text: '{not json' },
    );
    assert.deepEqual(coerce('count=1', 'tags=x', 'tags=y', 'anything=plain', 'maybe=7', 'tags='), { count: 1, tags: ['x', 'y'], anything: 'plain', maybe: 7 });
  });

  test('each misfit named', () => {
    const fails = (pattern: RegExp, ...pairs: string[]) => assert.throws(() => coerce(...pairs), (error: Error) => error.name === 'UsageError' && pattern.test(error.message));
    fails(/^kinds: count="three" is not a whole number$/, 'count=three');
    fails(/^kinds: ratio="1e" is not a number$/, 'count=1', 'ratio=1e');
    fails(/^kinds: on="maybe" is not true or false$/, 'count=1', 'on=maybe');
    fails(/^kinds: sizes="1,x" \(item 2\) is not a whole number$/, 'count=1', 'sizes=1,x');
    fails(/^kinds: sizes="\[1,true\]" \(item 2\) is not integer$/, 'count=1', 'sizes=[1,true]');
    fails(/^kinds: sizes="\[1," is not a JSON array/, 'count=1', 'sizes=[1,');
    fails(/^kinds: options="x=1" is not a JSON object/, 'count=1', 'options=x=1');
    fails(/^kinds: maybe="none" is not integer or null$/, 'count=1', 'maybe=none');
    fails(/^kinds: either="x" fits none of integer\|boolean$/, 'count=1', 'either=x');
    fails(/^kinds: level="medium" is not one of low, high$/, 'count=1', 'level=medium');
    fails(/^kinds: count is given twice$/, 'count=1', 'count=2');
    fails(/^kinds: missing required argument count \(integer\)$/, 'on=true');
  });

  test('the arguments as one JSON object: typed by the JSON, names and required ones checked', { timeout: 5_000 }, () => {
    assert.deepEqual(coerce('{"count": 2, "tags": ["a"], "options": {"x": 1}}'), { count: 2, tags: ['a'], options: { x: 1 } });
    const fails = (pattern: RegExp, word: string) => assert.throws(() => coerce(word), (error: Error) => error.name === 'UsageError' && pattern.test(error.message));
    fails(/^kinds has no argument "cuont" \(did you mean count\?\)/, '{"count": 1, "cuont": 2}');
    fails(/^kinds: missing required argument count/, '{"on": true}');
    fails(/^kinds: the arguments are not a JSON object/, '{"count": 1');
    fails(/^kinds: expected key=value \(or all the arguments as one JSON object/, 'count');
  });

  test('the real binary takes the JSON object as it is typed', { timeout: 30_000 }, async () => {
    const everything = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    const { code, stdout, stderr } = await byhandBinary({ cwd: ROOT }, 'call', '--tool', 'get-sum', '{"a": 1, "b": 2}', '--', process.execPath, everything, 'stdio');
    assert.equal(code, 0, stderr);
    assert.match(stdout, /The sum of 1 and 2 is 3\./);
  });
});

describe('byhand demo', () => {
  test('tells the finding end to end: the SDK refusal, input_required, the offline host, round 2', async () => {
    const io = streams('');
    // A key in the environment does not make the demo call a model: only BYHAND_PROVIDER does.
    const started = Date.now();
    const code = await demoCommand([], { ...io, env: { ANTHROPIC_API_KEY: 'sk-not-used' } });
    const out = io.stdout.text;
    assert.equal(code, 0, io.stderr.text);
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
    assert.equal(io.stderr.text, '');
    const steps = ['(1) The naive call.', '(2) The modern envelope.', '(3) The host thinks.', '(4) Round 2.'].map((step) => out.indexOf(step));
    assert.ok(steps.every((at, i) => at >= 0 && (i === 0 || at > steps[i - 1])), `steps in order: ${steps}`);
    const [naive, modern, thinks, round2] = [0, 1, 2, 3].map((i) => out.slice(steps[i], steps[i + 1] ?? out.length));
    assert.match(naive, /"method": "tools\/call"/);
    assert.match(naive, /"params": \{"name":"probe_sampling_naive","arguments":\{"topic":"soup"\}\}/);
    assert.match(naive.replace(/\s+/g, ' '), new RegExp(LEGACY_REFUSAL));
    assert.match(modern, /"io\.modelcontextprotocol\/protocolVersion": "2026-07-28"/);
    assert.match(modern, /"resultType": "input_required"/);
    assert.match(modern, /"method": "sampling\/createMessage"/);
    assert.match(thinks.replace(/\s+/g, ' '), /offline provider, which is not a language model and calls none/);
    assert.match(thinks, /model: byhand-offline \(not a model\) via offline \(this machine, no network\)/);
    assert.match(round2, /"inputResponses": \{/);
    assert.match(round2, /"model": "byhand-offline \(not a model\)"/);
    assert.match(round2, /"resultType": "complete"/);
    assert.match(round2, /Round 2 completed: the tool answered "model said: byhand offline provider/);
  });

  test('an unknown argument is exit 2', async () => {
    const io = streams('');
    assert.equal(await demoCommand(['--fast'], io), 2);
    assert.match(io.stderr.text, /^✗ byhand demo: unknown option --fast\nusage: byhand demo/);
  });
});
