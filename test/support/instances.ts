// Several `byhand serve` processes (the real binary) behind a round-robin proxy on loopback: what a load balancer
// without sticky routing does to a deployment.

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../packages/byhand/bin/byhand.js', import.meta.url));

export interface ServeProcess {
  /** http://127.0.0.1:PORT, the URL to use from this machine. */
  url: string;
  /** What serve printed up to its toolbox list. */
  banner: string;
  child: ChildProcess;
  /** What serve wrote to stderr so far: its log. */
  stderr(): string;
  stop(): Promise<void>;
}

export async function startServe(args: string[], env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`byhand serve did not start within 20 s: ${err}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (?:\S+ \(reachable from the network; from this machine: )?(http:\/\/[^\s)]+)/.exec(out);
      if (found !== null && /Cookie Jar|\/api\/probe/.test(out)) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`byhand serve exited (${code}): ${err}`));
    });
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return { url, banner: out, child, stderr: () => err, stop };
}

export interface RoundRobin {
  url: string;
  /** Which upstream answered each request, in order. */
  served: number[];
  close(): Promise<void>;
}

export async function roundRobin(upstreams: string[]): Promise<RoundRobin> {
  let next = 0;
  const served: number[] = [];
  const server: Server = createServer((req, res) => {
    const index = next++ % upstreams.length;
    served.push(index);
    const target = new URL(req.url ?? '/', upstreams[index]);
    const forward = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.once('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
