// `byhand checkpoint` over 1, 50 and 200 servers: the real binary in a child process, each server a loopback
// endpoint that holds every answer 200 ms and then answers with the Probe toolbox's own answer for that method
// (recorded once, so the servers' CPU does not blur the checkpoint's). A probe waits twice in sequence
// (server/discover, then the lists in parallel), so every server takes 2 x 200 ms, and the whole run should take
// about as long as one server alone.

import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dist, ROOT, fileUrl, ms, ratio, runNode } from './lib.js';

const COUNTS = [1, 50, 200];
const DELAY_MS = 200;
const TARGET = 1.2;

export async function checkpointBenchmark(options) {
  const started = performance.now();
  const { createProbe } = await import(fileUrl(dist('servers', 'index.js')));
  const probe = createProbe();
  const canned = new Map();
  const servers = [];
  const scratch = mkdtempSync(join(tmpdir(), 'byhand-bench-checkpoint-'));
  const rows = [];
  try {
    for (let i = 0; i < Math.max(...COUNTS); i++) {
      const server = createServer(async (req, res) => {
        let body = '';
        for await (const chunk of req) body += chunk;
        await new Promise((r) => setTimeout(r, DELAY_MS));
        const message = JSON.parse(body);
        let answer = canned.get(message.method);
        if (answer === undefined) {
          const response = await probe.fetch(new Request('http://127.0.0.1/api/probe', { method: 'POST', headers: req.headers, body }));
          answer = { status: response.status, headers: Object.fromEntries(response.headers), text: (await response.text()).replace(/"id":\d+/, '"id":"__ID__"') };
          canned.set(message.method, answer);
        }
        res.writeHead(answer.status, answer.headers);
        res.end(answer.text.replace('"__ID__"', JSON.stringify(message.id)));
      });
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      servers.push({ server, url: `http://127.0.0.1:${server.address().port}/api/probe` });
    }
    const repeats = options.quick ? 1 : 3;
    const checkpoint = async (count) => {
      const file = join(scratch, `servers-${count}.json`);
      writeFileSync(file, JSON.stringify({ mcpServers: Object.fromEntries(servers.slice(0, count).map((s, i) => [`server-${i}`, { url: s.url }])) }));
      const walls = [];
      for (let r = 0; r < repeats; r++) {
        const { ms: wall, stdout } = await runNode([join(ROOT, 'packages', 'byhand', 'bin', 'byhand.js'), 'checkpoint', '--config', file, '--json'], { timeoutMs: 60_000 });
        const ok = stdout.trim().split('\n').filter((line) => JSON.parse(line).ok).length;
        if (ok !== count) throw new Error(`checkpoint of ${count} servers: only ${ok} ok`);
        walls.push(wall);
      }
      return Math.min(...walls);
    };
    const alone = await checkpoint(1);
    for (const count of COUNTS) {
      const wall = count === 1 ? alone : await checkpoint(count);
      const times = wall / alone;
      rows.push([String(count), ms(count * 2 * DELAY_MS), ms(wall), ratio(wall, alone), times <= TARGET ? 'met' : '**not met**']);
    }
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.server.close(r))));
    await probe.close?.();
    rmSync(scratch, { recursive: true, force: true });
  }
  return {
    title: 'Checkpoint: 1, 50 and 200 servers, each 2 x 200 ms',
    header: ['servers', "sum of all servers' waits", 'checkpoint wall (best of runs)', 'wall / one server alone', `target ≤ ${TARGET}x`],
    rows,
    targets: [`the whole run within ${TARGET}x of one server alone (default bounds: 256 HTTP probes, 16 stdio probes at once)`],
    notes: [
      'Each row is a fresh `byhand checkpoint --config FILE --json` process (start-up included), at the default bounds. The servers run in the benchmark process, on the same two cores.',
    ],
    seconds: (performance.now() - started) / 1000,
  };
}
