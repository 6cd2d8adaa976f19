// The official reference server (@modelcontextprotocol/server-everything, a devDependency) over Streamable HTTP on
// loopback, in this process: its own transports/streamableHttp.js binds every interface on a fixed port, so this is
// the same session routing (dist/transports/streamableHttp.js, app.post) on 127.0.0.1 and a free port. The server
// speaks the 2025-11-25 handshake era and serves tasks in that revision's form (dist/server/index.js: the `tasks`
// capability; dist/tools/simulate-research-query.js: a task-only tool). The transport is the SDK 1.x one the
// reference server itself uses.

import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer as createEverything } from '@modelcontextprotocol/server-everything/dist/server/index.js';

export interface ReferenceServer {
  url: string;
  close(): Promise<void>;
}

type Session = { transport: StreamableHTTPServerTransport; cleanup: (sessionId?: string) => void };

export async function startReferenceServer(): Promise<ReferenceServer> {
  const sessions = new Map<string, Session>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (known) return known.transport.handleRequest(req, res);
    if (sessionId !== undefined || req.method !== 'POST') {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } }));
      return;
    }
    const { server, cleanup } = createEverything();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, cleanup }),
    });
    server.server.onclose = async () => {
      const id = transport.sessionId;
      if (id === undefined || !sessions.delete(id)) return;
      cleanup(id);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
  const http = createHttpServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
