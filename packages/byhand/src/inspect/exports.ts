// A history entry as something to run again: the `byhand call` (read, prompt) line, or, for a modern server over
// HTTP, the curl of its first request as byhand sends it (the envelope and the headers that mirror the body). A
// legacy server's request needs its session and a stdio server no HTTP, so those have no curl, said why. A credential
// is never written out: the curl has none, and says where one goes.

import { envelope, standardHeaders, type Client, type JsonObject } from '@byhand/client';
import { shellQuote } from '../shared/output.js';
import type { HistoryEntry } from './session.js';

export function callLine(entry: HistoryEntry, server: string): string {
  const verb = entry.kind === 'call' ? 'call' : entry.kind === 'read' ? 'read' : 'prompt';
  const args = Object.keys(entry.args).length > 0 ? ` ${shellQuote(JSON.stringify(entry.args))}` : '';
  return `byhand ${verb} ${shellQuote(server)} ${shellQuote(entry.name)}${args}`;
}

export function curlLine(entry: HistoryEntry, client: Client, url: string | undefined): string {
  if (url === undefined) throw new Error('a stdio server has no HTTP request to give as curl: use the byhand call line');
  if (client.era !== 'modern') throw new Error('a 2025 server needs its session (initialize first) for any request: use the byhand call line');
  const method = entry.kind === 'call' ? 'tools/call' : entry.kind === 'read' ? 'resources/read' : 'prompts/get';
  const params: JsonObject = entry.kind === 'read' ? { uri: entry.name } : { name: entry.name, arguments: entry.args };
  const caps = (client.capabilities ?? {}) as JsonObject;
  const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope(client.protocolVersion, caps, { name: 'byhand', version: '0.2.0' }) } };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...standardHeaders(method, params, client.protocolVersion), ...client.paramHeadersFor(entry.name, entry.args) };
  return ['# add the server\'s credential, if it needs one, as another -H\ncurl -sS -X POST', shellQuote(url), ...Object.entries(headers).map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`), `--data ${shellQuote(JSON.stringify(body))}`].join(' \\\n  ');
}
