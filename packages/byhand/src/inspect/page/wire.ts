// The wire: every message the client sent and received, in both eras, with its HTTP exchange and headers, grouped
// under the call it belongs to. An MRTR call shows each round: what the server asked (inputRequests, requestState),
// what was answered, and the retry, with where inputResponses and requestState sit in it (top-level params, as the
// spec puts them; anywhere else is marked). Bounded: past the last entries kept, the oldest go, counted.

import { h, pretty, str, type Json } from './dom.js';

export const WIRE_BOUND = 1000;

export class WireView {
  readonly element = h('div', { 'data-testid': 'wire' });
  private readonly droppedLine = h('p', { class: 'muted' });
  private readonly groups = new Map<string, HTMLElement>();
  /** Each call's last requestState: the retry after an answer carries it back. */
  private readonly states = new Map<unknown, unknown>();
  private loose: HTMLElement | undefined;
  private entries: HTMLElement[] = [];
  private dropped = 0;

  constructor() {
    this.element.append(this.droppedLine);
  }

  /** The backend dropped this many before the page saw them. */
  droppedEarlier(count: number): void {
    this.dropped += count;
    this.showDropped();
  }

  callStarted(event: Json): void {
    const group = h('div', { class: 'wire-call', 'data-call': str(event.call) }, h('strong', {}, `${str(event.kind)} ${str(event.name)}`), h('span', { class: 'muted' }, ` (${str(event.from)}, ${str(event.call)})`));
    this.groups.set(str(event.call), group);
    this.loose = undefined;
    this.element.append(group);
  }

  callEnded(event: Json): void {
    this.groups.get(str(event.call))?.append(h('div', { class: event.ok ? 'good' : 'bad' }, event.ok ? 'complete' : `failed: ${str((event.error as Json | undefined)?.message)}`));
  }

  round(event: Json): void {
    const round = event.round as Json;
    const keys = Object.keys((round.phase === 'asked' ? round.inputRequests : round.inputResponses) as Json);
    if (round.phase === 'asked') this.states.set(event.call, round.requestState);
    const text = round.phase === 'asked'
      ? `round ${str(round.round)}: the server asked for ${keys.join(', ') || 'nothing'} (input_required)${round.requestState !== undefined ? `, requestState ${JSON.stringify(round.requestState)}` : ''}`
      : `round ${str(round.round)}: answered ${keys.join(', ')}; the retry carries them as params.inputResponses${this.states.get(event.call) !== undefined ? ' with params.requestState' : ''}`;
    this.place(event.call, h('div', { class: 'round', 'data-testid': 'round' }, text));
  }

  message(event: Json): void {
    const entry = event.entry as Json;
    const http = (entry.http ?? {}) as Json;
    const message = (entry.message ?? {}) as Json;
    const arrow = entry.direction === 'send' ? '→' : '←';
    const via = typeof http.method === 'string' ? `${http.method} ${str(http.url ?? '')}` : http.status !== undefined ? `HTTP ${str(http.status)}` : str(entry.transport);
    const what = typeof message.method === 'string' ? message.method : 'error' in message ? `error ${str((message.error as Json).code)}` : 'result' in message ? 'result' : entry.raw !== undefined ? '(not JSON)' : '';
    const summary = h('summary', {}, `${arrow} ${via} ${what}`, ...placementTags(message));
    const headers = http.headers as Record<string, string> | undefined;
    const details = h('details', { class: 'wire-entry' }, summary,
      headers ? h('table', {}, ...Object.entries(headers).map(([name, value]) => h('tr', {}, h('th', {}, name), h('td', {}, value)))) : undefined,
      h('pre', {}, entry.message !== undefined ? pretty(entry.message) : str(entry.raw ?? '')));
    this.place(event.call, details);
  }

  notification(event: Json): void {
    const notification = event.notification as Json;
    this.place(event.call, h('div', { class: 'wire-entry muted' }, `← ${str(notification.method)} ${pretty(notification.params ?? {})}`));
  }

  private place(call: unknown, element: HTMLElement): void {
    let group = typeof call === 'string' ? this.groups.get(call) : undefined;
    if (group === undefined) {
      // Folded: the era probe and the lists are the same every time, and in the way of the calls.
      this.loose ??= this.element.appendChild(h('details', { class: 'wire-call' }, h('summary', {}, h('strong', {}, 'outside a call'), h('span', { class: 'muted' }, ' (the era probe, lists)'))));
      group = this.loose;
    }
    group.append(element);
    this.entries.push(element);
    if (this.entries.length > WIRE_BOUND) {
      this.entries.shift()?.remove();
      this.dropped++;
      this.showDropped();
    }
  }

  private showDropped(): void {
    this.droppedLine.textContent = this.dropped > 0 ? `${this.dropped} earlier wire entries dropped (the page keeps the last ${WIRE_BOUND})` : '';
  }
}

/** Where a retry's answers sit: top-level params is the spec's place; inside _meta is the trap byhand check names. */
function placementTags(message: Json): HTMLElement[] {
  const params = (message.params ?? {}) as Json;
  const result = (message.result ?? {}) as Json;
  const meta = (params._meta ?? {}) as Json;
  const tags: HTMLElement[] = [];
  if ('inputResponses' in params) tags.push(h('span', { class: 'tag', 'data-testid': 'placement' }, 'inputResponses at params'));
  if ('requestState' in params) tags.push(h('span', { class: 'tag', 'data-testid': 'placement' }, 'requestState at params'));
  if ('inputResponses' in meta || 'requestState' in meta) tags.push(h('span', { class: 'tag warn' }, 'answers inside _meta'));
  if (result.resultType === 'input_required') tags.push(h('span', { class: 'tag' }, 'input_required'));
  return tags;
}
