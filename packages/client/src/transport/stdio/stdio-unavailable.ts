// What `#stdio` resolves to where there are no child processes (browsers, Workers): bundlers for those platforms
// pick this file through package.json "imports", so node:child_process never reaches their bundle.

import type { StdioOptions } from './stdio.js';
import type { Transport } from '../transport.js';

export const StdioTransport = class {
  constructor(options: StdioOptions) {
    throw new Error(`Cannot start ${options.command}: this runtime cannot spawn processes, so a stdio server is not available here; use an HTTP URL.`);
  }
} as unknown as new (options: StdioOptions) => Transport;
