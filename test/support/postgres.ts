// A throwaway PostgreSQL cluster for tests: Debian's `postgresql` package (installed by .ci/run), a fresh data
// directory, loopback only, trust auth for one user. Fails loudly when the server cannot start: never a skip.
// Postgres refuses to run as root, so as root the cluster belongs to the `postgres` user (runuser).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPostgres {
  url: string;
  stop(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) throw new Error('PostgreSQL is not installed (apt-get install postgresql; .ci/run does this)');
  return join(root, newest, 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'byhand-pg-'));
  const asRoot = process.getuid?.() === 0;
  const command = (exe: string, args: string[]) => (asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, exe), ...args]] : [join(bin, exe), args]) as [string, string[]];
  try {
    if (asRoot) {
      const { uid, gid } = userIds('postgres');
      chownSync(dir, uid, gid);
    }
    const [initExe, initArgs] = command('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'byhand', '--no-sync', '-E', 'UTF8']);
    const init = spawnSync(initExe, initArgs, { encoding: 'utf8', timeout: 60_000 });
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error?.message}`);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const port = await freePort();
  const [exe, args] = command('postgres', ['-D', join(dir, 'data'), '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', dir, '-c', 'fsync=off']);
  const server: ChildProcess = spawn(exe, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const url = `postgres://byhand@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      // pg_ctl signals the postmaster itself (runuser does not pass signals on); immediate: the data is thrown away.
      const [ctl, ctlArgs] = command('pg_ctl', ['-D', join(dir, 'data'), 'stop', '-m', 'immediate', '-w']);
      spawnSync(ctl, ctlArgs, { timeout: 20_000 });
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`postgres exited at start (${server.exitCode}): ${log}`);
    }
    if (/ready to accept connections/.test(log)) return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`postgres did not start within 30 s: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function userIds(name: string): { uid: number; gid: number } {
  const out = spawnSync('id', ['-u', name], { encoding: 'utf8' }).stdout.trim();
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout.trim();
  if (!/^\d+$/.test(out)) throw new Error(`no ${name} user to run PostgreSQL as (apt-get install postgresql creates it)`);
  return { uid: Number(out), gid: Number(gid) };
}
