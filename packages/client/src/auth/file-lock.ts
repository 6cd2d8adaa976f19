// One writer at a time for a file that several processes update (the credentials file: two `byhand login`s, or a
// checkpoint refreshing tokens while a call does). Without it each process reads, changes and renames its own copy,
// and the last rename wins: the other's update is lost. The lock is a file beside it, created exclusively
// (O_CREAT|O_EXCL|O_NOFOLLOW) with the holder's pid; the update is read, changed and written while it is held.
// A holder that died leaves its lock behind, so a lock is stale when its pid is gone from this machine or it is
// older than STALE_MS (a pid reused since, or another machine on a shared home); a stale lock is moved aside
// under a name of our own before it is removed, so two processes that both find it stale cannot remove each
// other's fresh lock.

import { randomBytes } from 'node:crypto';
import { closeSync, constants, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { AuthError } from './errors.js';

/** A lock held longer than this is taken for a dead holder's: an update holds it for a read and a write. */
export const STALE_MS = 10_000;
/** How long an update waits for the lock before it fails: past STALE_MS, so a dead holder's lock is always outlived. */
export const WAIT_MS = 2 * STALE_MS;

export async function withFileLock<T>(file: string, work: () => T): Promise<T> {
  const lock = `${file}.lock`;
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const held = tryCreate(lock);
    if (held !== undefined) {
      try {
        return work();
      } finally {
        release(lock, held);
      }
    }
    if (removeIfStale(lock)) continue;
    if (Date.now() - started > WAIT_MS) {
      throw new AuthError('login-required', `the credentials file ${file} stayed locked by another byhand for ${WAIT_MS / 1000} s (${lock}, held by ${holderOf(lock)})`, `if no byhand is running, remove ${lock}`);
    }
    // A little jitter, so two waiters do not retry in step.
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 + attempt) + Math.random() * 5));
  }
}

/** The lock's inode once created, or undefined when another holds it. */
function tryCreate(lock: string): number | undefined {
  const flags = constants.O_NOFOLLOW === undefined ? 'wx' : constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  let fd: number;
  try {
    fd = openSync(lock, flags, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return statSync(lock).ino;
}

/** Removes the lock only if it is still the one we made (never one a waiter made after judging ours stale). */
function release(lock: string, ino: number): void {
  try {
    if (statSync(lock).ino === ino) rmSync(lock, { force: true });
  } catch {
    // Already gone.
  }
}

function removeIfStale(lock: string): boolean {
  let info;
  try {
    info = statSync(lock);
  } catch {
    return true;
  }
  const pid = Number.parseInt(holderOf(lock), 10);
  const old = Date.now() - info.mtimeMs > STALE_MS;
  // A lock with no pid yet is being written: only age makes it stale.
  if (!old && !(Number.isInteger(pid) && pid > 0 && !alive(pid))) return false;
  const aside = `${lock}.${randomBytes(6).toString('hex')}.stale`;
  try {
    renameSync(lock, aside);
  } catch {
    return true;
  }
  // Between our look and the rename, another waiter may have removed the stale lock and made its own: put that back.
  if (statSync(aside).ino !== info.ino) {
    try {
      linkSync(aside, lock);
    } catch {
      // A third lock was made meanwhile; it stands.
    }
  }
  rmSync(aside, { force: true });
  return true;
}

function holderOf(lock: string): string {
  try {
    return readFileSync(lock, 'utf8').trim() || 'no pid yet';
  } catch {
    return 'nobody now';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
