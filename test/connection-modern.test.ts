// The modern era (modern.ts) under the connection contract: over Streamable HTTP (the SDK's createMcpHandler) and over
// stdio (its serveStdio).

import { connectionContract } from './support/connection-contract.js';
import { fixtureCommand } from './support/fixture-bundle.js';
import { connect } from '../packages/client/src/index.js';
import { fixtureHandler, serve } from './fixtures/sdk-server.js';

connectionContract('modern, over Streamable HTTP', {
  era: 'modern',
  async connect(host) {
    const served = await serve(fixtureHandler('modern-only'));
    try {
      return { client: await connect(served.url, { host }), stop: () => served.close() };
    } catch (error) {
      await served.close();
      throw error;
    }
  },
});

connectionContract('modern, over stdio', {
  era: 'modern',
  async connect(host) {
    return { client: await connect(fixtureCommand('test/fixtures/sdk-stdio-server.ts', 'serve'), { host }), stop: async () => undefined };
  },
});
