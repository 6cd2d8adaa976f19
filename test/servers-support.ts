// Shared by the servers-*.test.ts files: the official SDK client as a scripted host, and raw HTTP for the cases
// where the SDK client would hide what is on the wire.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export const MODERN = '2026-07-28';

export const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'servers-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { sampling: {}, elicitation: {}, roots: {} },
};

export interface ScriptedHost {
  client: Client;
  /** Every sampling request the server made, in order. */
  sampling: Array<{ messages: Array<{ content: unknown }>; maxTokens: number; systemPrompt?: string }>;
  /** Every elicitation request the server made, in order. */
  elicitations: Array<{ message: string; requestedSchema?: unknown }>;
  close(): Promise<void>;
}

export interface HostScript {
  era: 'modern' | 'legacy';
  /** What the model answers; defaults to echoing a fixed sentence. */
  think?: (prompt: string) => string;
  /** What the user answers; defaults to declining. */
  elicit?: (message: string) => { action: 'accept'; content: Record<string, string | number | boolean> } | { action: 'decline' | 'cancel' };
}

function promptText(messages: Array<{ content: unknown }>): string {
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : [m.content]))
    .map((b) => (b !== null && typeof b === 'object' && 'text' in b ? String((b as { text: unknown }).text) : ''))
    .join('\n');
}

/** The SDK client, connected in the given era, answering sampling and elicitation from a script. */
export async function connectHost(url: string, script: HostScript): Promise<ScriptedHost> {
  const client = new Client(
    { name: 'servers-test-host', version: '1.0.0' },
    {
      capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} },
      ...(script.era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  const host: ScriptedHost = { client, sampling: [], elicitations: [], close: () => client.close() };
  client.setRequestHandler('sampling/createMessage', async (request) => {
    const params = request.params as unknown as ScriptedHost['sampling'][number];
    host.sampling.push(params);
    const prompt = promptText(params.messages);
    return { role: 'assistant' as const, content: { type: 'text' as const, text: script.think?.(prompt) ?? 'the model thought about it' }, model: 'scripted-model', stopReason: 'endTurn' };
  });
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as unknown as { message: string; requestedSchema?: unknown };
    host.elicitations.push(params);
    return script.elicit?.(params.message) ?? { action: 'decline' as const };
  });
  client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///tmp/kitchen', name: 'kitchen' }] }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return host;
}

/** The text blocks of a tool result, whichever client returned it (the SDK 1.x result type is a union). */
export function textOf(result: object): string {
  const content = 'content' in result && Array.isArray(result.content) ? result.content : [];
  return content.map((b: { type?: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : '')).join('\n');
}

export interface WireAnswer {
  status: number;
  headers: Headers;
  /** The JSON-RPC response: the JSON body, or the response frame of an SSE body. */
  body: { id?: unknown; result?: Record<string, any>; error?: { code: number; message: string; data?: any } } | undefined;
  raw: string;
}

export async function parseAnswer(response: Response): Promise<WireAnswer> {
  const raw = await response.text();
  let body: WireAnswer['body'];
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const frames = raw
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trim())
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    body = frames.reverse().find((f) => 'result' in f || 'error' in f);
  } else if (raw.length > 0) {
    try {
      body = JSON.parse(raw) as WireAnswer['body'];
    } catch {
      body = undefined;
    }
  }
  return { status: response.status, headers: response.headers, body, raw };
}

let nextId = 1;

export interface ModernCall {
  headers?: Record<string, string | null>;
  meta?: Record<string, unknown> | null;
}

/** A hand-built 2026-07-28 request with the envelope and the SEP-2243 headers, each overridable to break it. */
export async function modernRpc(url: string, method: string, params: Record<string, unknown> = {}, call: ModernCall = {}): Promise<WireAnswer> {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(name !== undefined && ['tools/call', 'prompts/get', 'resources/read'].includes(method) ? { 'mcp-name': name } : {}),
  };
  for (const [k, v] of Object.entries(call.headers ?? {})) {
    if (v === null) delete headers[k.toLowerCase()];
    else headers[k.toLowerCase()] = v;
  }
  const meta = call.meta === undefined ? ENVELOPE : call.meta;
  const body = { jsonrpc: '2.0', id: nextId++, method, params: meta === null ? params : { ...params, _meta: meta } };
  return parseAnswer(await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) }));
}

/** A 2025-era POST (no envelope); pass the session id once initialize has returned one. */
export async function legacyRpc(url: string, method: string, params: Record<string, unknown> = {}, sessionId?: string, isNotification = false): Promise<WireAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  const body = isNotification ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', id: nextId++, method, params };
  return parseAnswer(await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) }));
}

export const initializeParams = (capabilities: Record<string, unknown> = { sampling: {}, elicitation: {} }) => ({
  protocolVersion: '2025-11-25',
  capabilities,
  clientInfo: { name: 'servers-test-curl', version: '1' },
});
