// The real binary in a child process, from the repository root, with the offline provider: its exit code and both
// streams, whether it succeeded or not.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function byhand(...args: string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['packages/byhand/bin/byhand.js', ...args], { cwd: root, env: { ...process.env, BYHAND_PROVIDER: 'offline' }, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
