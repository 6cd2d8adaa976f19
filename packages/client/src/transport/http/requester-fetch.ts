// The default requester where node:http is not the fastest way out (browsers, Workers, Deno, Bun):
// the platform's fetch. Chosen through package.json "imports" (#default-requester).

import { fetchRequester, type Requester } from './wire.js';

export const defaultRequester = (): Requester => fetchRequester();
export const defaultTransport = 'fetch' as const;
