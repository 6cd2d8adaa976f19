// One read of the credentials file per checkpoint run. The OAuth provider reads its store before every request
// (oauth.ts headers()), so every server meant synchronous reads of the same file on the one thread that also
// runs every probe. For one run the file is read once; a copy is handed out each time (the provider
// may change what it reads), and a write made through it (a refresh) makes the next read go to the file again.
// The copy is parsed from the document's JSON (it came from a JSON file), which is much cheaper per request than
// structuredClone on Node 20 (bench/checkpoint-bench.js measures the run).

import type { CredentialDocument, CredentialStore } from '@byhand/client/auth';

export function readOncePerRun(store: CredentialStore): CredentialStore {
  let doc: Promise<string> | undefined;
  return {
    where: store.where,
    read: async () => JSON.parse(await (doc ??= store.read().then((read) => JSON.stringify(read)))) as CredentialDocument,
    update: async (change) => {
      try {
        await store.update(change);
      } finally {
        doc = undefined;
      }
    },
  };
}

