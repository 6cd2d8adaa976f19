// The real binary in a child process, from the repository root, with the offline provider: its exit code and both
// streams, whether it succeeded or not.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = fileURLToPath(new URL('../../packages/byhand/bin/byhand.js', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function byhand(...args: string[]): Promise<CliRun> {
  return byhandIn({ cwd: root }, ...args);
}

/** In another folder (a project's), with the environment changed (a temporary HOME): `undefined` unsets a variable. */
export async function byhandIn(where: { cwd: string; env?: Record<string, string | undefined> }, ...args: string[]): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, BYHAND_PROVIDER: 'offline', ...where.env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: where.cwd, env, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
