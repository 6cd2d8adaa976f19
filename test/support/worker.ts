// The Worker example of docs/deploying.md (examples/worker.ts), bundled as a Workers platform would bundle it
// (esbuild, platform browser, the workerd conditions) from the built packages, and run on workerd through miniflare
// (tools/runtimes, installed by `npm test` through tools/ensure-test-tools.mjs). Any Node built-in, module-scope
// timer or random value in the toolboxes fails here, as it would on Cloudflare.

import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { requireTestTool } from './test-tools.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function bundleWorker(): Promise<string> {
  const result = await build({
    entryPoints: [`${root}examples/worker.ts`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

export interface RunningWorker {
  url: URL;
  dispose(): Promise<void>;
}

export async function startWorker(script: string, bindings: Record<string, string>): Promise<RunningWorker> {
  // miniflare is a tool of the test, installed beside the conformance tools, not a dependency of any package.
  requireTestTool('tools/runtimes');
  const { Miniflare } = (await import(`${root}tools/runtimes/node_modules/miniflare/dist/src/index.js`)) as {
    Miniflare: new (options: Record<string, unknown>) => { ready: Promise<URL>; dispose(): Promise<void> };
  };
  const mf = new Miniflare({ modules: true, script, compatibilityDate: '2026-07-01', bindings, host: '127.0.0.1' });
  try {
    return { url: await mf.ready, dispose: () => mf.dispose() };
  } catch (error) {
    await mf.dispose().catch(() => {});
    throw error;
  }
}
