// The node:http listener and its guards alone, for another front on Node (`byhand bridge --listen`): no toolbox, no
// SDK, no zod.

export { listenNode, type Listening, type NodeHandler } from './edge/listen.js';
export { acceptedHosts, hostRefusal } from './edge/host-check.js';
export { dropRestOfBody } from './edge/node-adapter.js';
