// byhand inspect's page: panels over one connected server. The page holds no client: byhand's client runs in the
// backend (the same as every command's), and the page shows what it sent and received (the event stream) and asks
// the person what the server asks. The panels: Connection, Tools, Resources, Prompts, Apps, Wire, Log, History,
// Check, Roots; questions from the server appear above whichever is open.

import { AppHost } from './app-host.js';
import { api, failure, h, listen, pretty, str, type Json } from './dom.js';
import { elicitForm, toolForm } from './forms.js';
import { resultView } from './results.js';
import { WireView } from './wire.js';

const LOG_BOUND = 500;
const PANELS = ['Connection', 'Tools', 'Resources', 'Prompts', 'Apps', 'Wire', 'Log', 'History', 'Check', 'Roots'] as const;
type Panel = (typeof PANELS)[number];

interface Lists { tools: Json[]; excluded: { name: string; reason: string }[]; resources: Json[]; templates: Json[]; prompts: Json[] }

const wire = new WireView();
const logList = h('div', { 'data-testid': 'log' });
const questions = h('section', { class: 'panel', 'aria-live': 'polite', 'data-testid': 'questions' });
const panels = new Map<Panel, HTMLElement>(PANELS.map((name) => [name, h('section', { class: 'panel', 'data-panel': name, hidden: true })]));
const tabs = new Map<Panel, HTMLButtonElement>();
let lists: Lists = { tools: [], excluded: [], resources: [], templates: [], prompts: [] };
let app: AppHost | undefined;
let logged = 0;

function log(kind: string, detail?: unknown): void {
  logList.prepend(h('div', { class: 'wire-entry', 'data-kind': kind }, h('strong', {}, kind), detail === undefined ? undefined : h('pre', {}, typeof detail === 'string' ? detail : pretty(detail))));
  if (++logged > LOG_BOUND) logList.lastElementChild?.remove();
}

function show(name: Panel): void {
  for (const [panel, element] of panels) element.hidden = panel !== name;
  for (const [panel, tab] of tabs) tab.setAttribute('aria-selected', str(panel === name));
}

function start(): void {
  const nav = h('nav', { role: 'tablist' });
  for (const name of PANELS) {
    const tab = h('button', { role: 'tab', 'data-tab': name, onclick: () => show(name) }, name);
    tabs.set(name, tab);
    nav.append(tab);
  }
  panels.get('Wire')!.append(h('h2', {}, 'The wire'), wire.element);
  panels.get('Log')!.append(h('h2', {}, 'Log: notifications, progress, roots, and what apps say'), logList);
  const content = h('div', {}, questions, ...panels.values());
  document.getElementById('app')!.replaceChildren(nav, content);
  show('Connection');
  void listen(onEvent);
  void refresh();
}

/** The last event shown: a stream opened again replays the kept log, and what the page has is not shown twice. */
let seen = 0;

function onEvent(event: Json): void {
  if (typeof event.seq === 'number') {
    if (event.seq <= seen) return;
    seen = event.seq;
  }
  switch (event.type) {
    case 'hello':
      wire.droppedEarlier(Number(event.dropped ?? 0));
      // What came before this page: shown, but a connection made then is the one the page already asked about.
      for (const earlier of event.events as Json[]) if (earlier.type !== 'connected') onEvent(earlier);
      return;
    case 'wire':
      return wire.message(event);
    case 'round':
      return wire.round(event);
    case 'call-start':
      return wire.callStarted(event);
    case 'call-end':
      return wire.callEnded(event);
    case 'notification': {
      wire.notification(event);
      const notification = event.notification as Json;
      return log(str(notification.method), notification.params);
    }
    case 'question':
      return ask(event);
    case 'question-answered':
    case 'question-withdrawn':
      questions.querySelector(`[data-question="${str(event.id)}"]`)?.remove();
      if (event.type === 'question-withdrawn') log('question withdrawn', 'the call was given up');
      return;
    case 'roots-listed':
      return log('roots/list answered', event.roots);
    case 'task':
      return taskLine(event.task as Json);
    case 'connected':
      return void refresh();
  }
}

/** A question from the server, answered here: sampling by hand or by the provider, a form, a URL to consent to. */
function ask(event: Json): void {
  if (questions.querySelector(`[data-question="${str(event.id)}"]`)) return;
  const params = (event.params ?? {}) as Json;
  const answer = (value: Json) => void api('answer', { id: event.id, answer: value }).catch((error: unknown) => box.append(failure(error)));
  const where = `${str(event.method)} ${str(event.name)}, round ${str(event.round)}, key ${str(event.key)} (${str(event.era)} era${Number(event.again) > 0 ? ', asked again' : ''})`;
  const box = h('div', { class: 'item question', 'data-question': str(event.id), 'data-kind': str(event.kind) }, h('strong', {}, `The server asks: ${str(event.kind)}`), h('p', { class: 'muted' }, where));
  if (event.kind === 'sampling') {
    const text = h('textarea', { 'aria-label': 'your answer as the model', 'data-testid': 'sampling-text' });
    const model = h('input', { 'aria-label': 'model name', value: 'a person at byhand inspect' });
    box.append(h('pre', {}, pretty(params)),
      h('label', {}, 'Answer by hand'), text, h('label', {}, 'as the model'), model, h('br'),
      h('button', { class: 'act', onclick: () => answer({ by: 'hand', text: text.value, model: model.value }) }, 'Send this answer'),
      ...(event.provider ? [h('button', { class: 'act quiet', onclick: () => answer({ by: 'provider' }) }, `Send to ${str(event.provider)} (its caps hold)`)] : []),
      h('button', { class: 'act quiet', onclick: () => answer({ decline: true }) }, 'Decline'));
  } else if (event.kind === 'url') {
    box.append(h('p', {}, str(params.message)), h('p', {}, h('code', {}, str(params.url))),
      h('button', { class: 'act', onclick: () => (window.open(str(params.url), '_blank', 'noopener,noreferrer'), answer({ action: 'accept' })) }, 'Open it and accept'),
      h('button', { class: 'act quiet', onclick: () => answer({ action: 'decline' }) }, 'Decline'));
  } else {
    box.append(h('p', {}, str(params.message)), elicitForm(params.requestedSchema as Json, (action, content) => answer({ action, ...(content ? { content } : {}) })));
  }
  questions.append(box);
}

/** A task's status as it changes; one still running can be cancelled (tasks/cancel). */
function taskLine(task: Json): void {
  log('task', task);
  if (task.status !== 'working' && task.status !== 'input_required') return;
  const cancel = h('button', { class: 'act quiet', 'data-task': str(task.taskId) }, `Cancel task ${str(task.taskId)}`);
  cancel.addEventListener('click', () => void api('task/cancel', { taskId: task.taskId }).then(() => log('task', `cancel sent for ${str(task.taskId)}`), (error: unknown) => log('task', (error as Error).message)));
  logList.firstElementChild?.append(cancel);
}

async function refresh(): Promise<void> {
  const state = await api<{ connection: Json | null; servers: string[] }>('state');
  connectionPanel(state.connection, state.servers);
  if (state.connection === null) return;
  document.getElementById('server-line')!.textContent = `${str(state.connection.server)} · ${str(state.connection.era)} era, ${str(state.connection.protocolVersion)}`;
  lists = await api<Lists>('lists');
  toolsPanel();
  resourcesPanel();
  promptsPanel();
  appsPanel();
  void historyPanel();
  checkPanel();
  void rootsPanel();
}

function connectionPanel(connection: Json | null, servers: string[]): void {
  const panel = panels.get('Connection')!;
  const pick = h('select', { 'aria-label': 'server' }, ...servers.map((name) => h('option', { value: name }, name)));
  const url = h('input', { 'aria-label': 'or an http(s) URL', placeholder: 'or an http(s) URL' });
  const status = h('div');
  const connect = async () => {
    status.replaceChildren(h('p', { class: 'muted' }, 'connecting…'));
    try {
      await api('connect', { server: url.value.trim() || pick.value });
      await refresh();
    } catch (error) {
      status.replaceChildren(failure(error));
    }
  };
  panel.replaceChildren(h('h2', {}, 'Connection'), pick, url, h('button', { class: 'act', onclick: () => void connect() }, 'Connect'), status);
  if (connection === null) return void panel.append(h('p', { class: 'muted' }, 'Not connected: pick a server from your configs or the bundled toolboxes.'));
  const how = connection.how === 'probe' ? 'found by trying' : connection.how === 'cache' ? 'remembered from an earlier probe' : str(connection.how);
  panel.append(h('table', { 'data-testid': 'connection' },
    ...([
      ['server', connection.server],
      ['era', `${str(connection.era)} (${str(connection.protocolVersion)})`],
      ['how', `${how}: ${str(connection.evidence)}`],
      ['transport', connection.transport],
      ['session', connection.sessionId ?? 'none'],
      ['server info', pretty(connection.serverInfo)],
      ['server capabilities', pretty(connection.capabilities)],
      ['byhand declared', pretty(connection.declared)],
      ...(connection.stderr !== undefined ? [['server stderr', connection.stderr || '(nothing yet)']] : []),
    ] as [string, unknown][]).map(([name, value]) => h('tr', {}, h('th', {}, name), h('td', {}, h('pre', {}, str(value)))))));
}

function toolsPanel(): void {
  const panel = panels.get('Tools')!;
  const forModel = lists.tools.filter((t) => t.appOnly !== true);
  const appOnly = lists.tools.filter((t) => t.appOnly === true);
  panel.replaceChildren(h('h2', {}, `Tools (${forModel.length})`), ...forModel.map(toolItem));
  if (appOnly.length > 0) panel.append(h('h3', {}, 'App only: hidden from the model, callable by their view'), ...appOnly.map((t) => h('div', { class: 'item muted', 'data-tool': str(t.name) }, str(t.name))));
  for (const left of lists.excluded) panel.append(h('p', { class: 'bad' }, `${left.name} left out: ${left.reason}`));
}

function toolItem(tool: Json): HTMLElement {
  const output = h('div');
  const annotations = Object.entries((tool.annotations ?? {}) as Json).filter(([key, value]) => key.endsWith('Hint') && value === true).map(([key]) => key.replace(/Hint$/, ''));
  const run = async (pairs: string[]) => {
    output.replaceChildren(h('p', { class: 'muted' }, 'calling…'));
    const call = api<{ result: Json; validation?: string[] }>('call', { name: tool.name, pairs });
    if (tool.ui) void openApp(tool, pairs, call.then((r) => r.result));
    try {
      const { result, validation } = await call;
      output.replaceChildren(resultView(result, validation));
    } catch (error) {
      output.replaceChildren(failure(error));
    }
  };
  return h('details', { class: 'item', 'data-tool': str(tool.name) },
    h('summary', {}, h('strong', {}, str(tool.name)), tool.title ? ` ${str(tool.title)}` : '', ...annotations.map((a) => h('span', { class: 'tag' }, a)), tool.ui ? h('span', { class: 'tag' }, 'MCP App') : undefined, tool.appMayCall === false ? h('span', { class: 'tag' }, 'model only') : undefined),
    tool.description ? h('p', { class: 'muted' }, str(tool.description)) : undefined,
    toolForm(tool.inputSchema as Json, 'Call', (pairs) => void run(pairs)),
    output);
}

/** An app's view for `tool`, rendered in the Apps panel; the tool's result is handed to it when it arrives. */
async function openApp(tool: Json, pairs: string[], result: Promise<Json> | undefined): Promise<void> {
  const area = panels.get('Apps')!.querySelector('[data-testid="app-area"]')!;
  await app?.teardown('another app was opened');
  try {
    const view = await api('app/view', { name: tool.name });
    const args = Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
    app = new AppHost({ tool, view, args, result, tools: () => lists.tools, log: (what, detail) => log(`app: ${what}`, detail) });
    area.replaceChildren(app.element);
    show('Apps');
  } catch (error) {
    area.replaceChildren(failure(error));
  }
}

function appsPanel(): void {
  const withUi = lists.tools.filter((t) => t.ui !== undefined);
  panels.get('Apps')!.replaceChildren(h('h2', {}, `MCP Apps (${withUi.length})`),
    ...withUi.map((tool) => h('div', { class: 'item' }, h('strong', {}, str(tool.name)), ' ', h('code', {}, str((tool.ui as Json).resourceUri)),
      toolForm(tool.inputSchema as Json, 'Call and open', (pairs) => void openApp(tool, pairs, api<{ result: Json }>('call', { name: tool.name, pairs }).then((r) => r.result))))),
    h('div', { 'data-testid': 'app-area' }));
}

function resourcesPanel(): void {
  const output = h('div');
  const read = async (uri: string) => {
    try {
      output.replaceChildren(resultView(await api('read', { uri })));
    } catch (error) {
      output.replaceChildren(failure(error));
    }
  };
  panels.get('Resources')!.replaceChildren(h('h2', {}, `Resources (${lists.resources.length})`),
    ...lists.resources.map((r) => h('div', { class: 'item' }, h('code', {}, str(r.uri)), ` ${str(r.title ?? r.name)} `, h('span', { class: 'muted' }, str(r.mimeType ?? '')), h('button', { class: 'act quiet', onclick: () => void read(str(r.uri)) }, 'Read'))),
    h('h3', {}, `Templates (${lists.templates.length})`),
    ...lists.templates.map((t) => templateItem(t, read)),
    output);
}

/** A template's variables, each with the values the server completes for it (completion/complete). */
function templateItem(template: Json, read: (uri: string) => Promise<void>): HTMLElement {
  const uriTemplate = str(template.uriTemplate);
  const names = [...uriTemplate.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((m) => m[1].split(',')).map((n) => n.replace(/\*$/, ''));
  const inputs = names.map((name) => completing(name, (value) => api<{ completion: { values: string[] } }>('complete', { ref: { type: 'ref/resource', uri: uriTemplate }, argument: { name, value } })));
  const fill = () => uriTemplate.replace(/\{[+#./;?&]?([^}]+)\}/g, (_, list: string) => list.split(',').map((n) => encodeURIComponent(inputs[names.indexOf(n.replace(/\*$/, ''))]?.input.value ?? '')).join(','));
  return h('div', { class: 'item' }, h('code', {}, uriTemplate), ...inputs.map((i) => i.element), h('button', { class: 'act quiet', onclick: () => void read(fill()) }, 'Read'));
}

/** A text input whose datalist is what the server completes for what is typed so far. */
function completing(name: string, complete: (value: string) => Promise<{ completion: { values: string[] } }>): { element: HTMLElement; input: HTMLInputElement } {
  const list = h('datalist', { id: `complete-${name}-${Math.random().toString(36).slice(2)}` });
  const input = h('input', { 'aria-label': name, placeholder: name, list: list.id });
  input.addEventListener('input', () => void complete(input.value).then((r) => list.replaceChildren(...r.completion.values.map((v) => h('option', { value: v })))).catch(() => undefined));
  return { element: h('div', {}, h('label', {}, name), input, list), input };
}

function promptsPanel(): void {
  panels.get('Prompts')!.replaceChildren(h('h2', {}, `Prompts (${lists.prompts.length})`), ...lists.prompts.map((prompt) => {
    const output = h('div');
    const args = ((prompt.arguments ?? []) as Json[]).map((a) => completing(str(a.name), (value) => api('complete', { ref: { type: 'ref/prompt', name: prompt.name }, argument: { name: a.name, value } })));
    const get = async () => {
      try {
        output.replaceChildren(resultView(await api('prompt', { name: prompt.name, pairs: args.filter((a) => a.input.value !== '').map((a) => `${a.input.getAttribute('aria-label')}=${a.input.value}`) })));
      } catch (error) {
        output.replaceChildren(failure(error));
      }
    };
    return h('div', { class: 'item' }, h('strong', {}, str(prompt.name)), prompt.description ? h('p', { class: 'muted' }, str(prompt.description)) : undefined, ...args.map((a) => a.element), h('button', { class: 'act quiet', onclick: () => void get() }, 'Get'), output);
  }));
}

async function historyPanel(): Promise<void> {
  const panel = panels.get('History')!;
  const { entries, dropped } = await api<{ entries: Json[]; dropped: number }>('history');
  const output = h('pre', { 'data-testid': 'export' });
  const exported = (index: number, as: string) => void api<{ line: string }>('export', { index, as }).then((r) => (output.textContent = r.line), (error: unknown) => (output.textContent = (error as Error).message));
  panel.replaceChildren(h('h2', {}, `History (${entries.length}${dropped > 0 ? `, ${dropped} older dropped` : ''})`),
    h('button', { class: 'act quiet', onclick: () => void historyPanel() }, 'Refresh'),
    ...entries.map((entry, index) => h('div', { class: 'item' }, `${str(entry.kind)} ${str(entry.name)} `, h('span', { class: entry.ok ? 'good' : 'bad' }, entry.ok ? 'ok' : 'failed'), h('span', { class: 'muted' }, ` ${str(entry.ms)} ms, from the ${str(entry.from)}`),
      h('button', { class: 'act quiet', onclick: () => exported(index, 'call') }, 'as byhand call'), h('button', { class: 'act quiet', onclick: () => exported(index, 'curl') }, 'as curl'))),
    output);
}

function checkPanel(): void {
  const output = h('div', { 'data-testid': 'check' });
  const run = async () => {
    output.replaceChildren(h('p', { class: 'muted' }, 'byhand check is running (it calls only readOnlyHint tools)…'));
    try {
      const { findings, counts } = await api<{ findings: Json[]; counts: Json }>('check', {});
      const order = ['error', 'warn', 'skip', 'pass'];
      findings.sort((a, b) => order.indexOf(str(a.status)) - order.indexOf(str(b.status)));
      output.replaceChildren(h('p', {}, Object.entries(counts).map(([status, n]) => `${str(n)} ${status}`).join(' · ')),
        ...findings.map((f) => h('div', { class: `item ${f.status === 'error' ? 'bad' : ''}`, 'data-finding': str(f.id) }, h('strong', {}, `${str(f.status)} ${str(f.id)}`), ` ${str(f.title)}`,
          f.why ? h('p', {}, str(f.why)) : undefined, f.fix ? h('p', { class: 'muted' }, `fix: ${str(f.fix)}`) : undefined)));
    } catch (error) {
      output.replaceChildren(failure(error));
    }
  };
  panels.get('Check')!.replaceChildren(h('h2', {}, 'byhand check'), h('button', { class: 'act', onclick: () => void run() }, 'Run byhand check'), output);
}

async function rootsPanel(): Promise<void> {
  const { roots } = await api<{ roots: Json[] }>('roots');
  const text = h('textarea', { 'aria-label': 'roots, one uri a line, then a name' }, roots.map((r) => `${str(r.uri)} ${str(r.name ?? '')}`.trim()).join('\n'));
  const save = () => void api('roots', { roots: text.value.split('\n').map((line) => line.trim()).filter(Boolean).map((line) => ({ uri: line.split(' ')[0], name: line.split(' ').slice(1).join(' ') || undefined })) }).then(() => log('roots', 'saved'), (error: unknown) => log('roots', (error as Error).message));
  panels.get('Roots')!.replaceChildren(h('h2', {}, 'Roots the server is given'), text, h('br'), h('button', { class: 'act', onclick: save }, 'Save'));
}

start();
