// The client's network address beside a web Request, for limits that are per client. A Request has no field for it,
// and a header would be the client's to forge, so the server that accepted the connection records it here; where
// the platform gives none (a Request built elsewhere), a toolbox sees undefined.

const addresses = new WeakMap<Request, string>();

/** The address as one client key: an IPv4-mapped IPv6 address (a dual-stack bind) reads as the IPv4 one. */
export function clientKey(address: string): string {
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address !== undefined) addresses.set(request, clientKey(address));
}

export function clientAddressOf(request: Request | undefined): string | undefined {
  return request === undefined ? undefined : addresses.get(request);
}
