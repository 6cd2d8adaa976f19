// byhand inspect in a real browser: the binary serves the page, Debian's Chromium opens it (test/support/browser.ts).
// Refused without the token and from a foreign Origin or Host; first paint under a second; a bundled toolbox, the
// SDK's servers over HTTP in both eras and over stdio; a generated form; an MRTR round on the wire answered by hand;
// an MCP App whose view is the official App class: rendered, calling a tool, refused a hidden one, its messages in
// the log, torn down in order. With BYHAND_UPDATE_SCREENSHOTS=1 the screenshots go to docs/images/ (the README's).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { after, before, describe, test } from './support/node-test.js';
import { launchChromium, type Browser, type Page } from './support/browser.js';
import { startByhand, until } from './support/cli.js';
import { fixtureScript } from './support/fixture-bundle.js';
import { fixtureHandler, serve, type Served } from './fixtures/sdk-server.js';
import { appsViewServer } from './fixtures/apps-view-server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'byhand-inspect-'));
const shots = process.env.BYHAND_UPDATE_SCREENSHOTS === '1' ? join(root, 'docs/images') : home;
after(() => rmSync(home, { recursive: true, force: true }));

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser?.close());

interface Inspecting {
  url: string;
  origin: string;
  token: string;
  page: Page;
}

/** `byhand inspect ARGS --no-open` as a user runs it, and a browser page on its URL; both closed after the test. */
async function inspect(t: { after(fn: () => unknown): void }, ...args: string[]): Promise<Inspecting> {
  const cli = startByhand(['inspect', ...args, '--no-open'], { cwd: home, env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') }, capMs: 120_000 });
  t.after(async () => {
    cli.child.kill('SIGINT');
    await cli.exit;
  });
  await until(() => /token=\w+\n/.test(cli.stdout()) || cli.child.exitCode !== null, 'the page URL', 30_000);
  const url = cli.stdout().trim().split('\n')[0];
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/, `no URL printed:\n${cli.stdout()}\n${cli.stderr()}`);
  const page = await browser.newPage();
  t.after(() => page.close());
  return { url, origin: new URL(url).origin, token: new URL(url).searchParams.get('token')!, page };
}

/** A raw request, so Host and Origin are whatever the test says. */
function raw(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

async function served(t: { after(fn: () => unknown): void }, handler: (request: Request) => Promise<Response>): Promise<Served> {
  const server = await serve(handler);
  t.after(() => server.close());
  return server;
}

async function tab(page: Page, name: string): Promise<void> {
  await page.locator(`nav [data-tab="${name}"]`).click();
}

async function callTool(page: Page, tool: string, fields: Record<string, string>): Promise<string> {
  await tab(page, 'Tools');
  const item = page.locator(`details[data-tool="${tool}"]`);
  await item.locator('summary').click();
  for (const [name, value] of Object.entries(fields)) await item.locator(`[name="${name}"]`).fill(value);
  await item.locator('button[type="submit"]').click();
  const result = item.locator('[data-testid="result"]');
  await result.waitFor({ timeout: 20_000 });
  return (await result.textContent()) ?? '';
}

describe('byhand inspect in Chromium', () => {
  test('the page and the API need the token; a foreign Origin or Host is refused, the page included', { timeout: 60_000 }, async (t) => {
    const port = await freePort();
    const { url, origin, token, page } = await inspect(t, 'probe', '--port', String(port));
    assert.equal(new URL(url).port, String(port), '--port is the page\'s port');
    const hostHeader = new URL(url).host;
    assert.equal((await raw(`${origin}/`, { host: hostHeader })).status, 401, 'the page without its token');
    assert.equal((await raw(`${origin}/?token=${'0'.repeat(64)}`, { host: hostHeader })).status, 401, 'a wrong token');
    assert.equal((await raw(url, { host: hostHeader })).status, 200);
    assert.equal((await raw(url, { host: `evil.example:${new URL(url).port}` })).status, 403, 'a rebound name in Host, the page included');
    assert.equal((await raw(url, { host: hostHeader, origin: 'http://evil.example' })).status, 403, 'a foreign Origin');
    assert.equal((await raw(`${origin}/api/state`, { host: hostHeader })).status, 401, 'the API without its token');
    assert.equal((await raw(`${origin}/api/state`, { host: hostHeader, 'x-byhand-token': token, origin: 'http://evil.example' })).status, 403);
    assert.equal((await raw(`${origin}/api/state`, { host: hostHeader, 'x-byhand-token': token })).status, 200);
    const refused = await page.goto(`${origin}/`);
    assert.equal(refused?.status(), 401);
  });

  test('opens with the token, first paint under a second, connected to a bundled toolbox in the modern era', { timeout: 60_000 }, async (t) => {
    const { url, page } = await inspect(t, 'probe');
    await page.goto(url);
    await page.locator('[data-testid="connection"]').waitFor({ timeout: 10_000 });
    const paint = await page.evaluate(() => performance.getEntriesByType('paint').find((p) => p.name === 'first-contentful-paint')?.startTime ?? -1);
    assert.ok(paint > 0 && paint < 1000, `first contentful paint at ${paint} ms`);
    const connection = (await page.locator('[data-testid="connection"]').textContent()) ?? '';
    assert.match(connection, /modern \(2026-07-28\)/);
    assert.match(connection, /found by trying: server\/discover answered/);
    assert.equal(await page.evaluate(() => location.search), '?token=' + new URL(url).searchParams.get('token'));

    await tab(page, 'Check');
    await page.locator('[data-panel="Check"] button.act').click();
    await page.locator('[data-testid="check"] [data-finding="era.discover"]').waitFor({ timeout: 60_000 });
    assert.match((await page.locator('[data-testid="check"]').textContent()) ?? '', /\d+ pass/);
  });

  test('a generated form, an MRTR round on the wire answered by hand, and the retry complete (the SDK server, modern)', { timeout: 60_000 }, async (t) => {
    const server = await served(t, fixtureHandler('modern-only'));
    const { url, page } = await inspect(t, server.url, '--header', 'Authorization: Bearer s3cr3t-inspect-token');
    await page.goto(url);
    await page.locator('[data-testid="connection"]').waitFor();
    assert.match(await callTool(page, 'echo', { text: 'hello from a form' }), /echo: hello from a form/);
    await tab(page, 'History');
    await page.locator('[data-panel="History"] > button').click();
    await page.locator('[data-panel="History"] .item button').first().click();
    await waitForText(page.locator('[data-testid="export"]'), /^byhand call http:\/\/127\.0\.0\.1:\d+\/mcp echo '\{"text":"hello from a form"\}'$/);

    await tab(page, 'Tools');
    const item = page.locator('details[data-tool="think"]');
    await item.locator('summary').click();
    await item.locator('[name="topic"]').fill('soup');
    await item.locator('button[type="submit"]').click();
    const question = page.locator('[data-question][data-kind="sampling"]');
    await question.waitFor({ timeout: 20_000 });
    assert.match((await question.textContent()) ?? '', /Think about soup/);
    await question.locator('[data-testid="sampling-text"]').fill('a warm thought');
    await question.locator('button.act').first().click();
    await item.locator('[data-testid="result"]').waitFor({ timeout: 20_000 });
    assert.match((await item.locator('[data-testid="result"]').textContent()) ?? '', /model said: a warm thought \(state topic=soup\)/);

    // A form the server asks for (elicitation), from its requestedSchema; a default the person left is sent too.
    await tab(page, 'Tools');
    const ask = page.locator('details[data-tool="ask_name"]');
    await ask.locator('summary').click();
    await ask.locator('button[type="submit"]').click();
    const form = page.locator('[data-question][data-kind="elicitation"]');
    await form.waitFor({ timeout: 20_000 });
    await form.locator('[name="name"]').fill('Ada');
    await form.locator('button').first().click();
    await ask.locator('[data-testid="result"]').waitFor({ timeout: 20_000 });
    assert.match((await ask.locator('[data-testid="result"]').textContent()) ?? '', /hello Ada \(curious\)/);

    await tab(page, 'Wire');
    const wireText = (await page.locator('[data-testid="wire"]').textContent()) ?? '';
    assert.ok(!wireText.includes('s3cr3t-inspect-token'), 'the credential never reaches the page');
    assert.match(wireText, /Authorization\(redacted\)/);
    const call = page.locator('.wire-call[data-call]').locator('text=think').first();
    await call.waitFor();
    const rounds = await page.locator('[data-testid="round"]').allTextContents();
    assert.ok(rounds.some((r) => /round 1: the server asked for answer \(input_required\), requestState "topic=soup"/.test(r)), rounds.join('\n'));
    assert.ok(rounds.some((r) => /round 1: answered answer; the retry carries them as params.inputResponses with params.requestState/.test(r)), rounds.join('\n'));
    const placement = await page.locator('[data-testid="placement"]').allTextContents();
    assert.deepEqual([...new Set(placement)].sort(), ['inputResponses at params', 'requestState at params']);
    // The retry opened, so the screenshot shows its body: the answers beside name and arguments, the envelope in _meta.
    await page.locator('details.wire-entry:has([data-testid="placement"]) > summary').first().click();
    await page.screenshot({ path: join(shots, 'inspect-wire.png') });
  });

  test('an MCP App: the official App class as the view, a tool called, a hidden one refused, its messages logged, torn down in order', { timeout: 90_000 }, async (t) => {
    const server = await served(t, createMcpHandler(appsViewServer, { legacy: 'reject' }).fetch);
    const { url, page } = await inspect(t, server.url);
    await page.goto(url);
    await page.locator('[data-testid="connection"]').waitFor();

    await tab(page, 'Tools');
    assert.equal(await page.locator('details[data-tool="echo_for_app"]').count(), 0, 'an app-only tool is not in the list a model is shown');
    assert.equal(await page.locator('details[data-tool="model_only"]').count(), 1);

    await tab(page, 'Apps');
    await page.locator('[data-panel="Apps"] [name="who"]').fill('Ada');
    await page.locator('[data-panel="Apps"] button[type="submit"]').click();
    const view = page.frameLocator('iframe.app-frame').frameLocator('iframe');
    const out = view.locator('#out');
    await view.locator('text=connected to byhand inspect').waitFor({ timeout: 30_000 });
    await waitForText(out, /tool-result \{"greeting":"hello Ada"\}/);
    // The CSP's own reports aside (zod probes for eval, which the default policy refuses: the App runs jitless).
    const heard = ((await out.textContent()) ?? '').split('\n').filter((line) => line !== '' && !line.startsWith('csp blocked'));
    assert.deepEqual(heard.slice(0, 2), ['tool-input {"who":"Ada"}', 'tool-result {"greeting":"hello Ada"}']);

    await view.locator('#call-app').click();
    await waitForText(out, /called app said: from the view/);
    await view.locator('#call-model').click();
    await waitForText(out, /refused .*model_only is not visible to apps/);
    await view.locator('#message').click();
    await waitForText(out, /message sent/);
    await view.locator('#context').click();
    await waitForText(out, /context updated/);
    await view.locator('#reach').click();
    await waitForText(out, /csp blocked connect-src https:\/\/undeclared\.example/);
    await page.screenshot({ path: join(shots, 'inspect-app.png') });

    await view.locator('#close').click();
    await page.locator('[data-testid="app"][data-app-status="torn-down"]').waitFor({ timeout: 10_000 });

    await tab(page, 'Log');
    const kinds = (await page.locator('[data-testid="log"] > [data-kind]').allTextContents()).reverse();
    // The log shows the newest first.
    const order = (await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-testid="log"] > [data-kind]')].map((e) => e.dataset.kind ?? '')))
      .reverse()
      .filter((k) => k.startsWith('app: '))
      .map((k) => k.slice('app: '.length));
    const firsts = ['csp', 'ui/notifications/sandbox-proxy-ready', 'ui/notifications/sandbox-resource-ready', 'ui/initialize', 'ui/notifications/initialized', 'ui/notifications/tool-input', 'ui/notifications/tool-result'];
    assert.deepEqual(order.filter((k) => firsts.includes(k)).slice(0, firsts.length), firsts, order.join(' > '));
    assert.ok(order.indexOf('ui/notifications/request-teardown') < order.lastIndexOf('ui/resource-teardown'), order.join(' > '));
    const log = kinds.join('\n');
    assert.match(log, /app: ui\/message[\s\S]*hello from the view/);
    assert.match(log, /app: ui\/update-model-context[\s\S]*the view shows the fixture/);
    assert.match(log, /app: refused[\s\S]*model_only/);
    assert.match(log, /connect-src https:\/\/api\.example\.com/, 'the declared domain, and only it');
    assert.doesNotMatch(log, /connect-src[^;]*\*/);
  });

  test('no SERVER given: one is picked in the page; the page can name a server, never start a command line', { timeout: 60_000 }, async (t) => {
    // --transport stdio would run a bare word as a command: a word from the page is refused all the same.
    const { url, origin, token, page } = await inspect(t, '--transport', 'stdio');
    await page.goto(url);
    await page.locator('[data-panel="Connection"] select').selectOption('week');
    await page.locator('[data-panel="Connection"] button.act').click();
    await page.locator('[data-testid="connection"]').waitFor({ timeout: 20_000 });
    assert.match((await page.locator('[data-testid="connection"]').textContent()) ?? '', /week, bundled/);
    for (const server of ['node -e 1', 'node']) {
      const refused = await fetch(`${origin}/api/connect`, { method: 'POST', headers: { 'x-byhand-token': token, 'content-type': 'application/json' }, body: JSON.stringify({ server }) });
      assert.equal(refused.status, 400);
      const { error } = (await refused.json()) as { error: { message: string; hint: string } };
      assert.match(error.message, /is neither a server in the list nor an http\(s\) URL/);
      assert.match(error.hint, /byhand inspect -- COMMAND/);
    }
  });

  test("The Week's own view, in the legacy era: its table from the tool's result, a day's details from the app-only tool, a message to the conversation", { timeout: 60_000 }, async (t) => {
    const { url, page } = await inspect(t, 'week', '--era', 'legacy');
    await page.goto(url);
    await page.locator('[data-testid="connection"]').waitFor();
    await tab(page, 'Apps');
    await page.locator('[data-panel="Apps"] button[type="submit"]').click();
    const view = page.frameLocator('iframe.app-frame').frameLocator('iframe');
    await view.locator('tr[data-day="Wednesday"]').click({ timeout: 20_000 });
    await waitForText(view.locator('#details'), /^Wednesday: pasta with tomato and garlic, to buy: basil\.$/);
    await view.locator('#ask').click();
    await tab(page, 'Log');
    await waitForText(page.locator('[data-testid="log"]'), /app: ui\/message[\s\S]*What could I cook instead of pasta with tomato and garlic on Wednesday\?/);
  });

  test('a stdio server and a legacy server', { timeout: 90_000 }, async (t) => {
    const stdio = await inspect(t, '--', process.execPath, fixtureScript('test/fixtures/sdk-stdio-server.ts'), 'serve');
    await stdio.page.goto(stdio.url);
    await stdio.page.locator('[data-testid="connection"]').waitFor();
    const connection = (await stdio.page.locator('[data-testid="connection"]').textContent()) ?? '';
    assert.match(connection, /transportstdio/);
    assert.match(connection, /server stderrfixture stdio server \(serve\) started/, 'a stdio server\'s stderr');
    assert.match(await callTool(stdio.page, 'echo', { text: 'over stdio' }), /echo: over stdio/);

    const legacy = await served(t, fixtureHandler('legacy-session'));
    const old = await inspect(t, legacy.url);
    await old.page.goto(old.url);
    await old.page.locator('[data-testid="connection"]').waitFor();
    assert.match((await old.page.locator('[data-testid="connection"]').textContent()) ?? '', /legacy \(2025-11-25\)/);
    assert.match(await callTool(old.page, 'echo', { text: 'in 2025' }), /echo: in 2025/);
    await tab(old.page, 'Wire');
    assert.ok((await old.page.locator('[data-testid="wire"]').textContent())?.includes('initialize'));
  });
});

/** A port the system had free a moment ago, for --port. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

async function waitForText(locator: { textContent(): Promise<string | null> }, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const text = (await locator.textContent()) ?? '';
    if (pattern.test(text)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} in:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
