// DNS-rebinding protection for a loopback server: a page on a foreign origin must not reach it through a rebound
// name. Host and Origin must each name a loopback name or one the operator allowed (`--allow-host`).
// The rule is the SDK's (validateHostHeader and validateOriginHeader in @modelcontextprotocol/server), written out here
// so that a front needing only the listener (`byhand bridge --listen`) does not load the SDK and zod with it;
// test/servers-host-check.test.ts holds both to the same verdict on every case it lists.

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
  const refusal = hostRefusal(accepted);
  return (request) => {
    const refused = refusal(request.headers.get('host') ?? undefined, request.headers.get('origin') ?? undefined);
    return refused === undefined ? undefined : Response.json({ jsonrpc: '2.0', error: { code: -32000, message: refused }, id: null }, { status: 403 });
  };
}

/** The same rule for a handler on node:http (listenNode): why the Host or Origin header is refused, or undefined. */
export function hostRefusal(accepted: readonly string[]): (host: string | undefined, origin: string | undefined) => string | undefined {
  const allowed = [...new Set([...LOOPBACK_HOSTS, ...accepted])];
  // A client sends the same Host and Origin on every request: the verdict on the last pair is kept rather than both
  // parsed as URLs again per request.
  let last: { host: string | undefined; origin: string | undefined; refusal: string | undefined } | undefined;
  return (host, origin) => {
    if (last !== undefined && last.host === host && last.origin === origin) return last.refusal;
    last = { host, origin, refusal: hostProblem(host, allowed) ?? originProblem(origin, allowed) };
    return last.refusal;
  };
}

function hostProblem(host: string | undefined, allowed: readonly string[]): string | undefined {
  if (!host) return 'Missing Host header';
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return `Invalid Host header: ${host}`;
  }
  return allowed.includes(hostname) ? undefined : `Invalid Host: ${hostname}`;
}

/** No Origin passes (only a browser sends one); `scheme://*` allows a browser extension's scheme, but not http(s). */
function originProblem(origin: string | undefined, allowed: readonly string[]): string | undefined {
  if (origin === undefined || origin === '') return undefined;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `Invalid Origin header: ${origin}`;
  }
  if (url.hostname === '') return `Invalid Origin header: ${origin}`;
  const schemeAllowed = url.protocol !== 'http:' && url.protocol !== 'https:' && allowed.includes(`${url.protocol}//*`);
  return schemeAllowed || allowed.includes(url.hostname) ? undefined : `Invalid Origin: ${url.hostname}`;
}

/** A host as it goes in a URL: the wildcard addresses as loopback, IPv6 bracketed. */
export function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
