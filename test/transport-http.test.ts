// Streamable HTTP (transport/http/) under the transport contract, on each of its requesters: node:http (Node's
// default) and fetch.

import { transportContract } from './support/transport-contract.js';
import { streamableHttpPeer } from './fixtures/contract-carriers.js';
import { HttpTransport } from '../packages/client/src/transport/http/http.js';
import { nodeRequester } from '../packages/client/src/transport/http/requester-node.js';
import { fetchRequester } from '../packages/client/src/transport/http/wire.js';

for (const [name, requester] of [['node:http', nodeRequester], ['fetch', () => fetchRequester()]] as const) {
  transportContract(`Streamable HTTP over ${name}`, {
    tellsAbandon: false,
    async open({ limits, trace }) {
      const server = await streamableHttpPeer();
      return { transport: new HttpTransport({ url: server.url, requester: requester(), limits, trace }), stop: () => server.close() };
    },
  });
}
