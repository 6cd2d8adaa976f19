// One server as the page explores it: byhand's own client, connected as every command connects (the server's
// credential added here, never in the page), with MCP Apps declared and the page as its host. Every message that
// crosses is put in the log as the client's trace saw it (headers and bodies redacted as everywhere else), under
// the call it belongs to, beside the MRTR rounds, notifications and the questions the server asks.

import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  appMayCall, appsExtension, isAppOnly, redactText, toolUi, type CallToolResult, type Client, type JsonObject, type Prompt, type Resource,
  type ResourceTemplate, type Tool,
} from '@byhand/client';
import { createHost } from '@byhand/host';
import { PassThrough } from 'node:stream';
import type { CommandIO } from '../shared/io.js';
import { connectResolved } from '../shared/open-server.js';
import type { ResolvedServer } from '../shared/resolve-server.js';
import type { ConnectFlags } from '../shared/server-flags.js';
import { withoutSecrets } from '../shared/secret-values.js';
import { viewPolicy } from './csp.js';
import type { EventLog } from './events.js';
import { Questions, type ProviderSample } from './questions.js';

export const HISTORY_BOUND = 100;

export interface HistoryEntry {
  at: number;
  kind: 'call' | 'read' | 'prompt';
  name: string;
  args: JsonObject;
  ok: boolean;
  ms: number;
  /** Who asked: the person at the page, or an app's view. */
  from: 'page' | 'app';
}

/** A listed tool as the page shows it: the tool, its UI if any, and who may call it (MCP Apps visibility). */
export interface ListedTool extends Tool {
  ui?: { resourceUri: string };
  appOnly: boolean;
  appMayCall: boolean;
}

export class RefusedError extends Error {}

export class Session {
  client!: Client;
  readonly questions: Questions;
  readonly history: HistoryEntry[] = [];
  historyDropped = 0;
  private tools: Tool[] = [];
  private resources: Resource[] = [];
  private prompts: Prompt[] | undefined;
  private call = 0;
  private current: string | undefined;

  constructor(
    readonly server: ResolvedServer,
    /** SERVER as the user gave it, for the `byhand call` line a history entry exports as. */
    readonly word: string,
    private readonly flags: ConnectFlags,
    private readonly io: CommandIO,
    private readonly log: EventLog,
  ) {
    this.questions = new Questions(log, providerOf(io), [{ uri: new URL(`file://${io.cwd}`).href, name: 'the folder byhand inspect runs in' }]);
  }

  async open(): Promise<void> {
    this.client = await connectResolved(this.server, this.flags, this.io, {
      host: this.questions.host(),
      extensions: appsExtension(),
      onTrace: (entry) => this.log.push('wire', { call: this.current, entry: this.redacted(entry) }),
      onRound: (event) => this.log.push('round', { call: this.current, round: this.redacted(event) }),
      onNotification: (notification) => this.log.push('notification', { call: this.current, notification: this.redacted(notification) }),
    });
  }

  /** The era found and why, and who the server says it is: the Connection panel. */
  connection(): JsonObject {
    const { client } = this;
    const { verdict } = client;
    return {
      server: this.server.describe,
      era: client.era,
      protocolVersion: client.protocolVersion,
      how: verdict.how,
      evidence: verdict.evidence,
      ...(verdict.retriedWith ? { retriedWith: verdict.retriedWith } : {}),
      transport: client.transportName,
      ...(client.sessionId ? { sessionId: client.sessionId } : {}),
      serverInfo: (client.serverInfo ?? null),
      capabilities: client.serverCapabilities,
      ...(client.instructions ? { instructions: client.instructions } : {}),
      declared: client.capabilities,
      // A stdio server's last words on stderr: where it says why it fails.
      ...(client.transportKind === 'stdio' ? { stderr: this.redacted(client.stderr) } : {}),
    };
  }

  /** The tools as last listed, listing them first if they never were: a call needs its tool's schema. */
  async listedTools(): Promise<Tool[]> {
    if (this.prompts === undefined) await this.lists();
    return this.tools;
  }

  async listedPrompts(): Promise<Prompt[]> {
    if (this.prompts === undefined) await this.lists();
    return this.prompts ?? [];
  }

  async lists(): Promise<{ tools: ListedTool[]; excluded: { name: string; reason: string }[]; resources: Resource[]; templates: ResourceTemplate[]; prompts: Prompt[] }> {
    const caps = this.client.serverCapabilities;
    const [tools, resources, templates, prompts] = await Promise.all([
      'tools' in caps ? this.client.listTools() : [],
      'resources' in caps ? this.client.listResources() : [],
      'resources' in caps ? this.client.listResourceTemplates() : [],
      'prompts' in caps ? this.client.listPrompts() : [],
    ]);
    this.tools = tools;
    this.resources = resources;
    this.prompts = prompts;
    const listed = tools.map((tool) => {
      const ui = toolUi(tool);
      return { ...tool, ...(ui ? { ui: { resourceUri: ui.resourceUri } } : {}), appOnly: isAppOnly(tool), appMayCall: appMayCall(tool) };
    });
    return { tools: listed, excluded: this.client.excludedTools, resources, templates, prompts };
  }

  /**
   * A tool called by the person at the page, or by an app's view. Visibility is the host's to enforce both ways
   * (apps.mdx §Visibility): the page offers no app-only tool to call, and a view may call only the tools of its own
   * server that name "app".
   */
  async callTool(name: string, args: JsonObject, from: 'page' | 'app'): Promise<{ result: CallToolResult; validation?: string[] }> {
    const tool = this.tools.find((t) => t.name === name);
    if (from === 'app' && (tool === undefined || !appMayCall(tool))) {
      throw new RefusedError(tool === undefined ? `the view called ${name}, which this server does not list` : `the view called ${name}, whose visibility is ${JSON.stringify(toolUi(tool)?.visibility ?? ['model'])}: a view may call only tools that name "app"`);
    }
    if (from === 'page' && tool !== undefined && isAppOnly(tool)) {
      throw new RefusedError(`${name} is for its app's view only (visibility ["app"]): a host offers it to no model, so the page does not call it`);
    }
    // A tool that runs as a task is followed to its end; each status it passes through goes to the log.
    const onTask = (task: unknown) => this.log.push('task', { call: this.current, task: this.redacted(task) });
    const result = await this.run('call', name, args, from, () => this.client.callTool(name, args, { onTask }));
    const validation = tool?.outputSchema !== undefined ? validateOutput(tool.outputSchema, result) : undefined;
    return { result, ...(validation ? { validation } : {}) };
  }

  read(uri: string, from: 'page' | 'app' = 'page'): Promise<JsonObject> {
    return this.run('read', uri, {}, from, () => this.client.readResource(uri));
  }

  prompt(name: string, args: Record<string, string>): Promise<JsonObject> {
    return this.run('prompt', name, args, 'page', () => this.client.getPrompt(name, args));
  }

  /** A view for a tool with a UI: its HTML, and the policy it is rendered under (csp.ts). */
  async view(name: string): Promise<JsonObject> {
    const tool = this.tools.find((t) => t.name === name);
    const ui = tool && toolUi(tool);
    if (ui === undefined) throw new RefusedError(`${name} has no UI (no _meta.ui.resourceUri with a ui:// URI)`);
    const read = (await this.read(ui.resourceUri)) as { contents?: JsonObject[] };
    const content = read.contents?.find((c) => c.uri === ui.resourceUri) ?? read.contents?.[0];
    const html = typeof content?.text === 'string' ? content.text : typeof content?.blob === 'string' ? Buffer.from(content.blob, 'base64').toString('utf8') : undefined;
    if (content === undefined || html === undefined) throw new RefusedError(`${ui.resourceUri} has no text or blob to render`);
    // The listing's _meta.ui may say what the content's does not; the content's wins (the draft's rule, a superset of the stable one).
    const listed: (Resource & { _meta?: JsonObject }) | undefined = this.resources.find((r) => r.uri === ui.resourceUri);
    const meta = { ...asObject(asObject(listed?._meta).ui), ...asObject(asObject(content._meta).ui) };
    const policy = viewPolicy(meta);
    return { resourceUri: ui.resourceUri, mimeType: (content.mimeType ?? null), html, prefersBorder: meta.prefersBorder === true, tool: tool, ...policy };
  }

  async close(): Promise<void> {
    await this.client?.close().catch(() => undefined);
    await this.server.close();
  }

  private async run<T>(kind: HistoryEntry['kind'], name: string, args: JsonObject, from: 'page' | 'app', work: () => Promise<T>): Promise<T> {
    const call = `c${++this.call}`;
    const started = performance.now();
    const previous = this.current;
    this.current = call;
    this.log.push('call-start', { call, kind, name, args: this.redacted(args), from });
    let ok = false;
    try {
      const result = await work();
      ok = true;
      this.log.push('call-end', { call, ok, result: this.redacted(result) });
      return result;
    } catch (error) {
      this.log.push('call-end', { call, ok, error: this.redacted(describeError(error)) });
      throw error;
    } finally {
      this.current = previous;
      this.history.push({ at: Date.now(), kind, name, args, ok, ms: Math.round(performance.now() - started), from });
      if (this.history.length > HISTORY_BOUND) {
        this.history.splice(0, this.history.length - HISTORY_BOUND);
        this.historyDropped++;
      }
    }
  }

  /** A value as the page may see it: secrets by name (redact.ts) and by origin (secret-values.ts) left out. */
  private redacted<T>(value: T): T {
    const text = withoutSecrets(redactText(JSON.stringify(value) ?? 'null'), this.io.memory.secrets);
    return JSON.parse(text) as T;
  }
}

/** What a call's error says: its message, its hint, its code. */
export function describeError(error: unknown): { message: string; hint?: string; code?: unknown } {
  if (!(error instanceof Error)) return { message: String(error) };
  const { hint, code } = error as Error & { hint?: string; code?: unknown };
  return { message: error.message, ...(hint !== undefined ? { hint } : {}), ...(code !== undefined ? { code } : {}) };
}

/** structuredContent against the tool's outputSchema: the errors, or [] when it fits. */
function validateOutput(schema: JsonObject, result: CallToolResult): string[] {
  if (result.isError === true) return [];
  if (result.structuredContent === undefined) return ['the tool declares an outputSchema, but the result has no structuredContent'];
  try {
    const validate = new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
    if (validate(result.structuredContent)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(the whole value)'} ${e.message ?? 'does not fit'}`);
  } catch (error) {
    return [`the outputSchema does not compile: ${(error as Error).message}`];
  }
}

/**
 * The host package's provider, as `byhand call` has it (BYHAND_PROVIDER and its keys): its token cap and model-call
 * cap hold, and its description goes to the terminal; the click at the page is the approval.
 */
function providerOf(io: CommandIO): { name: string; sample: ProviderSample } | undefined {
  try {
    const host = createHost({ env: io.env, sampling: true, interactive: true, approve: async () => true, input: new PassThrough(), output: io.stderr });
    if (host.sample === undefined || host.provider === undefined) return undefined;
    return { name: host.provider.name, sample: host.sample };
  } catch {
    // A provider chosen without its key: answering by hand still works.
    return undefined;
  }
}

function asObject(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}
