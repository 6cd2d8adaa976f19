// Forms generated from a JSON Schema's properties. A tool's form gives back key=value words, typed and checked by the
// backend exactly as `byhand call` types them (call/coerce.ts), so the page and the command cannot disagree; an
// elicitation form gives back typed values, as the server's requestedSchema asks.

import { h, str, type Json } from './dom.js';

interface Field {
  name: string;
  schema: Json;
  required: boolean;
  control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
}

function fieldsOf(schema: Json | undefined): Field[] {
  const properties = (schema?.properties ?? {}) as Record<string, Json>;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  return Object.entries(properties).map(([name, property]) => ({ name, schema: property, required: required.includes(name), control: controlFor(name, property, required.includes(name)) }));
}

function controlFor(name: string, schema: Json, required: boolean): Field['control'] {
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  const options = Array.isArray(schema.enum) ? (schema.enum as unknown[]).map(String) : type === 'boolean' ? ['true', 'false'] : undefined;
  const id = `field-${name}`;
  if (options) {
    const select = h('select', { id, name }, ...['', ...options].map((o) => h('option', { value: o }, o === '' ? (required ? '(choose)' : '(not given)') : o)));
    if (schema.default !== undefined) select.value = str(schema.default);
    return select;
  }
  if (type === 'object' || (type === 'array' && typeof (schema.items as Json | undefined)?.type === 'object')) {
    return h('textarea', { id, name, placeholder: type === 'object' ? '{"key": "value"}' : '[...]' });
  }
  const input = h('input', { id, name, type: type === 'integer' || type === 'number' ? 'number' : 'text', ...(type === 'integer' ? { step: '1' } : {}), placeholder: type === 'array' ? 'a, b, c' : '' });
  if (typeof schema.minimum === 'number') input.min = str(schema.minimum);
  if (typeof schema.maximum === 'number') input.max = str(schema.maximum);
  if (schema.default !== undefined) input.placeholder = `default ${JSON.stringify(schema.default)}`;
  return input;
}

function labelled(field: Field): HTMLElement {
  const type = Array.isArray(field.schema.enum) ? 'one of' : str(field.schema.type ?? 'any');
  const about = typeof field.schema.description === 'string' ? field.schema.description : typeof field.schema.title === 'string' ? field.schema.title : '';
  return h('div', {}, h('label', { for: field.control.id }, field.name, h('span', { class: 'muted' }, ` ${type}${field.required ? ', required' : ''}${about ? ` - ${about}` : ''}`)), field.control);
}

/** A tool's arguments: submit gets the key=value words of the fields filled in. */
export function toolForm(schema: Json | undefined, label: string, submit: (pairs: string[]) => void): HTMLElement {
  const fields = fieldsOf(schema);
  const form = h('form', {}, ...fields.map(labelled), h('button', { class: 'act', type: 'submit' }, label));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit(fields.filter((f) => f.control.value !== '').map((f) => `${f.name}=${f.control.value}`));
  });
  return form;
}

/** An elicitation's form: accept with typed content (a field left empty is left out), decline or cancel. */
export function elicitForm(schema: Json | undefined, answer: (action: 'accept' | 'decline' | 'cancel', content?: Json) => void): HTMLElement {
  const fields = fieldsOf(schema);
  const problem = h('p', { class: 'bad' });
  const accept = () => {
    const content: Json = {};
    for (const field of fields) {
      const raw = field.control.value;
      if (raw === '') {
        if (field.required) return void (problem.textContent = `${field.name} is required`);
        continue;
      }
      const type = str(field.schema.type ?? 'string');
      const value = type === 'boolean' ? raw === 'true' : type === 'integer' || type === 'number' ? Number(raw) : type === 'array' ? raw.split(',').map((s) => s.trim()) : raw;
      if (typeof value === 'number' && (!Number.isFinite(value) || (type === 'integer' && !Number.isInteger(value)))) return void (problem.textContent = `${field.name} is not ${type === 'integer' ? 'a whole number' : 'a number'}`);
      content[field.name] = value;
    }
    answer('accept', content);
  };
  return h('div', {}, ...fields.map(labelled), problem,
    h('button', { class: 'act', type: 'button', onclick: accept }, 'Accept'),
    h('button', { class: 'act quiet', type: 'button', onclick: () => answer('decline') }, 'Decline'),
    h('button', { class: 'act quiet', type: 'button', onclick: () => answer('cancel') }, 'Cancel'));
}
