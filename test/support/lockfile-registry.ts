// A loopback npm registry that knows only the third-party packages the workspace's lockfile resolved, at the versions
// it resolved: what an install of byhand's tarballs may fetch, and nothing named `byhand` or `@byhand/*`, which
// are not published (a request for one is a 404, kept in `refused`, so a test can show none was needed).
// A packument is built from the lockfile's own entries (version, integrity, dependencies, bin, engines); npm takes
// the tarball from its cache by that integrity when `npm ci` put it there, and otherwise from the upstream
// registry, which this one redirects to.

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

interface LockEntry {
  version?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, unknown>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  hasInstallScript?: boolean;
}

export interface LockfileRegistry {
  /** The registry's URL, with the trailing slash npm wants. */
  url: string;
  /** The package names asked for that the lockfile has no third-party entry for, in the order asked. */
  refused: string[];
  close(): Promise<void>;
}

const UNPUBLISHED = /^(byhand|@byhand\/.*)$/;

/** name -> version -> its manifest in a packument, from a package-lock.json's `packages`. */
function manifests(lockfile: string, base: string, upstream: string): Map<string, Map<string, object>> {
  const { packages } = JSON.parse(readFileSync(lockfile, 'utf8')) as { packages: Record<string, LockEntry> };
  const byName = new Map<string, Map<string, object>>();
  for (const [path, entry] of Object.entries(packages)) {
    const at = path.lastIndexOf('node_modules/');
    if (at < 0 || entry.link || entry.version === undefined || entry.integrity === undefined) continue;
    const name = path.slice(at + 'node_modules/'.length);
    if (UNPUBLISHED.test(name)) continue;
    const file = `${name.split('/').pop()}-${entry.version}.tgz`;
    const { version, integrity, dependencies, optionalDependencies, peerDependencies, peerDependenciesMeta, bin, engines, os, cpu, hasInstallScript } = entry;
    const manifest = {
      name, version, dependencies, optionalDependencies, peerDependencies, peerDependenciesMeta, bin, engines, os, cpu, hasInstallScript,
      dist: { integrity, tarball: `${base}-/tarball/${encodeURIComponent(name)}/${file}` },
      _upstream: `${upstream}${name}/-/${file}`,
    };
    if (!byName.has(name)) byName.set(name, new Map());
    byName.get(name)!.set(version, manifest);
  }
  return byName;
}

/** `upstream` is where a tarball not in npm's cache comes from: the registry the user's npm uses. */
export async function startLockfileRegistry(root: string, upstream = 'https://registry.npmjs.org/'): Promise<LockfileRegistry> {
  const refused: string[] = [];
  let byName = new Map<string, Map<string, object>>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://registry').pathname.slice(1));
    const tarball = /^-\/tarball\/(.+)\/([^/]+)$/.exec(path);
    if (tarball) {
      const manifest = [...(byName.get(tarball[1])?.values() ?? [])].find((m) => (m as { dist: { tarball: string } }).dist.tarball.endsWith(`/${tarball[2]}`));
      if (manifest === undefined) return void res.writeHead(404).end();
      return void res.writeHead(302, { location: (manifest as { _upstream: string })._upstream }).end();
    }
    const versions = byName.get(path);
    if (versions === undefined) {
      refused.push(path);
      return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
    }
    const latest = [...versions.keys()].sort(compareVersions).pop()!;
    const packument = { name: path, 'dist-tags': { latest }, versions: Object.fromEntries(versions) };
    // no-store: npm keeps nothing of this run's port in its cache.
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(packument));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  byName = manifests(join(root, 'package-lock.json'), url, upstream);
  return {
    url,
    refused,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Release versions in order (the lockfile's are plain x.y.z, some with a prerelease tag, which sorts first). */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] as number) - (pb[i] as number);
  return (pa.length === 3 ? 1 : 0) - (pb.length === 3 ? 1 : 0);
}
