// The hosts in front of `byhand bridge` in its tests: the official SDK clients, 2.4.0 for a 2026 host and 1.x for a
// 2025 one, answering what a server asks with handlers of their own. Each answer names its host (`label`), so a test
// can tell whose answer came back through the bridge; what each host was asked is recorded.

import type { Client as ModernClient } from '@modelcontextprotocol/client';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export interface Asked {
  /** The text of each sampling request. */
  prompts: string[];
  /** The message of each form. */
  forms: string[];
  /** Forms the bridge withdrew (notifications/cancelled) before they were answered. */
  withdrawn: string[];
  /** How many times the host was asked for its roots. */
  roots: number;
}

/** The SDK 2.4.0 client answers sampling, forms and roots, as its capabilities declare. */
export function answerAsModernHost(client: ModernClient, capabilities: Record<string, object>, label: string): Asked {
  const asked: Asked = { prompts: [], forms: [], withdrawn: [], roots: 0 };
  if ('sampling' in capabilities) {
    client.setRequestHandler('sampling/createMessage', async (request) => {
      const text = request.params.messages.map((m) => (!Array.isArray(m.content) && m.content.type === 'text' ? m.content.text : '')).join(' ');
      asked.prompts.push(text);
      return { role: 'assistant' as const, content: { type: 'text' as const, text: `the ${label} model says: ${text.length} characters` }, model: `${label}-model`, stopReason: 'endTurn' };
    });
  }
  if ('roots' in capabilities) {
    client.setRequestHandler('roots/list', async () => ((asked.roots += 1), { roots: [{ uri: `file:///${label}/project`, name: 'project' }] }));
  }
  if ('elicitation' in capabilities) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { message: string; requestedSchema?: { properties: Record<string, unknown> } };
      asked.forms.push(params.message);
      return { action: 'accept' as const, content: Object.fromEntries(Object.keys(params.requestedSchema?.properties ?? {}).map((name) => [name, `${label} ${name}`])) };
    });
  }
  return asked;
}

/**
 * The SDK 1.x client answers sampling, forms and roots, as its capabilities declare. `formsWait`: a person who has not
 * answered yet, so a form stays open until the bridge withdraws it.
 */
export function answerAsLegacyHost(client: LegacyClient, capabilities: Record<string, object>, label: string, formsWait = false): Asked {
  const asked: Asked = { prompts: [], forms: [], withdrawn: [], roots: 0 };
  if ('sampling' in capabilities) client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const text = request.params.messages.map((m) => ('text' in m.content ? String(m.content.text) : '')).join(' ');
    asked.prompts.push(text);
    return { role: 'assistant', content: { type: 'text', text: `the ${label} model says: ${text.length} characters` }, model: `${label}-model`, stopReason: 'endTurn' };
  });
  if ('elicitation' in capabilities) client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    asked.forms.push(request.params.message);
    if (formsWait) {
      return new Promise((_, reject) => extra.signal.addEventListener('abort', () => (asked.withdrawn.push(request.params.message), reject(new Error('withdrawn')))));
    }
    const properties = 'requestedSchema' in request.params ? Object.keys(request.params.requestedSchema.properties) : [];
    return { action: 'accept', content: Object.fromEntries(properties.map((name) => [name, `${label} ${name}`])) };
  });
  if ('roots' in capabilities) client.setRequestHandler(ListRootsRequestSchema, async () => ((asked.roots += 1), { roots: [{ uri: `file:///${label}/project`, name: 'project' }] }));
  return asked;
}

interface Tappable {
  transport?: { onmessage?: (message: never, extra?: never) => void };
}

/**
 * The progress of a host's calls as it reached the host, read off its transport: for the last call answered, the
 * values under its token that came before the answer. Not the host's `onprogress`: the SDK hands a notification to its
 * handler a microtask after a response read in the same chunk, and the response has retired the token by then
 * (modelcontextprotocol/typescript-sdk issue 2580), so `onprogress` loses progress sent just before a result, at
 * random, whoever sends it. What a relay controls is what it sends, and in which order. Tap after `connect`.
 */
export function tapProgress(client: Tappable): { lastCall(): number[] } {
  const transport = client.transport;
  const inner = transport?.onmessage;
  if (transport === undefined || inner === undefined) throw new Error('tapProgress: the client is not connected');
  const seen: ({ token: unknown; progress: number } | { answered: unknown })[] = [];
  transport.onmessage = (message: never, extra?: never) => {
    const m = message as { id?: unknown; method?: string; params?: { progressToken?: unknown; progress?: number } };
    if (m.method === 'notifications/progress') seen.push({ token: m.params?.progressToken, progress: Number(m.params?.progress) });
    else if (m.method === undefined && m.id !== undefined) seen.push({ answered: m.id });
    inner.call(transport, message, extra);
  };
  return {
    lastCall() {
      const end = seen.findLastIndex((entry) => 'answered' in entry);
      if (end === -1) return [];
      const id = (seen[end] as { answered: unknown }).answered;
      return seen.slice(0, end).flatMap((entry) => ('token' in entry && entry.token === id ? [entry.progress] : []));
    },
  };
}
