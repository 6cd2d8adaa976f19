// The tokens `byhand login` kept, for the commands that must never open a browser (checkpoint,
// call): they are used and refreshed; when none will do, the error says which login to run.

import { createOAuth, credentialsFile, fileStore } from '../client/auth/index.js';
import type { HttpAuth } from '../client/index.js';

export function storedLogin(env: Readonly<Record<string, string | undefined>>, loginArgs: string): HttpAuth {
  return createOAuth({ store: fileStore(credentialsFile(env)), loginHint: () => `run \`byhand login ${loginArgs}\`` });
}
