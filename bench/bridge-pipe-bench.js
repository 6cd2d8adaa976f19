// `byhand bridge URL` as a desktop host launches it, a process on a pipe, against the floor of any pipe hop (a bare
// stdio-to-HTTP relay with no MCP in it, bench/stdio-relay.js) for a 2026 host; and for a 2025 host, beside
// mcp-remote 0.15.1, the proxy 2025 hosts use today (tools/peers, on the Node 22 of tools/conformance). All in front
// of the canned server (bench/canned-server.js, modern era, fixed JSON); the host is byhand's client on the pipe, in
// the bench process, pinned to the era it plays.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR, BYHAND_CLIENT, ROOT, fig, fileUrl, int, median, ms, startChild, times } from './lib.js';
/** @import { BenchOptions, Goal, Section } from './lib.js' */

const PLAN = {
  full: { iterations: 600, warmup: 200, block: 20, concurrency: 16, perSlice: 1500, slices: 3, maxMs: 15_000 },
  quick: { iterations: 60, warmup: 20, block: 10, concurrency: 16, perSlice: 100, slices: 1, maxMs: 3000 },
};

const BYHAND = join(ROOT, 'packages', 'byhand', 'bin', 'byhand.js');
const NODE22 = join(ROOT, 'tools', 'conformance', 'node_modules', '.bin', 'node');
const MCP_REMOTE = join(ROOT, 'tools', 'peers', 'node_modules', 'mcp-remote', 'dist', 'proxy.js');

/**
 * @param {BenchOptions} options
 * @returns {Promise<Section>}
 */
export async function bridgePipeBenchmark(options) {
  const plan = options.quick ? PLAN.quick : PLAN.full;
  for (const needed of [NODE22, MCP_REMOTE]) if (!existsSync(needed)) throw new Error(`${needed} is missing: run node tools/ensure-test-tools.mjs first`);
  const started = performance.now();
  const home = mkdtempSync(join(tmpdir(), 'byhand-bench-pipe-'));
  const canned = startChild('canned-server.js', [], { name: 'canned server' });
  /** @type {{ close(): Promise<void> }[]} */
  const clients = [];
  try {
    const { urls } = await canned.ready;
    const { connect } = /** @type {typeof import('@byhand/client')} */ (await import(fileUrl(BYHAND_CLIENT)));
    /** A host on a pipe to `command args`, in the era it plays. @param {string} command @param {string[]} args @param {'modern' | 'legacy'} era */
    const onPipe = async (command, args, era) => {
      const client = await connect({ command, args, env: { HOME: home, MCP_REMOTE_CONFIG_DIR: join(home, 'mcp-remote'), BYHAND_PROVIDER: 'offline' } }, { era, timeoutMs: 30_000 });
      clients.push(client);
      await client.listTools();
      return client;
    };
    const hosts = {
      relayed: await onPipe(process.execPath, [join(BENCH_DIR, 'stdio-relay.js'), urls.simple], 'modern'),
      bridged: await onPipe(process.execPath, [BYHAND, 'bridge', urls.simple, '--timeout', '30000'], 'modern'),
      legacyBridged: await onPipe(process.execPath, [BYHAND, 'bridge', urls.simple, '--timeout', '30000'], 'legacy'),
      mcpRemote: await onPipe(NODE22, [MCP_REMOTE, urls.simple, '--transport', 'http-only', '--protocol', 'auto'], 'legacy'),
    };
    /** @param {import('@byhand/client').Client} client */
    const call = async (client) => {
      const result = await client.callTool('simple_text', {});
      if (result.content[0]?.type !== 'text') throw new Error(`unexpected result ${JSON.stringify(result).slice(0, 200)}`);
    };
    const names = /** @type {(keyof typeof hosts)[]} */ (Object.keys(hosts));

    // Sequential: blocks per way, the order rotating.
    for (let i = 0; i < plan.warmup; i++) for (const name of names) await call(hosts[name]);
    /** @type {Record<string, number[]>} */
    const latency = Object.fromEntries(names.map((name) => [name, []]));
    const sequentialStart = performance.now();
    for (let round = 0; round * plan.block < plan.iterations && performance.now() - sequentialStart < plan.maxMs * names.length; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(round + k) % names.length];
        for (let i = 0; i < plan.block; i++) {
          const t = performance.now();
          await call(hosts[name]);
          /** @type {number[]} */ (latency[name]).push(performance.now() - t);
        }
      }
    }

    // 16 callers on one pipe: slices per way, rotating, after one unmeasured slice each.
    /** @type {Record<string, { calls: number, ms: number }>} */
    const load = Object.fromEntries(names.map((name) => [name, { calls: 0, ms: 0 }]));
    for (let s = -1; s < plan.slices; s++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(Math.max(s, 0) + k) % names.length];
        let issued = 0;
        const t = performance.now();
        await Promise.all(Array.from({ length: plan.concurrency }, async () => {
          while (issued < plan.perSlice && performance.now() - t < plan.maxMs) {
            issued++;
            await call(hosts[name]);
          }
        }));
        if (s >= 0) {
          /** @type {{ calls: number, ms: number }} */ (load[name]).calls += issued;
          /** @type {{ calls: number, ms: number }} */ (load[name]).ms += performance.now() - t;
        }
      }
    }

    /** @type {Record<string, number>} */
    const p50 = Object.fromEntries(names.map((name) => [name, median(/** @type {number[]} */ (latency[name]))]));
    /** @type {Record<string, number>} */
    const perSec = Object.fromEntries(names.map((name) => [name, (/** @type {{ calls: number, ms: number }} */ (load[name]).calls / /** @type {{ calls: number, ms: number }} */ (load[name]).ms) * 1000]));
    /** @type {Goal[]} */
    const goals = [
      { label: 'a 2026 host: warm tools/call through the bridge / through the bare pipe relay (median), at most 1.15x', figure: fig(p50.bridged / p50.relayed, times), met: (x) => x <= 1.15 },
      { label: 'a 2026 host: 16 concurrent callers through the bridge / through the bare pipe relay, calls/s, at least 0.9x', figure: fig(perSec.bridged / perSec.relayed, times), met: (x) => x >= 0.9 },
      { label: 'a 2025 host: warm tools/call through mcp-remote / through the bridge (median), the bridge at least 1.5x faster', figure: fig(p50.mcpRemote / p50.legacyBridged, times), met: (x) => x >= 1.5 },
      { label: 'a 2025 host: 16 concurrent callers through the bridge / through mcp-remote, calls/s, at least 1.5x', figure: fig(perSec.legacyBridged / perSec.mcpRemote, times), met: (x) => x >= 1.5 },
    ];
    return {
      title: 'Bridge, the pipe face: byhand bridge URL as a host launches it, against a bare pipe relay and beside mcp-remote',
      header: ['measure', 'a 2026 host: bare pipe relay (the floor)', 'a 2026 host: the bridge', 'a 2025 host: the bridge', 'a 2025 host: mcp-remote 0.15.1'],
      rows: [
        ['warm tools/call, median', fig(p50.relayed, ms), fig(p50.bridged, ms), fig(p50.legacyBridged, ms), fig(p50.mcpRemote, ms)],
        ['16 concurrent callers on the pipe, calls/s', fig(perSec.relayed, int), fig(perSec.bridged, int), fig(perSec.legacyBridged, int), fig(perSec.mcpRemote, int)],
      ],
      goals,
      notes: [
        'Each way is a process on a pipe, started by byhand\'s client as a host starts a stdio server: `node bench/stdio-relay.js URL` (reads a line, POSTs it with the headers a 2026 request carries over a keep-alive agent, writes the answer back as a line: no MCP in it); `byhand bridge URL` (the built binary), once for a host in the 2026 era and once for one in the 2025 era; `mcp-remote URL --transport http-only --protocol auto` on Node 22, for a host in the 2025 era. The server is the canned server in a process of its own.',
        `Sequential: blocks of ${plan.block} calls per way, the order rotating, ${plan.iterations} measured calls each after ${plan.warmup} warm-up calls each. 16 callers: ${plan.slices} slices of up to ${plan.perSlice} calls per way, rotating, after one unmeasured slice each.`,
      ],
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await canned.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
