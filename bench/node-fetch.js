// An experiment, not part of byhand: the `fetch` option of byhand's connect() served by node:http
// with a keep-alive agent, answering with a minimal Response-like object (no WHATWG Headers,
// Response or body streams for JSON answers), to measure how much of byhand's per-call cost is
// undici's fetch machinery. It implements only what src/client/http.ts reads: status, ok,
// headers.get() and iteration, text(), body (a web stream for SSE, cancel() otherwise). http: only.

import http from 'node:http';
import { Readable } from 'node:stream';

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

export function nodeFetch(input, init = {}) {
  return new Promise((resolve, reject) => {
    const url = new URL(String(input));
    if (url.protocol !== 'http:') return reject(new TypeError(`bench nodeFetch speaks http: only, not ${url.protocol}`));
    const headers = { ...init.headers };
    if (init.body !== undefined && init.body !== null) headers['content-length'] = Buffer.byteLength(init.body);
    const request = http.request(
      { hostname: url.hostname, port: url.port, path: url.pathname + url.search, method: init.method ?? 'GET', headers, agent, signal: init.signal },
      (response) => {
        const status = response.statusCode ?? 0;
        // A Map answers get(lower-case name) and iterates as [name, value] pairs, like Headers.
        const responseHeaders = new Map(Object.entries(response.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
        const base = { status, ok: status >= 200 && status < 300, headers: responseHeaders };
        if ((response.headers['content-type'] ?? '').includes('text/event-stream')) {
          const body = Readable.toWeb(response);
          return resolve({ ...base, body, text: () => new Response(body).text() });
        }
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.once('error', reject);
        response.once('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ ...base, body: { cancel: async () => undefined }, text: async () => text });
        });
      },
    );
    request.once('error', reject);
    request.end(init.body ?? undefined);
  });
}
