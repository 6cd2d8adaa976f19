// The MCP Apps host (ext-apps specification/2026-01-26/apps.mdx): a view framed through the sandbox proxy on its own
// origin, under the policy the backend built from the resource's _meta.ui (csp.ts), and the postMessage lifecycle in
// order: sandbox-proxy-ready, sandbox-resource-ready, ui/initialize, ui/notifications/initialized, then the tool's
// input and result, and ui/resource-teardown before the view goes. Visibility is enforced both ways: the page's Tools
// panel offers no app-only tool, and a view's tools/call of a tool without "app" is refused here and again by the
// backend. ui/message and ui/update-model-context go to the log; every request the view makes is logged.

import { api, h, SANDBOX_ORIGIN, str, type Json } from './dom.js';

export type AppLog = (what: string, detail?: unknown) => void;

const PROTOCOL_VERSION = '2026-01-26';
const TEARDOWN_WAIT_MS = 3_000;

export interface AppOptions {
  tool: Json;
  view: Json;
  args: Json;
  /** The tool's result, when the person called it; the view is told it once it is initialized. */
  result: Promise<Json> | undefined;
  /** The server's tools as listed, for the view's calls. */
  tools: () => Json[];
  log: AppLog;
}

export class AppHost {
  readonly element: HTMLElement;
  /** The last ui/update-model-context: what a model would be given on its next turn. */
  modelContext: unknown;
  private readonly frame: HTMLIFrameElement;
  private readonly waiting = new Map<string, (message: Json) => void>();
  private next = 0;
  private initialized = false;
  private closed = false;
  private readonly onMessage = (event: MessageEvent) => void this.receive(event);

  constructor(private readonly options: AppOptions) {
    const view = options.view;
    this.frame = h('iframe', {
      class: 'app-frame',
      title: `MCP App ${str(view.resourceUri)}`,
      src: `${SANDBOX_ORIGIN}/sandbox`,
      // The proxy needs both to run and to frame the view; the view's own frame has no allow-same-origin (sandbox.ts).
      sandbox: 'allow-scripts allow-same-origin allow-forms',
      ...(view.allow ? { allow: str(view.allow) } : {}),
    });
    this.element = h('div', { 'data-testid': 'app', 'data-app-status': 'loading' },
      h('p', { class: 'muted' }, `${str(view.resourceUri)} under `, h('code', {}, str(view.csp))),
      ...((view.refused as string[] | undefined) ?? []).map((why) => h('p', { class: 'bad' }, `refused from _meta.ui: ${why}`)),
      this.frame,
      h('button', { class: 'act quiet', onclick: () => void this.teardown('closed at the page') }, 'Close the app'));
    options.log('csp', { resourceUri: view.resourceUri, csp: view.csp, granted: view.granted, permissions: view.permissions });
    window.addEventListener('message', this.onMessage);
  }

  /** ui/resource-teardown, answered or not within a few seconds, then the frame goes. */
  async teardown(reason: string): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.status('tearing-down');
    this.options.log('ui/resource-teardown', { reason });
    await Promise.race([this.request('ui/resource-teardown', {}), new Promise((resolve) => setTimeout(resolve, TEARDOWN_WAIT_MS))]);
    window.removeEventListener('message', this.onMessage);
    this.frame.remove();
    this.status('torn-down');
  }

  private status(value: string): void {
    this.element.setAttribute('data-app-status', value);
  }

  private post(message: Json): void {
    this.frame.contentWindow?.postMessage({ jsonrpc: '2.0', ...message }, SANDBOX_ORIGIN);
  }

  private request(method: string, params: Json): Promise<Json> {
    const id = `host-${++this.next}`;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.post({ id, method, params });
    });
  }

  private async receive(event: MessageEvent): Promise<void> {
    if (event.source !== this.frame.contentWindow || event.origin !== SANDBOX_ORIGIN) return;
    const message = event.data as Json;
    if (typeof message !== 'object' || message === null || message.jsonrpc !== '2.0') return this.options.log('dropped', 'a message that is not JSON-RPC 2.0');
    const { id, method } = message;
    if (typeof method !== 'string') {
      const waiting = typeof id === 'string' ? this.waiting.get(id) : undefined;
      if (waiting) {
        this.waiting.delete(id as string);
        waiting(message);
      }
      return;
    }
    const params = (message.params ?? {}) as Json;
    this.options.log(method, params);
    if (id === undefined) return this.notified(method, params);
    try {
      this.post({ id, result: await this.answer(method, params) });
    } catch (error) {
      this.options.log('refused', `${method}: ${(error as Error).message}`);
      this.post({ id, error: { code: (error as { code?: number }).code ?? -32000, message: (error as Error).message } });
    }
  }

  private notified(method: string, params: Json): void {
    switch (method) {
      case 'ui/notifications/sandbox-proxy-ready':
        this.status('proxy-ready');
        this.options.log('ui/notifications/sandbox-resource-ready', { csp: this.options.view.csp });
        this.post({ method: 'ui/notifications/sandbox-resource-ready', params: { html: this.options.view.html, csp: this.options.view.csp, allow: this.options.view.allow } });
        return;
      case 'ui/notifications/initialized':
        if (this.initialized) return;
        this.initialized = true;
        this.status('ready');
        void this.sendTool();
        return;
      case 'ui/notifications/size-changed':
        if (typeof params.height === 'number') this.frame.style.height = `${Math.min(Math.max(params.height, 80), 1200)}px`;
        return;
      case 'ui/notifications/request-teardown':
        void this.teardown('the view asked');
        return;
    }
  }

  /** tool-input once, then tool-result (or tool-cancelled), only after the view said it is initialized. */
  private async sendTool(): Promise<void> {
    this.options.log('ui/notifications/tool-input', { arguments: this.options.args });
    this.post({ method: 'ui/notifications/tool-input', params: { arguments: this.options.args } });
    if (this.options.result === undefined) return;
    try {
      const result = await this.options.result;
      if (this.closed) return;
      this.options.log('ui/notifications/tool-result', result);
      this.post({ method: 'ui/notifications/tool-result', params: result });
    } catch (error) {
      this.options.log('ui/notifications/tool-cancelled', { reason: (error as Error).message });
      this.post({ method: 'ui/notifications/tool-cancelled', params: { reason: (error as Error).message } });
    }
  }

  private async answer(method: string, params: Json): Promise<Json> {
    if (method === 'ping') return {};
    if (method === 'ui/initialize') return this.initializeResult();
    if (!this.initialized) throw Object.assign(new Error(`${method} before ui/notifications/initialized`), { code: -32002 });
    switch (method) {
      case 'tools/call': {
        const name = str(params.name);
        const tool = this.options.tools().find((t) => t.name === name);
        if (tool === undefined || tool.appMayCall !== true) {
          throw new Error(`refused by the host: ${name} is ${tool === undefined ? 'not a tool of this server' : 'not visible to apps (its visibility lacks "app")'}`);
        }
        return (await api<{ result: Json }>('app/call', { name, arguments: params.arguments ?? {} })).result;
      }
      case 'resources/read':
        return api('app/read', { uri: params.uri });
      case 'ui/message':
      case 'ui/update-model-context':
        if (method === 'ui/update-model-context') this.modelContext = params;
        return {};
      case 'ui/open-link': {
        const url = str(params.url);
        if (!/^https?:\/\//i.test(url)) throw new Error('refused by the host: only http(s) links open');
        window.open(url, '_blank', 'noopener,noreferrer');
        return {};
      }
      case 'ui/request-display-mode':
        return { mode: 'inline' };
      default:
        throw Object.assign(new Error(`${method} is not a method this host answers`), { code: -32601 });
    }
  }

  private initializeResult(): Json {
    const view = this.options.view;
    return {
      protocolVersion: PROTOCOL_VERSION,
      hostInfo: { name: 'byhand inspect', version: '0.2.0' },
      hostCapabilities: {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        message: { text: {} },
        updateModelContext: { text: {} },
        // What was granted, which may be less than what was declared.
        sandbox: { permissions: view.permissions, csp: view.granted },
      },
      hostContext: {
        toolInfo: { tool: this.options.tool },
        theme: 'light',
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        containerDimensions: { maxHeight: 1200 },
        locale: navigator.language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        userAgent: 'byhand inspect',
        platform: 'web',
      },
    };
  }
}
