// `@byhand/switchboard/node`: the bridge's HTTP face on node:http, with no web Request or Response in between
// (node-http.ts says why), for `listenNode` or any node:http server.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Bridge } from './index.js';
import { nodeExchange } from './node-http.js';

export { nodeExchange } from './node-http.js';

/** A node:http request handler for the bridge's HTTP face. */
export function nodeHandler(bridge: Bridge): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return (req, res) => bridge.serve(nodeExchange(req, res));
}
