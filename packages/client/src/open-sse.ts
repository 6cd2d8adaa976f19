// The one way in to the HTTP+SSE transport (http-sse.ts): loaded on demand, and handed the client's
// pieces it uses, so its chunk shares no module with the entry (see http-sse.ts).

import { Deadline } from './deadline.js';
import { McpError, ProtocolError, StreamClosedError } from './errors.js';
import { HttpTransport } from './http.js';
import { redactUrl } from './redact.js';
import { readSse } from './sse.js';
import { isRequest, isResponse, type Transport } from './transport.js';

/** GET `http.url` for an `endpoint` event within `timeoutMs`: the transport, or undefined when the URL does not speak it. */
export async function openSse(http: HttpTransport, timeoutMs: number, signal?: AbortSignal): Promise<Transport | undefined> {
  const { SseTransport } = await import('./http-sse.js');
  return SseTransport.open({ Deadline, HttpTransport, McpError, ProtocolError, StreamClosedError, readSse, redactUrl, isRequest, isResponse }, http, timeoutMs, signal);
}
