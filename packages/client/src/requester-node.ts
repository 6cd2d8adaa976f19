// The default requester on Node: node:http/node:https with a keep-alive agent per client. On Node the
// platform's fetch (undici) costs about twice a raw keep-alive request per call (bench/results.md), so
// here, and only here, byhand goes below fetch. Same contract as fetchRequester: no redirects
// followed, the body streamed, abort through the signal.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ByteStream } from './bytes.js';
import type { Requester, WireResponse } from './wire.js';

export function nodeRequester(): Requester {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const requester: Requester = ({ method, url, headers, body, signal }) =>
    new Promise<WireResponse>((resolve, reject) => {
      const secure = url.startsWith('https:');
      const send = secure ? httpsRequest : httpRequest;
      const outgoing = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
      const req = send(url, { method, headers: outgoing, agent: secure ? agents.https : agents.http, signal }, (res) => resolve(wrap(res)));
      req.on('error', reject);
      req.end(body);
    });
  requester.close = () => {
    agents.http.destroy();
    agents.https.destroy();
  };
  return requester;
}

function wrap(res: IncomingMessage): WireResponse {
  let headers: Headers | undefined;
  return {
    status: res.statusCode ?? 0,
    header(name) {
      const value = res.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    headers() {
      if (headers) return headers;
      headers = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      return headers;
    },
    body: bodyOf(res),
  };
}

function bodyOf(res: IncomingMessage): ByteStream {
  const chunks = res[Symbol.asyncIterator]();
  let done = false;
  return {
    async read() {
      if (done) return undefined;
      const next = await chunks.next();
      if (next.done) done = true;
      return next.done ? undefined : (next.value as Buffer);
    },
    async cancel() {
      if (done) return;
      done = true;
      res.destroy();
    },
  };
}

export const defaultRequester = nodeRequester;
export const defaultTransport = 'node' as const;
