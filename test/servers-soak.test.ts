// Soak: honest clients writing and reading the Cookie Jar while hostile connections (dripped bodies, oversized
// bodies, methods and targets the web constructors refuse, broken JSON, an initialize flood, bodies abandoned halfway)
// hit the same server. Bounded in count and time, loopback only. Afterwards every acknowledged write must be there,
// the server process alive, and its memory back near where it started.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { fixtureScript } from './support/fixture-bundle.js';
import { test } from './support/node-test.js';
import { cleanupAfter } from './support/cleanup.js';
import { initializeParams, legacyRpc, modernRpc, type WireAnswer } from './servers-support.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const fixture = fixtureScript('test/fixtures/soak-server.ts');

const WRITERS = 6;
const LEGACY_WRITERS = 2;
const WRITES_EACH = 12;
// Well above undici's one-second keep-alive margin: the server closes idle kept-alive connections at the deadline minus
// half a second, and a shorter deadline would race the client reusing them.
const BODY_TIMEOUT_MS = 3000;
const MAX_BODY_BYTES = 64 * 1024;
// Long enough that an honest 2025 writer pausing between requests on a busy machine keeps its session (at 1.5 s one
// lost it under load), short enough that the flood's sessions are swept within the test.
const SESSION_IDLE_MS = 6000;
/** How far above the warmed-up baseline the server may end, after a full GC. */
const HEAP_SLACK = 16 * 1024 * 1024;
const RSS_SLACK = 96 * 1024 * 1024;

interface Memory {
  heapUsed: number;
  rss: number;
}

interface Server {
  child: ChildProcess;
  port: number;
  jar: string;
  memory(): Promise<Memory>;
  close(): Promise<void>;
}

async function spawnServer(): Promise<Server> {
  const options = { toolboxes: ['cookie-jar'], maxBodyBytes: MAX_BODY_BYTES, bodyTimeoutMs: BODY_TIMEOUT_MS, sessionIdleMs: SESSION_IDLE_MS };
  const child = spawn(process.execPath, ['--expose-gc', fixture, JSON.stringify(options)], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await exited;
  };
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`the server exited early (${code})`)));
    setTimeout(() => reject(new Error('the server did not start')), 30_000).unref();
  }).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  const { urls } = JSON.parse(line) as { urls: Record<string, string> };
  const jar = urls['cookie-jar'];
  return {
    child,
    port: Number(new URL(jar).port),
    jar,
    memory: () =>
      new Promise<Memory>((resolve) => {
        child.once('message', (m) => resolve(m as Memory));
        child.send('memory');
      }),
    close,
  };
}

/**
 * The honest clients (fetch) come from 127.0.0.1; each kind of hostile connection from an address of its own, as
 * several attackers would: serve caps the connections one address holds (`maxConnectionsPerAddress`), so a flood
 * sharing the honest clients' address would be cut at accept along with them.
 */
const ATTACKER = { raw: '127.0.0.2', drip: '127.0.0.3', abandon: '127.0.0.4' };

/** One raw exchange; resolves with what came back when the server closes, or after `waitMs`. */
function raw(port: number, text: string, waitMs = BODY_TIMEOUT_MS * 2): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: ATTACKER.raw }, () => socket.write(text));
    let received = '';
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}

/** A body dripped one byte every 50 ms; resolves with what the server said before cutting it, and when. */
function drip(port: number): Promise<{ text: string; afterMs: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: ATTACKER.drip });
    let received = '';
    const dripper = setInterval(() => socket.write('x'), 50);
    const guard = setTimeout(() => socket.destroy(), BODY_TIMEOUT_MS * 5);
    socket.write('POST /api/cookie-jar HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(dripper);
      clearTimeout(guard);
      resolve({ text: received, afterMs: Date.now() - started });
    });
  });
}

/** Half a body, then gone. */
function abandon(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: ATTACKER.abandon }, () => {
      socket.write('POST /api/cookie-jar HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"jsonrpc":"2.0",');
      setTimeout(() => socket.destroy(), 20);
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(''));
  });
}

const HOSTILE_REQUESTS = [
  'TRACE /api/cookie-jar HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
  'GET http://[oops/api/cookie-jar HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
  'BREW /api/cookie-jar HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
  'POST /api/cookie-jar HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{"jsonrp',
  'POST /api/cookie-jar HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
];

/**
 * An oversized POST (its length declared, the whole body written) on a connection of its own: the status the server
 * answered, or the socket's error. Not fetch: its pool hands the first requests of a burst the connections left idle,
 * and one the server closes as the upload starts fails with EPIPE (the keep-alive race, RFC 9112 §9.3.1), which says
 * nothing of how the server treats the body. In CI four failed so, and they were the burst's first four.
 */
function oversized(port: number): Promise<number | string> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(MAX_BODY_BYTES * 8) } });
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let received = '';
    let failed: string | undefined;
    const timer = setTimeout(() => socket.destroy(), BODY_TIMEOUT_MS * 5);
    const done = () => {
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1];
      // A reset before the whole answer came is a failure even when the status line made it: fetch would lose it.
      resolve(failed ?? (status !== undefined ? Number(status) : `nothing answered: ${JSON.stringify(received.slice(0, 60))}`));
    };
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      // The whole answer (its chunked body's last chunk): the client is done with the connection.
      if (received.includes('\r\n0\r\n\r\n')) socket.destroy();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (failed ??= error.code ?? error.message));
    socket.on('close', () => {
      clearTimeout(timer);
      done();
    });
    socket.write(`POST /api/cookie-jar HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
    socket.write(body);
  });
}

async function initializeFlood(jar: string, count: number): Promise<void> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() });
  const post = () => fetch(jar, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body }).then((r) => r.arrayBuffer());
  for (let i = 0; i < count; i += 10) {
    // Sent again once when fetch reused a kept-alive connection the server was closing (the keep-alive race, as for
    // the legacy writers): a flood that cannot open its sessions fails, one reset does not.
    await Promise.all(Array.from({ length: 10 }, () => post().catch(post)));
  }
}

interface Acknowledged {
  id: number;
  text: string;
}

interface Writes {
  acknowledged: Acknowledged[];
  attempts: number;
  /** Why each write that was not acknowledged was not, for the assertion's message. */
  refused: string[];
}

/** The note's id when the write was acknowledged, or why it was not. */
function outcome(put: WireAnswer | Error): number | string {
  if (put instanceof Error) return `${put.message}${put.cause instanceof Error ? ` (${put.cause.message})` : ''}`;
  const id: unknown = put.body?.result?.structuredContent?.note?.id;
  if (put.status === 200 && typeof id === 'number' && put.body?.result?.isError !== true) return id;
  return `${put.status} ${JSON.stringify(put.body ?? put.raw).slice(0, 120)}`;
}

/**
 * A write fetch could not deliver because the kept-alive connection it reused was being closed by the server (the
 * keep-alive race, RFC 9112 §9.3.1: the socket closed or reset with no answer) is sent once more, as the flood's
 * initializes are; fetch does not retry a POST itself. Under a loaded CI run honest writes met it ("other side
 * closed"), enough to fail the soak. Any other failure, or a second one, is the write's outcome.
 */
async function onceMoreAfterRace(send: () => Promise<WireAnswer>): Promise<WireAnswer | Error> {
  try {
    return await send();
  } catch (error) {
    const code = ((error as Error).cause as { code?: string } | undefined)?.code;
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET' && code !== 'EPIPE') return error as Error;
    return send().catch((again: Error) => again);
  }
}

async function modernWriter(jar: string, w: number): Promise<Writes> {
  const writes: Writes = { acknowledged: [], attempts: WRITES_EACH, refused: [] };
  for (let i = 0; i < WRITES_EACH; i++) {
    const text = `soak modern ${w}/${i}`;
    const put = await onceMoreAfterRace(() => modernRpc(jar, 'tools/call', { name: 'put_note', arguments: { text, ttl_seconds: 3600 } }));
    record(writes, put, text);
    if (i % 3 === 2) await modernRpc(jar, 'tools/call', { name: 'list_notes', arguments: {} }).catch(() => undefined);
  }
  return writes;
}

function record(writes: Writes, put: WireAnswer | Error, text: string): void {
  const id = outcome(put);
  if (typeof id === 'number') writes.acknowledged.push({ id, text });
  else writes.refused.push(id);
}

async function legacyWriter(jar: string, w: number): Promise<Writes> {
  const writes: Writes = { acknowledged: [], attempts: WRITES_EACH, refused: [] };
  // A kept-alive connection the server closes as this request reuses it is reset (the keep-alive race, RFC 9112
  // §9.3.1); under load the race window widens. A session that was never opened is opened again, as a client would.
  const init = await legacyRpc(jar, 'initialize', initializeParams()).catch(() => legacyRpc(jar, 'initialize', initializeParams()));
  const sessionId = init.headers.get('mcp-session-id');
  assert.ok(sessionId, `legacy writer ${w} got a session`);
  await legacyRpc(jar, 'notifications/initialized', {}, sessionId, true);
  for (let i = 0; i < WRITES_EACH; i++) {
    const text = `soak legacy ${w}/${i}`;
    const put = await onceMoreAfterRace(() => legacyRpc(jar, 'tools/call', { name: 'put_note', arguments: { text, ttl_seconds: 3600 } }, sessionId));
    record(writes, put, text);
    if (i % 3 === 2) await legacyRpc(jar, 'resources/read', { uri: 'jar://notes' }, sessionId).catch(() => undefined);
  }
  return writes;
}

/** Every note the jar lists, page by page (list_notes pages by `after`, the previous page's `next`). */
async function listedNotes(jar: string): Promise<Map<number, string>> {
  const notes = new Map<number, string>();
  let after = 0;
  for (let page = 0; page < 100; page++) {
    const listed = await modernRpc(jar, 'tools/call', { name: 'list_notes', arguments: { after, limit: 100 } });
    assert.equal(listed.status, 200);
    const content = listed.body?.result?.structuredContent as { notes?: Array<{ id: number; text: string }>; next?: number } | undefined;
    for (const note of content?.notes ?? []) notes.set(note.id, note.text);
    if (content?.next === undefined) break;
    after = content.next;
  }
  return notes;
}

async function settledMemory(server: Server, baseline: Memory): Promise<Memory> {
  // Flooded sessions are swept after SESSION_IDLE_MS; poll (bounded) rather than sleep a guessed time.
  const deadline = Date.now() + SESSION_IDLE_MS * 6;
  let memory = await server.memory();
  while (Date.now() < deadline && (memory.heapUsed > baseline.heapUsed + HEAP_SLACK || memory.rss > baseline.rss + RSS_SLACK)) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    memory = await server.memory();
  }
  return memory;
}

test('soak: honest writers and readers beside hostile connections', { timeout: 120_000 }, async (t) => {
  const server = cleanupAfter(t)(await spawnServer());
  // Warm up every path once, so the baseline includes the code, not just an idle process.
  await modernWriter(server.jar, 99);
  await Promise.all([oversized(server.port), ...HOSTILE_REQUESTS.map((r) => raw(server.port, r)), initializeFlood(server.jar, 10)]);
  const baseline = await server.memory();

  const [writes, drips, oversizedAnswers, hostileAnswers] = await Promise.all([
    Promise.all([
      ...Array.from({ length: WRITERS }, (_, w) => modernWriter(server.jar, w)),
      ...Array.from({ length: LEGACY_WRITERS }, (_, w) => legacyWriter(server.jar, w)),
    ]),
    Promise.all(Array.from({ length: 20 }, () => drip(server.port))),
    Promise.all(Array.from({ length: 20 }, () => oversized(server.port))),
    Promise.all(Array.from({ length: 8 }, () => Promise.all(HOSTILE_REQUESTS.map((r) => raw(server.port, r))))).then((rounds) => rounds.flat()),
    initializeFlood(server.jar, 200),
    Promise.all(Array.from({ length: 20 }, () => abandon(server.port))),
  ]);

  assert.equal(server.child.exitCode, null, 'the server process is alive');
  assert.equal(server.child.signalCode, null);
  for (const { text, afterMs } of drips) {
    // The 408 may be lost to the reset that closing on a client still sending causes; the cut itself is what counts.
    assert.match(text, /^(HTTP\/1\.1 408 [^]*)?$/, 'a dripped body gets nothing but a 408');
    assert.ok(afterMs < BODY_TIMEOUT_MS * 3, `a dripped body is cut near the deadline (${afterMs} ms)`);
  }
  assert.deepEqual(oversizedAnswers, Array(20).fill(413), 'each oversized body gets its 413');
  for (const answer of hostileAnswers) assert.match(answer, /^HTTP\/1\.1 4\d\d/, `a hostile request gets a 4xx: ${answer.slice(0, 60)}`);

  const acknowledged = writes.flatMap((w) => w.acknowledged);
  const attempts = writes.reduce((sum, w) => sum + w.attempts, 0);
  assert.ok(acknowledged.length >= attempts * 0.95, `${acknowledged.length} of ${attempts} honest writes acknowledged; the others: ${writes.flatMap((w) => w.refused).join('; ')}`);
  const present = await listedNotes(server.jar);
  for (const note of acknowledged) assert.equal(present.get(note.id), note.text, `acknowledged note #${note.id} is present`);

  const after = await settledMemory(server, baseline);
  assert.ok(after.heapUsed <= baseline.heapUsed + HEAP_SLACK, `heapUsed ${after.heapUsed} vs baseline ${baseline.heapUsed}`);
  assert.ok(after.rss <= baseline.rss + RSS_SLACK, `rss ${after.rss} vs baseline ${baseline.rss}`);
  const listed = await modernRpc(server.jar, 'tools/list');
  assert.equal(listed.status, 200, 'still serving');
});
