// A credentials store that counts its reads: what a test of a read-saving wrapper checks.

import type { CredentialStore } from '../../packages/client/src/auth/index.ts';

export function counted(store: CredentialStore): CredentialStore & { reads: number } {
  const wrapped = {
    reads: 0,
    where: store.where,
    read: () => {
      wrapped.reads++;
      return store.read();
    },
    update: (change: Parameters<CredentialStore['update']>[0]) => store.update(change),
  };
  return wrapped;
}
