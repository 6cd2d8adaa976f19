// A loopback port nothing listens on, for the tests of an unreachable server. A port that a test's own server has
// just freed is not one: in a parallel run another test's server may be given it a moment later, and a provider SDK
// that retries for a second then meets that server. The system gives port 0 only ports from its ephemeral range, so
// a port below it that refuses a connection now stays refused: the tests bind no fixed port. None of these is one of
// the ports fetch refuses to use at all (the Fetch standard's "bad port" list: 1, 7, 9, 13 and more), which would
// fail a request before it tried.

import { connect } from 'node:net';

const CANDIDATES = [2, 3, 4, 5, 6, 8, 10, 12, 14, 16];

export async function closedPort(): Promise<number> {
  for (const port of CANDIDATES) if (await refuses(port)) return port;
  throw new Error(`every one of the loopback ports ${CANDIDATES.join(', ')} accepts connections here`);
}

function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}
