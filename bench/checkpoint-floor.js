// The checkpoint benchmark's floor: `node bench/checkpoint-floor.js CONFIG` does what a probe of a modern server
// does on the wire, with no MCP library: per server one keep-alive node:http agent, POST server/discover, then the
// lists its capabilities offer (tools, resources, prompts, resource templates) at once, as byhand's probe does, close;
// every server at once, started one per event-loop turn as byhand's pool starts them. Prints how many servers
// answered them all. Each request is the one `byhand checkpoint` sends, byte for byte but the id: its envelope (the
// looking host's capabilities, MCP Apps and the tasks extension, its clientInfo, in its order) and its headers in its order, node:http
// counting the body for both. What is left between this and `byhand checkpoint` is byhand's own cost.

import { readFileSync } from 'node:fs';
import http from 'node:http';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {
    sampling: {},
    elicitation: { form: {}, url: {} },
    roots: {},
    extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] }, 'io.modelcontextprotocol/tasks': {} },
  },
  'io.modelcontextprotocol/clientInfo': { name: 'byhand-checkpoint', version: '0.1.0' },
};

/**
 * One request; resolves with its JSON-RPC answer, as parsed.
 * @param {http.Agent} agent
 * @param {URL} url
 * @param {string} method
 * @param {number} id
 * @returns {Promise<any>}
 */
function post(agent, url, method, id) {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: META } });
  return new Promise((resolve, reject) => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': method,
    };
    const request = http.request(url, { agent, method: 'POST', headers, timeout: 10_000 }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => {
        try {
          resolve(JSON.parse(text));
        } catch (error) {
          reject(error);
        }
      });
    });
    request.on('timeout', () => request.destroy(new Error(`${method}: no answer within 10 s`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** @param {URL} url */
async function probe(url) {
  const agent = new http.Agent({ keepAlive: true });
  try {
    const discovered = await post(agent, url, 'server/discover', 1);
    if (!discovered.result) return false;
    const capabilities = discovered.result.capabilities ?? {};
    const lists = [
      ['tools', 'tools/list'],
      ['resources', 'resources/list'],
      ['prompts', 'prompts/list'],
      ['resources', 'resources/templates/list'],
    ].filter(([capability]) => capability in capabilities);
    const answers = await Promise.all(lists.map(([, method], i) => post(agent, url, method, 2 + i)));
    return answers.every((answer) => answer.result !== undefined);
  } finally {
    agent.destroy();
  }
}

/** @type {{ mcpServers: Record<string, { url: string }> }} */
const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const urls = Object.values(config.mcpServers).map((server) => new URL(server.url));
const probes = [];
for (const url of urls) {
  if (probes.length > 0) await new Promise((resolve) => setImmediate(resolve));
  probes.push(probe(url).catch(() => false));
}
const ok = (await Promise.all(probes)).filter(Boolean).length;
process.stdout.write(`${ok}\n`);
