// The one way in to the HTTP+SSE transport (http-sse.ts): part of the legacy chunk, it loads http-sse on demand
// and hands it the kit it was given (legacy-kit.ts), so neither chunk shares a module with the entry.

import type { HttpTransport } from '../http/http.js';
import { HttpSession } from '../http/legacy-http.js';
import { kit } from '../../legacy-kit.js';
import type { Transport } from '../transport.js';

/** GET `http.url` for an `endpoint` event within `timeoutMs`: the transport, or undefined when the URL does not speak it. */
export async function openSse(http: HttpTransport, timeoutMs: number, signal?: AbortSignal): Promise<Transport | undefined> {
  const { SseTransport } = await import('./http-sse.js');
  // Its GET is a 2025 session's stream opener; no session is set on the transport for it.
  return SseTransport.open(kit, http, new HttpSession(http), timeoutMs, signal);
}
