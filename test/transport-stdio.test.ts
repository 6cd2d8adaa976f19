// stdio (transport/stdio/) under the transport contract: the contract peer as a child process.

import { transportContract } from './support/transport-contract.js';
import { fixtureCommand } from './support/fixture-bundle.js';
import { StdioTransport } from '../packages/client/src/transport/stdio/stdio.js';

transportContract('stdio', {
  tellsAbandon: true,
  async open({ limits, trace }) {
    const { command, args } = fixtureCommand('test/fixtures/contract-stdio.ts');
    return { transport: new StdioTransport({ command, args, limits, trace }), stop: async () => undefined };
  },
});
