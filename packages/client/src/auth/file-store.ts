// The credentials file: JSON, owner-only (0600 in a 0700 directory), written whole to a temporary
// file and renamed so a crash never leaves half a document. Its contents are never printed.

import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { AuthError } from './errors.js';
import { normalizeDocument, type CredentialDocument, type CredentialStore } from './store.js';

/** `$BYHAND_CONFIG_DIR`, else `$XDG_CONFIG_HOME/byhand`, else `~/.config/byhand`. */
export function configDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.BYHAND_CONFIG_DIR) return env.BYHAND_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'byhand');
  return join(homedir(), '.config', 'byhand');
}

export function credentialsFile(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return join(configDir(env), 'credentials.json');
}

export function fileStore(file: string = credentialsFile()): CredentialStore {
  let queue: Promise<unknown> = Promise.resolve();
  const read = (): CredentialDocument => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return normalizeDocument(undefined);
      throw new AuthError('login-required', `cannot read the credentials file ${file}: ${(error as Error).message}`, 'check the file\'s owner and permissions, or remove it and log in again');
    }
    try {
      return normalizeDocument(JSON.parse(text));
    } catch {
      throw new AuthError('login-required', `the credentials file ${file} is not valid JSON`, 'remove it and run `byhand login` again');
    }
  };
  const write = (doc: CredentialDocument): void => {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode does not apply to a directory that already existed: tighten it.
    if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, file);
  };
  return {
    where: file,
    read: async () => read(),
    update: (change) => {
      const next = queue.then(() => {
        const doc = read();
        change(doc);
        write(doc);
      });
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
