// Whether a test tool folder (tools/ensure-test-tools.mjs) is installed, and if not, why: a test that needs it fails
// with the reason its install gave, and the command that installs it, rather than with a module not found.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export type TestTool = 'tools/conformance' | 'tools/runtimes' | 'tools/peers' | 'tools/sqlite' | 'tools/browser';

/** Throws, naming the reason, unless `npm test`'s install of the folder succeeded (`root`: another checkout's). */
export function requireTestTool(folder: TestTool, root = repoRoot): void {
  const modules = join(root, folder, 'node_modules');
  const failed = join(modules, '.byhand-install-failed');
  if (existsSync(failed)) {
    const reason = readFileSync(failed, 'utf8').split('\n')[0];
    throw new Error(`${folder} did not install (${reason}); npm's whole output is in ${folder}/node_modules/.byhand-install-failed. Fix the cause, then run \`node tools/ensure-test-tools.mjs\``);
  }
  if (!existsSync(join(modules, '.byhand-installed'))) {
    throw new Error(`${folder} is not installed: run \`node tools/ensure-test-tools.mjs\` (\`npm test\` does) first`);
  }
}
