// What every part of the page shares: building elements, the API with the token, and the backend's event stream.

export type Json = Record<string, unknown>;
type Child = Node | string | number | undefined | null | false;

/** An element with attributes (on* are listeners) and children; text children are text, never HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, unknown> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value as EventListener);
    else element.setAttribute(name, value === true ? '' : str(value));
  }
  for (const child of children) if (child !== undefined && child !== null && child !== false) element.append(typeof child === 'number' ? String(child) : child);
  return element;
}

function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
}

export const TOKEN = meta('byhand-token');
export const SANDBOX_ORIGIN = meta('byhand-sandbox');

export class ApiFailure extends Error {
  constructor(message: string, readonly hint?: string, readonly status?: number) {
    super(message);
  }
}

/** One API call: GET without a body, POST with one; a refusal is an ApiFailure with the backend's words. */
export async function api<T = Json>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-byhand-token': TOKEN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const value = (await response.json()) as Json;
  if (!response.ok) {
    const error = (value.error ?? {}) as { message?: string; hint?: string };
    throw new ApiFailure(error.message ?? `HTTP ${response.status}`, error.hint, response.status);
  }
  return value as T;
}

export function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** The backend's events, one object each, for as long as the page is open; a dropped stream is opened again. */
export async function listen(onEvent: (event: Json) => void): Promise<void> {
  for (;;) {
    try {
      const response = await fetch('/api/events', { headers: { 'x-byhand-token': TOKEN } });
      if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
          if (data) onEvent(JSON.parse(data) as Json);
        }
      }
    } catch {
      // The backend went away or the stream was cut: try again shortly.
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** A line saying what failed and what to do, as the backend said it. */
export function failure(error: unknown): HTMLElement {
  const { message, hint } = error as { message?: string; hint?: string };
  return h('p', { class: 'bad', role: 'alert' }, message ?? String(error), hint ? h('span', { class: 'muted' }, ` (${hint})`) : undefined);
}

/** Any value as text: a string as it is, nothing as nothing, anything else as its JSON. */
export function str(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}
