// The credentials file: JSON, owner-only (0600 in a 0700 directory), written whole to a temporary
// file and renamed so a crash never leaves half a document. Its contents are never printed.
// The temporary file has a random name and is created exclusively, never through a symlink
// (O_CREAT|O_EXCL|O_NOFOLLOW): a name planted in advance in the directory cannot receive the tokens.
// The directory must be the user's own and writable by nobody else, or nothing is written.
// Updates from several processes are serialised by a lock file beside it (file-lock.ts), so none is lost.

import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, constants, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { AuthError } from './errors.js';
import { withFileLock } from './file-lock.js';
import { normalizeDocument, type CredentialDocument, type CredentialStore } from './store.js';

/** `$BYHAND_CONFIG_DIR`, else `$XDG_CONFIG_HOME/byhand`, else `~/.config/byhand`: HOME of `env`, which need not be the process's. */
export function configDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.BYHAND_CONFIG_DIR) return env.BYHAND_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'byhand');
  return join(env.HOME || homedir(), '.config', 'byhand');
}

export function credentialsFile(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return join(configDir(env), 'credentials.json');
}

export function fileStore(file: string = credentialsFile()): CredentialStore {
  let queue: Promise<unknown> = Promise.resolve();
  // The text as last read, and the file it was read from: a long-running command (a bridge, a watch) asks before every
  // request, and reading and parsing the file each time costs more than the request. A write renames a new file in
  // place, so its identity changes whenever its contents do.
  let last: { identity: string; text: string } | undefined;
  const read = (): CredentialDocument => {
    let text: string;
    try {
      // No file is the usual case for a server without a login: told without an exception, made per request otherwise.
      const stat = statSync(file, { throwIfNoEntry: false });
      if (stat === undefined) {
        last = undefined;
        return normalizeDocument(undefined);
      }
      const identity = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
      if (last?.identity !== identity) last = { identity, text: readFileSync(file, 'utf8') };
      text = last.text;
    } catch (error) {
      last = undefined;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return normalizeDocument(undefined);
      throw new AuthError('login-required', `cannot read the credentials file ${file}: ${(error as Error).message}`, 'check the file\'s owner and permissions, or remove it and log in again');
    }
    try {
      return normalizeDocument(JSON.parse(text));
    } catch {
      throw new AuthError('login-required', `the credentials file ${file} is not valid JSON`, 'remove it and log in again');
    }
  };
  const write = (doc: CredentialDocument): void => {
    const dir = dirname(file);
    const temporary = join(dir, `.${basename(file)}.${randomBytes(12).toString('hex')}.tmp`);
    // 'wx' where O_NOFOLLOW does not exist (Windows): exclusive creation alone.
    const flags = constants.O_NOFOLLOW === undefined ? 'wx' : constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    const fd = openSync(temporary, flags, 0o600);
    try {
      try {
        writeSync(fd, `${JSON.stringify(doc, null, 2)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, file);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  };
  return {
    where: file,
    read: async () => read(),
    update: (change) => {
      // The queue orders this process's updates; the lock, those of every process (file-lock.ts).
      const next = queue.then(() => {
        // The directory is made and checked before the lock is made in it.
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        checkDirectory(dirname(file));
        return withFileLock(file, () => {
          const doc = read();
          change(doc);
          write(doc);
        });
      });
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

/**
 * The one rule for what byhand keeps in its config folder (the credentials here, the trusted folders in the CLI): the
 * folder, or a file in it, must be the user's and writable by no one else: in another user's, or one where others can
 * create or change files, they could swap or plant what byhand reads and writes. POSIX only: Windows has ACLs, not
 * modes. The reason, or undefined when it is the user's alone.
 */
export function notOwnAlone(path: string): { why: string; fix: string } | undefined {
  if (typeof process.getuid !== 'function') return undefined;
  const info = statSync(path);
  const uid = process.getuid();
  if (info.uid !== uid) return { why: `${path} belongs to another user (uid ${info.uid})`, fix: 'point BYHAND_CONFIG_DIR (or XDG_CONFIG_HOME) at a directory of your own' };
  if ((info.mode & 0o022) !== 0) return { why: `${path} is writable by others (mode ${(info.mode & 0o777).toString(8)})`, fix: `make it yours alone (chmod ${info.isDirectory() ? '700' : '600'} ${path}) or point BYHAND_CONFIG_DIR at another directory` };
  return undefined;
}

/** The credentials directory, by the one rule; one that others can only read is tightened to 0700 (mkdir's mode does not apply to one that already existed). */
function checkDirectory(dir: string): void {
  const refused = notOwnAlone(dir);
  if (refused !== undefined) throw new AuthError('insecure', `the credentials directory ${refused.why}, so byhand does not write tokens there`, refused.fix);
  if (typeof process.getuid === 'function' && (statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
