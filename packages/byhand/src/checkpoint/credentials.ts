// One read of the credentials file per checkpoint run. The OAuth provider reads its store before every request
// (oauth.ts headers()), so 200 servers meant 400 synchronous reads of the same file on the one thread that also
// runs every probe. For a run of a few seconds the file is read once; a copy is handed out each time (the provider
// may change what it reads), and a write made through it (a refresh) makes the next read go to the file again.

import type { CredentialDocument, CredentialStore } from '@byhand/client/auth';

export function readOncePerRun(store: CredentialStore): CredentialStore {
  let doc: Promise<CredentialDocument> | undefined;
  return {
    where: store.where,
    read: async () => structuredClone(await (doc ??= store.read())),
    update: async (change) => {
      try {
        await store.update(change);
      } finally {
        doc = undefined;
      }
    },
  };
}
