// `byhand checkpoint` over 1, 50 and 200 servers: the real binary in a child process, each server a loopback
// endpoint that holds every answer 200 ms and then answers with the Probe toolbox's own answer for that method
// (recorded once, so the servers' CPU does not blur the checkpoint's). A probe waits twice in sequence
// (server/discover, then the lists in parallel), so every server takes 2 x 200 ms, and the whole run should take
// about as long as one server alone. Beside it, the floor (bench/checkpoint-floor.js): the same requests per server
// over bare node:http, no MCP library, run alternately with byhand at each count.

import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR, dist, ROOT, fig, fileUrl, ms, runNode, times } from './lib.js';
/** @import { Server } from 'node:http' */
/** @import { AddressInfo } from 'node:net' */
/** @import { BenchOptions, Cell, Goal, Section } from './lib.js' */

const COUNTS = [1, 50, 200];
const DELAY_MS = 200;
/** byhand's wall / the floor's, at the same count. */
const TARGET = 1.05;

/**
 * @param {BenchOptions} options
 * @returns {Promise<Section>}
 */
export async function checkpointBenchmark(options) {
  const started = performance.now();
  const { createProbe } = /** @type {typeof import('@byhand/servers')} */ (await import(fileUrl(dist('servers', 'index.js'))));
  const probe = createProbe();
  /** @type {Map<string, { status: number, headers: Record<string, string>, text: string }>} */
  const canned = new Map();
  /** @type {{ server: Server, url: string }[]} */
  const servers = [];
  const scratch = mkdtempSync(join(tmpdir(), 'byhand-bench-checkpoint-'));
  /** @type {Cell[][]} */
  const rows = [];
  /** @type {Goal[]} */
  const goals = [];
  /**
   * Every run's wall time, by count and variant.
   * @type {Record<number, { byhand: number[], floor: number[] }>}
   */
  const raw = {};
  try {
    for (let i = 0; i < Math.max(...COUNTS); i++) {
      const server = createServer(async (req, res) => {
        const due = performance.now() + DELAY_MS;
        let body = '';
        for await (const chunk of req) body += chunk;
        // The answer is made during the hold, not after it: 200 answers fall due at once, and work done then by
        // this one process would be counted against the checkpoint (200 real servers answer in parallel).
        /** @type {{ id: string | number, method: string }} */
        const message = JSON.parse(body);
        let answer = canned.get(message.method);
        if (answer === undefined) {
          const response = await probe.fetch(new Request('http://127.0.0.1/api/probe', { method: 'POST', headers: /** @type {Record<string, string>} */ (req.headers), body }));
          answer = { status: response.status, headers: Object.fromEntries(response.headers), text: (await response.text()).replace(/"id":\d+/, '"id":"__ID__"') };
          canned.set(message.method, answer);
        }
        const text = answer.text.replace('"__ID__"', JSON.stringify(message.id));
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
        res.writeHead(answer.status, answer.headers);
        res.end(text);
      });
      await /** @type {Promise<void>} */ (new Promise((r) => server.listen(0, '127.0.0.1', r)));
      servers.push({ server, url: `http://127.0.0.1:${/** @type {AddressInfo} */ (server.address()).port}/api/probe` });
    }
    const repeats = options.quick ? 1 : 3;
    /** @param {string} file */
    const byhand = (file) => [join(ROOT, 'packages', 'byhand', 'bin', 'byhand.js'), 'checkpoint', '--config', file, '--json'];
    /** @param {string} file */
    const floor = (file) => [join(BENCH_DIR, 'checkpoint-floor.js'), file];
    /**
     * Best wall time of byhand and of the floor over `count` servers, the two run alternately.
     * @param {number} count
     */
    const measure = async (count) => {
      const file = join(scratch, `servers-${count}.json`);
      writeFileSync(file, JSON.stringify({ mcpServers: Object.fromEntries(servers.slice(0, count).map((s, i) => [`server-${i}`, { url: s.url }])) }));
      /** @type {{ byhand: number[], floor: number[] }} */
      const walls = { byhand: [], floor: [] };
      for (let r = 0; r < repeats; r++) {
        for (const variant of /** @type {('byhand' | 'floor')[]} */ (r % 2 === 0 ? ['byhand', 'floor'] : ['floor', 'byhand'])) {
          const { ms: wall, stdout } = await runNode(variant === 'byhand' ? byhand(file) : floor(file), { timeoutMs: 60_000 });
          const ok = variant === 'byhand' ? stdout.trim().split('\n').filter((line) => JSON.parse(line).ok).length : Number(stdout.trim());
          if (ok !== count) throw new Error(`${variant} over ${count} servers: only ${ok} ok`);
          walls[variant].push(wall);
        }
      }
      raw[count] = walls;
      return { byhand: Math.min(...walls.byhand), floor: Math.min(...walls.floor) };
    };
    const alone = await measure(1);
    for (const count of COUNTS) {
      const wall = count === 1 ? alone : await measure(count);
      rows.push([
        String(count),
        ms(count * 2 * DELAY_MS),
        fig(wall.byhand, ms),
        fig(wall.byhand / alone.byhand, times),
        fig(wall.floor, ms),
        fig(wall.floor / alone.floor, times),
        fig(wall.byhand / wall.floor, times),
        count === 1 ? '' : fig((wall.byhand - alone.byhand) / (count - 1), ms),
        count === 1 ? '' : fig((wall.floor - alone.floor) / (count - 1), ms),
      ]);
      // Start-up is the CLI's own (config discovery, its modules): what the target reads is how each grows with the servers.
      if (count > 1) {
        goals.push({
          label: `${count} servers: checkpoint's growth from one server / the bare prober's, at most ${TARGET}x`,
          figure: fig(wall.byhand / alone.byhand / (wall.floor / alone.floor), times),
          met: (x) => x <= TARGET,
        });
      }
    }
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.server.close(r))));
    await probe.close?.();
    rmSync(scratch, { recursive: true, force: true });
  }
  return {
    title: 'Checkpoint: 1, 50 and 200 servers, each 2 x 200 ms',
    header: ['servers', "sum of all servers' waits", 'checkpoint wall (best of a run)', 'checkpoint / one server alone', 'floor: bare prober wall', 'floor / floor alone', 'checkpoint / floor', 'checkpoint: added per server', 'floor: added per server'],
    rows,
    goals,
    notes: [
      `Each row is a fresh \`byhand checkpoint --config FILE --json\` process (start-up included), at the default bounds (256 HTTP probes, 16 stdio probes at once), best of ${options.quick ? 1 : 3} alternating runs; the floor (bench/checkpoint-floor.js) is a fresh node process doing the same requests per server (server/discover, then the lists the capabilities offer, at once) over bare node:http.`,
      'The servers run in the benchmark process (idle otherwise while a run is measured), on the same two cores; each makes its answer while it holds the request, so only the write is left when 200 answers fall due together.',
    ],
    seconds: (performance.now() - started) / 1000,
    raw,
  };
}
