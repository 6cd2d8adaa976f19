// HTTP+SSE of 2024-11-05 (transport/sse/) under the transport contract: opened the way the client opens it, from a
// Streamable HTTP transport at the URL whose GET names the endpoint.

import { transportContract } from './support/transport-contract.js';
import { httpSsePeer } from './fixtures/contract-carriers.js';
import { HttpTransport } from '../packages/client/src/transport/http/http.js';
import { nodeRequester } from '../packages/client/src/transport/http/requester-node.js';
import { legacyEra } from '../packages/client/src/legacy-door.js';

transportContract('HTTP+SSE', {
  tellsAbandon: true,
  async open({ limits, trace }) {
    const server = await httpSsePeer();
    const { openSse } = await legacyEra();
    const transport = await openSse(new HttpTransport({ url: server.url, requester: nodeRequester(), limits, trace }), 5_000);
    if (!transport) throw new Error('the HTTP+SSE peer opened no stream');
    return { transport, stop: () => server.close() };
  },
});
