// PKCE (RFC 7636) with S256, and the random state: Web Crypto only.

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

/** `length` characters from the unreserved set, uniformly (rejection sampling over random bytes). */
export function randomString(length: number): string {
  let out = '';
  while (out.length < length) {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      // 66 characters: accept bytes below 256 - (256 % 66) = 198 so each character is equally likely
      if (b < 198 && out.length < length) out += UNRESERVED[b % 66];
    }
  }
  return out;
}

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function s256(verifier: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

export async function createPkce(): Promise<Pkce> {
  const verifier = randomString(64);
  return { verifier, challenge: await s256(verifier), method: 'S256' };
}
