// The tokens `byhand login` kept, for the commands that must never open a browser (checkpoint,
// call): they are used and refreshed; when none will do, the error says which login to run.

import { createOAuth } from '@byhand/client/auth';
import { credentialsFile, fileStore } from '@byhand/client/auth/file-store';
import type { HttpAuth } from '@byhand/client';

export function storedLogin(env: Readonly<Record<string, string | undefined>>, loginArgs: string): HttpAuth {
  return createOAuth({ store: fileStore(credentialsFile(env)), loginHint: () => `run \`byhand login ${loginArgs}\`` });
}
