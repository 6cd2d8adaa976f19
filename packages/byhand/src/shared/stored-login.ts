// The tokens `byhand login` kept, for the commands that must never open a browser (checkpoint, call, bridge,
// watch): they are used and refreshed; when none will do, the error says which login to run.
//
// A server with no login kept costs no work per request: its requests are told at once that they carry no
// authorization (no promise, no signal made for them). Whether one is kept is read from the store at most once a
// RECHECK_MS, so a bridge or a watch picks up a `byhand login` made meanwhile within that, and at once when the server
// challenges. A server with a login kept goes through the provider on every request, and the provider reads the
// store each time: a token that another process refreshed (and whose refresh token it rotated) is seen at once.

import { createOAuth, serverKey } from '@byhand/client/auth';
import { credentialsFile, fileStore } from '@byhand/client/auth/file-store';
import type { HttpAuth } from '@byhand/client';
import type { CredentialStore } from '@byhand/client/auth';

export const RECHECK_MS = 1_000;

/**
 * `store`: the credentials file by default; a command probing many servers passes one store for all of them.
 * `now`: the clock the recheck reads (tests move it).
 */
export function storedLogin(env: Readonly<Record<string, string | undefined>>, loginArgs: string, store: CredentialStore = fileStore(credentialsFile(env)), now: () => number = () => performance.now()): HttpAuth {
  const provider = createOAuth({ store, loginHint: () => `run \`byhand login ${loginArgs}\`` });
  // `known` once the store's answer is in: read without a promise from then until the recheck.
  let checked: { url: string; at: number; reading: Promise<boolean>; known?: boolean } | undefined;
  const kept = (url: string): boolean | Promise<boolean> => {
    if (checked === undefined || checked.url !== url || now() - checked.at >= RECHECK_MS) {
      const check: NonNullable<typeof checked> = {
        url,
        at: now(),
        reading: serversWithLogins(store).then((servers) => (check.known = keepsLoginFor(servers, url))),
      };
      checked = check;
    }
    return checked.known ?? checked.reading;
  };
  return {
    headers: (request) => {
      const known = kept(request.url);
      if (known === false) return undefined;
      if (known === true) return provider.headers(request);
      return known.then((yes) => (yes ? provider.headers(request) : undefined));
    },
    challenged: (challenge, signal) => {
      checked = undefined;
      return provider.challenged(challenge, signal);
    },
    answered: (answer) => provider.answered?.(answer),
  };
}

/**
 * The servers the store keeps a login for, by serverKey (as the provider keys tokens); undefined when the store
 * cannot be read, and then every server counts as having one, so the read's error is the provider's to tell.
 */
export async function serversWithLogins(store: CredentialStore): Promise<ReadonlySet<string> | undefined> {
  try {
    return new Set(Object.keys((await store.read()).servers));
  } catch {
    return undefined;
  }
}

/**
 * Without a login kept, a request carries no authorization and its answer is not inspected; a server that
 * challenges is then met by the provider, whose error names the login to run.
 */
export function keepsLoginFor(servers: ReadonlySet<string> | undefined, url: string): boolean {
  return servers === undefined || servers.has(serverKey(url));
}
