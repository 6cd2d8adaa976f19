// One client address may hold only so many of the server's connections, so a single peer opening sockets and
// sending nothing cannot take every slot `maxConnections` leaves: the others are still served.

import type { Server, Socket } from 'node:net';
import { clientKey } from './client-address.js';

/** Destroys a connection at accept when its address already holds `max` open ones. */
export function capConnectionsPerAddress(server: Server, max: number): void {
  const held = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    // No address: the peer is already gone.
    if (socket.remoteAddress === undefined) return void socket.destroy();
    const key = clientKey(socket.remoteAddress);
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
