// DNS-rebinding protection for a loopback server: a page on a foreign origin must not reach it through a rebound
// name. Host and Origin must each name a loopback name or one the operator allowed (`--allow-host`).

import { hostHeaderValidationResponse, originValidationResponse, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';

export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** The names accepted when bound to `bindHost`: loopback, the operator's, and the bound name itself when it is one. */
export function acceptedHosts(bindHost: string, allowed: readonly string[] = []): string[] {
  const bindName = bindHost.replace(/^\[|\]$/g, '');
  const names = [...allowed];
  if (!LOOPBACK_HOSTS.includes(bindName) && bindName !== '0.0.0.0' && bindName !== '::') names.push(hostForUrl(bindName));
  return names;
}

/** Refuses a request whose Host or Origin is not loopback or `accepted` (the refusal, or undefined to go on). */
export function hostGuard(accepted: readonly string[]): (request: Request) => Response | undefined {
  const allowed = [...new Set([...LOOPBACK_HOSTS, ...accepted])];
  return (request) => hostHeaderValidationResponse(request, allowed) ?? originValidationResponse(request, allowed);
}

/**
 * The same rule for a handler on node:http (listenNode): why the Host or Origin header is refused, or undefined. The
 * SDK's own checks decide, so both kinds of handler refuse exactly the same requests.
 */
export function hostRefusal(accepted: readonly string[]): (host: string | undefined, origin: string | undefined) => string | undefined {
  const allowed = [...new Set([...LOOPBACK_HOSTS, ...accepted])];
  return (host, origin) => {
    const hostCheck = validateHostHeader(host, allowed);
    if (!hostCheck.ok) return hostCheck.message;
    const originCheck = validateOriginHeader(origin, allowed);
    return originCheck.ok ? undefined : originCheck.message;
  };
}

/** A host as it goes in a URL: the wildcard addresses as loopback, IPv6 bracketed. */
export function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
