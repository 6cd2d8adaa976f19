// `byhand checkpoint` over 1, 10 and 50 servers: the real binary in a child process, each server a
// loopback endpoint in front of the Probe toolbox that holds every answer for its own delay. The
// probes run concurrently, so the total should follow the slowest server, not the sum of them all.

import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dist, ROOT, fileUrl, ms, ratio, runNode } from './lib.js';

const COUNTS = [1, 10, 50];
// Each server's per-request delay: server 0 is the slowest, the rest are spread below it.
const delayFor = (i) => (i === 0 ? 200 : 40 + (i % 4) * 40);
// A probe waits twice in sequence: server/discover, then the three lists in parallel.
const WAITS_PER_PROBE = 2;

export async function checkpointBenchmark(options) {
  const started = performance.now();
  const { createProbe } = await import(fileUrl(dist('servers', 'index.js')));
  const { toWebRequest, writeWebResponse } = await import(fileUrl(dist('servers', 'node-adapter.js')));
  const probe = createProbe();
  const servers = [];
  const scratch = mkdtempSync(join(tmpdir(), 'byhand-bench-checkpoint-'));
  const rows = [];
  let alone = NaN;
  try {
    for (let i = 0; i < Math.max(...COUNTS); i++) {
      const delay = delayFor(i);
      const server = createServer(async (req, res) => {
        await new Promise((r) => setTimeout(r, delay));
        const { port } = server.address();
        await writeWebResponse(await probe.fetch(toWebRequest(req, res, `http://127.0.0.1:${port}`)), res);
      });
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      servers.push({ server, delay, url: `http://127.0.0.1:${server.address().port}/api/probe` });
    }
    const repeats = options.quick ? 1 : 3;
    const checkpoint = async (count, concurrency) => {
      const file = join(scratch, `servers-${count}.json`);
      writeFileSync(file, JSON.stringify({ mcpServers: Object.fromEntries(servers.slice(0, count).map((s, i) => [`server-${i}`, { url: s.url }])) }));
      const walls = [];
      for (let r = 0; r < repeats; r++) {
        const { ms: wall, stdout } = await runNode([join(ROOT, 'packages', 'byhand', 'bin', 'byhand.js'), 'checkpoint', '--config', file, '--json', '--concurrency', String(concurrency)], { timeoutMs: 60_000 });
        const ok = stdout.trim().split('\n').filter((line) => JSON.parse(line).ok).length;
        if (ok !== count) throw new Error(`checkpoint of ${count} servers: only ${ok} ok`);
        walls.push(wall);
      }
      return Math.min(...walls);
    };
    alone = await checkpoint(1, 1);
    for (const count of COUNTS) {
      const sum = servers.slice(0, count).reduce((total, s) => total + s.delay * WAITS_PER_PROBE, 0);
      for (const concurrency of new Set([Math.min(8, count), Math.min(32, count), count])) {
        const wall = count === 1 ? alone : await checkpoint(count, concurrency);
        rows.push([String(count), String(concurrency), ms(sum), ms(wall), ms(wall - alone), ratio(sum, wall - alone + servers[0].delay * WAITS_PER_PROBE)]);
      }
    }
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.server.close(r))));
    await probe.close?.();
    rmSync(scratch, { recursive: true, force: true });
  }
  return {
    title: 'Checkpoint: 1, 10 and 50 servers',
    header: ['servers', 'concurrency', 'sum of all servers\' waits', 'checkpoint wall (best of runs)', 'wall minus the slowest server alone', 'sum / waited'],
    rows,
    targets: [`total time grows with the slowest server, not with the sum: the slowest server alone takes ${ms(alone)} (start-up included); "wall minus the slowest server alone" is what the other servers added`],
    notes: [
      'Each row is a fresh `byhand checkpoint --config FILE --json` process (start-up included). Every server answers each request after its own delay (the slowest 200 ms, the others 40-160 ms); a probe waits twice in sequence (server/discover, then the lists in parallel). "sum / waited" is the sum of the waits over the time the run spent waiting beyond start-up.',
    ],
    seconds: (performance.now() - started) / 1000,
  };
}
