// The client's network address beside a web Request, for limits that are per client. A Request has no field for it,
// and a header would be the client's to forge, so the server that accepted the connection records it here; where
// the platform gives none (a Request built elsewhere), a toolbox sees undefined.

const addresses = new WeakMap<Request, string>();

/**
 * The address as one client key: an IPv4-mapped IPv6 address (a dual-stack bind) reads as the IPv4 one, and an IPv6
 * address as its /64. One subscriber is given a /64 at least and may send from any address in it, so a per-address
 * cap keyed on the whole address would be one cap per address it cares to use.
 */
export function clientKey(address: string): string {
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice('::ffff:'.length);
  if (!address.includes(':')) return address;
  const groups = ipv6Groups(address);
  return groups === undefined ? address : `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros; undefined when it is none. */
function ipv6Groups(address: string): string[] | undefined {
  // A dotted IPv4 tail (::ffff:1.2.3.4 forms, 64:ff9b::1.2.3.4) is two groups; only the first four groups matter here.
  const bare = address.split('%')[0].replace(/(?<=:)(?:\d{1,3}\.){3}\d{1,3}$/, '0:0');
  const halves = bare.split('::');
  if (halves.length > 2) return undefined;
  const part = (text: string) => (text === '' ? [] : text.split(':'));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return groups.map((g) => parseInt(g, 16).toString(16));
}

export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address !== undefined) addresses.set(request, clientKey(address));
}

export function clientAddressOf(request: Request | undefined): string | undefined {
  return request === undefined ? undefined : addresses.get(request);
}
