// A result as a person reads it: text, images, audio, embedded resources and links, the structured content with
// what checking it against the tool's outputSchema found, and an error said as one.

import { h, pretty, str, type Json } from './dom.js';

export function resultView(result: Json, validation?: string[]): HTMLElement {
  const blocks = Array.isArray(result.content) ? (result.content as Json[]) : Array.isArray(result.contents) ? (result.contents as Json[]) : [];
  const view = h('div', { class: 'result', 'data-testid': 'result' });
  if (result.isError === true) view.append(h('p', { class: 'bad' }, 'The tool reported an error (isError)'));
  for (const block of blocks) view.append(blockView(block));
  if (Array.isArray(result.messages)) for (const message of result.messages as Json[]) view.append(h('div', {}, h('strong', {}, str(message.role)), blockView(message.content as Json)));
  if (result.structuredContent !== undefined) {
    view.append(h('h3', {}, 'structuredContent', validation === undefined ? undefined : validation.length === 0 ? h('span', { class: 'tag' }, 'fits the outputSchema') : h('span', { class: 'tag warn' }, 'does not fit the outputSchema')));
    view.append(h('pre', {}, pretty(result.structuredContent)));
    for (const problem of validation ?? []) view.append(h('p', { class: 'bad' }, problem));
  }
  return view;
}

function blockView(block: Json): HTMLElement {
  switch (block.type) {
    case 'text':
      return h('pre', {}, str(block.text));
    case 'image':
      return h('img', { class: 'result', alt: 'an image the server sent', src: `data:${str(block.mimeType)};base64,${str(block.data)}` });
    case 'audio':
      return h('audio', { class: 'result', controls: true, src: `data:${str(block.mimeType)};base64,${str(block.data)}` });
    case 'resource': {
      const resource = (block.resource ?? {}) as Json;
      return h('div', {}, h('span', { class: 'muted' }, `embedded ${str(resource.uri)} (${str(resource.mimeType ?? 'no mimeType')})`), h('pre', {}, typeof resource.text === 'string' ? resource.text : `${str(resource.blob ?? '').length} base64 characters`));
    }
    case 'resource_link':
      return h('p', {}, 'a link to ', h('code', {}, str(block.uri)), block.name ? ` (${str(block.name)})` : '');
    default:
      // resources/read contents, and what this page does not know: shown as sent.
      if (typeof block.uri === 'string') return h('div', {}, h('span', { class: 'muted' }, `${block.uri} (${str(block.mimeType ?? 'no mimeType')})`), h('pre', {}, typeof block.text === 'string' ? block.text : pretty(block)));
      return h('pre', {}, pretty(block));
  }
}
