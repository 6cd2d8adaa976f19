// The Everything toolbox as a 2025-11-25-only server: the same tools, prompts and resources, on 2025 sessions, with
// the 2026 era taken away. What a legacy server answers to a 2026 request was probed, not guessed: the official
// reference server (@modelcontextprotocol/server-everything on SDK 1.x, test/support/reference-http.ts) answers a
// POST with no Mcp-Session-Id that is not `initialize` (server/discover, an enveloped tools/call) from a fresh
// StreamableHTTPServerTransport, which has not been initialized:
//   400 {"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}
// and a GET or DELETE with no known session with its own routing's 400 "Bad Request: No valid session ID provided"
// (dist/transports/streamableHttp.js). Inside a session the toolbox's 2025 path answers, and the 2026 envelope keys
// are taken out of `_meta` first: to a legacy server they are metadata it does not read, while the dual-era toolbox
// would route an enveloped request to its 2026 path (2025's own `_meta` keys, such as a task's, stay).

import { acceptedHosts, listenFetch } from '../../packages/servers/src/node.js';
import { createToolbox } from '../../packages/servers/src/toolboxes/create.js';

export interface LegacyOnlyServer {
  url: string;
  close(): Promise<void>;
}

/** The 2026 envelope's keys (spec 2026-07-28 basic/index.mdx). */
const ENVELOPE = new Set(['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities', 'io.modelcontextprotocol/clientInfo', 'io.modelcontextprotocol/logLevel']);

const refuse = (message: string) => Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status: 400 });

/** `seen`: each JSON-RPC message a client POSTs, as the server reads it (what a bridge told the server). */
export async function startLegacyOnlyEverything(options: { seen?: (message: Record<string, unknown>) => void } = {}): Promise<LegacyOnlyServer> {
  const toolbox = createToolbox('everything', { allowedHosts: acceptedHosts('127.0.0.1'), legacy: 'sessionful' });
  await toolbox.ready();
  const listening = await listenFetch(async (request) => {
    const session = request.headers.get('mcp-session-id');
    if (request.method !== 'POST') return session === null ? refuse('Bad Request: No valid session ID provided') : toolbox.fetch(request);
    const text = await request.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const message = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    if (message !== undefined) options.seen?.(message);
    if (session === null && message?.method !== 'initialize') return refuse('Bad Request: Server not initialized');
    return toolbox.fetch(new Request(request.url, { method: 'POST', headers: request.headers, body: message === undefined ? text : JSON.stringify(withoutEnvelope(message)), signal: request.signal }));
  }, { host: '127.0.0.1', port: 0 });
  return {
    url: `${listening.origin}/mcp`,
    async close() {
      await listening.close();
      await toolbox.close();
    },
  };
}

/** The message with the 2026 envelope's keys out of `params._meta` (a legacy server passes `_meta` through unread). */
function withoutEnvelope(message: Record<string, unknown>): Record<string, unknown> {
  const params = message.params as Record<string, unknown> | undefined;
  const meta = params?._meta as Record<string, unknown> | undefined;
  if (meta === undefined || !Object.keys(meta).some((key) => ENVELOPE.has(key))) return message;
  const kept = Object.fromEntries(Object.entries(meta).filter(([key]) => !ENVELOPE.has(key)));
  return { ...message, params: { ...params, _meta: kept } };
}
