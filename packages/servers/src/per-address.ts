// One client address may hold only so many of the server's connections, so a single peer opening sockets and
// sending nothing cannot take every slot `maxConnections` leaves: the others are still served.

import type { Server, Socket } from 'node:net';

/** The address a socket came from, with an IPv4-mapped IPv6 address (a dual-stack bind) read as the IPv4 one. */
function clientKey(socket: Socket): string | undefined {
  const address = socket.remoteAddress;
  return address?.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

/** Destroys a connection at accept when its address already holds `max` open ones. */
export function capConnectionsPerAddress(server: Server, max: number): void {
  const held = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = clientKey(socket);
    // No address: the peer is already gone.
    if (key === undefined) return void socket.destroy();
    const count = held.get(key) ?? 0;
    if (count >= max) return void socket.destroy();
    held.set(key, count + 1);
    socket.once('close', () => {
      const left = (held.get(key) ?? 1) - 1;
      if (left === 0) held.delete(key);
      else held.set(key, left);
    });
  });
}
