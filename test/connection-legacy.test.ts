// The legacy era (legacy.ts) under the connection contract: a 2025 session over Streamable HTTP (the SDK's sessionful
// transport) and over stdio (its StdioServerTransport), where the server pushes what it asks.

import { connectionContract } from './support/connection-contract.js';
import { fixtureCommand } from './support/fixture-bundle.js';
import { connect } from '../packages/client/src/index.js';
import { fixtureHandler, serve } from './fixtures/sdk-server.js';

connectionContract('legacy, a session over Streamable HTTP', {
  era: 'legacy',
  async connect(host) {
    const served = await serve(fixtureHandler('legacy-session'));
    try {
      return { client: await connect(served.url, { host }), stop: () => served.close() };
    } catch (error) {
      await served.close();
      throw error;
    }
  },
});

connectionContract('legacy, over stdio', {
  era: 'legacy',
  async connect(host) {
    return { client: await connect(fixtureCommand('test/fixtures/sdk-stdio-server.ts', 'legacy'), { host }), stop: async () => undefined };
  },
});
