// The reference server: what the SDK's own examples build. createMcpHandler (modern, with the SDK's
// stateless legacy fallback) over a minimal node:http adapter, the Host/Origin checks its docs put in
// front, and the same two tools the benchmarks call on byhand's toolboxes:
//   simple_text    ~ the Everything toolbox's test_simple_text (no input, one text block)
//   probe_sampling ~ the Probe's probe_sampling (zod input, a two-round MRTR sampling request)

import { createServer } from 'node:http';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  inputRequired,
  inputResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  McpServer,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
/** @import { AddressInfo } from 'node:net' */
/** @import { ReadableStream } from 'node:stream/web' */

/**
 * The two tools, on any McpServer (also used to put them behind byhand's own edge, bench/server-child.js).
 * @param {McpServer} server
 */
export function registerReferenceTools(server) {
  server.registerTool('simple_text', { description: 'Returns one text block' }, async () => ({
    content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
  }));
  server.registerTool(
    'probe_sampling',
    {
      description: 'Asks for sampling by returning input_required',
      inputSchema: z.object({ topic: z.string().max(200).default('soup') }),
      annotations: { readOnlyHint: true },
    },
    async ({ topic }, ctx) => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'think');
      if (view.kind === 'sampling') {
        const content = view.result.content;
        const block = Array.isArray(content) ? content[0] : content;
        const answer = block?.type === 'text' ? block.text : '';
        return { content: [{ type: 'text', text: `model said: ${answer}` }], structuredContent: { topic, answer } };
      }
      return inputRequired({
        inputRequests: {
          think: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `In one sentence: what is worth knowing about ${topic}?` } }],
            maxTokens: 100,
          }),
        },
      });
    },
  );
}

function buildServer() {
  const server = new McpServer({ name: 'sdk-reference', version: '2.4.0' });
  registerReferenceTools(server);
  return server;
}

/**
 * Starts the reference server on 127.0.0.1. `onRequest(method, mcpMethod)` sees every HTTP request (for counting).
 * @param {{ port?: number, onRequest?: (method: string | undefined, mcpMethod: string | string[] | undefined) => void }} [options]
 */
export async function startReferenceServer({ port = 0, onRequest } = {}) {
  const handler = createMcpHandler(() => buildServer());
  const hosts = localhostAllowedHostnames();
  const origins = localhostAllowedOrigins();
  let origin = 'http://127.0.0.1';

  const http = createServer(async (req, res) => {
    try {
      onRequest?.(req.method, req.headers['mcp-method']);
      /** @type {Buffer[]} */
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else if (value !== undefined) headers.set(name, value);
      }
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(new URL(req.url ?? '/', origin), { method: req.method, headers, ...(hasBody ? { body: Buffer.concat(chunks) } : {}) });
      const response = hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, origins) ?? (await handler.fetch(request));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) return void res.end();
      // Node's web streams are async iterable (node:stream/web says so); the DOM library's ReadableStream type does not.
      const body = /** @type {ReadableStream<Uint8Array>} */ (response.body);
      for await (const chunk of body) res.write(chunk);
      res.end();
    } catch {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  await /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', resolve);
  }));
  const address = /** @type {AddressInfo} */ (http.address());
  origin = `http://127.0.0.1:${address.port}`;
  return {
    url: `${origin}/mcp`,
    async close() {
      const closed = new Promise((resolve) => http.close(resolve));
      http.closeAllConnections();
      await handler.close();
      await closed;
    },
  };
}
