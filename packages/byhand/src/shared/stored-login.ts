// The tokens `byhand login` kept, for the commands that must never open a browser (checkpoint,
// call): they are used and refreshed; when none will do, the error says which login to run.

import { createOAuth } from '@byhand/client/auth';
import { credentialsFile, fileStore } from '@byhand/client/auth/file-store';
import type { HttpAuth } from '@byhand/client';
import type { CredentialStore } from '@byhand/client/auth';

/** `store`: the credentials file by default; a command probing many servers passes one store for all of them. */
export function storedLogin(env: Readonly<Record<string, string | undefined>>, loginArgs: string, store: CredentialStore = fileStore(credentialsFile(env))): HttpAuth {
  return createOAuth({ store, loginHint: () => `run \`byhand login ${loginArgs}\`` });
}
