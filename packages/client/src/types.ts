// Wire types for both eras, as the 2026-07-28 schema (schema/2026-07-28/schema.ts) names them.
// Only what byhand reads or writes is typed; everything else stays `unknown` and passes through.

export type JsonObject = Record<string, unknown>;

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
}

export interface ClientCapabilities {
  sampling?: { tools?: JsonObject; context?: JsonObject };
  elicitation?: { form?: JsonObject; url?: JsonObject };
  roots?: JsonObject;
  extensions?: JsonObject;
  [key: string]: unknown;
}

export type Era = 'modern' | 'legacy';

/** RFC 5424 severities, as MCP logging names them. */
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: JsonObject;
  error?: JsonRpcError;
}

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: string | number;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

// ---- content and results -------------------------------------------------

export interface TextContent { type: 'text'; text: string; _meta?: JsonObject }
export interface ImageContent { type: 'image'; data: string; mimeType: string; _meta?: JsonObject }
export interface AudioContent { type: 'audio'; data: string; mimeType: string; _meta?: JsonObject }
export type ContentBlock = TextContent | ImageContent | AudioContent | ({ type: string } & JsonObject);

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
  _meta?: JsonObject;
}

export interface Resource { uri: string; name: string; title?: string; description?: string; mimeType?: string }
export interface ResourceTemplate { uriTemplate: string; name: string; title?: string; description?: string; mimeType?: string }
export interface Prompt { name: string; title?: string; description?: string; arguments?: { name: string; description?: string; required?: boolean }[] }

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface ReadResourceResult {
  contents: ({ uri: string; mimeType?: string; text?: string; blob?: string } & JsonObject)[];
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface GetPromptResult {
  description?: string;
  messages: { role: 'user' | 'assistant'; content: ContentBlock }[];
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  _meta?: JsonObject;
}

export interface DiscoverResult {
  supportedVersions: string[];
  capabilities: JsonObject;
  instructions?: string;
  /** How long the client may reuse this answer (SEP-2549); 0 or absent: not at all. */
  ttlMs?: number;
  _meta?: JsonObject;
  [key: string]: unknown;
}

// ---- input requests (MRTR, SEP-2322) and what the host answers ------------

export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: ContentBlock | ContentBlock[];
  _meta?: JsonObject;
}

export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: string;
  metadata?: JsonObject;
  modelPreferences?: {
    hints?: { name?: string }[];
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  tools?: Tool[];
  toolChoice?: { mode?: 'auto' | 'required' | 'none' };
  _meta?: JsonObject;
}

/** A bare CreateMessageResult: exactly what goes into inputResponses (never `{kind, result}`). */
export interface CreateMessageResult extends SamplingMessage {
  model: string;
  stopReason?: string;
}

export interface ElicitParams {
  mode?: 'form' | 'url';
  message: string;
  requestedSchema?: {
    type: 'object';
    properties: Record<string, JsonObject>;
    required?: string[];
    $schema?: string;
  };
  url?: string;
  _meta?: JsonObject;
}

export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

export interface Root { uri: string; name?: string }
export interface ListRootsResult { roots: Root[] }

export type InputRequest =
  | { method: 'sampling/createMessage'; params: CreateMessageParams }
  | { method: 'elicitation/create'; params: ElicitParams }
  | { method: 'roots/list'; params?: JsonObject };

export type InputResponse = CreateMessageResult | ElicitResult | ListRootsResult;

/** What the host is told about the request it is fulfilling. */
export interface InputContext {
  /** The server's key for this input request (unique within the request). */
  key: string;
  /** The originating client method: tools/call, resources/read or prompts/get. */
  method: string;
  /** The tool or prompt name, or the resource uri. */
  name: string;
  /** 1 for the first round of input, 2 for the next, ... */
  round: number;
  /** 'modern' when the request came as an MRTR inputRequests entry, 'legacy' when pushed on a held connection. */
  era: Era;
  /**
   * How many times in a row the server has asked for this key with this same request: 0 (or absent)
   * the first time, 1 when the round before asked exactly this and was answered (a re-ask).
   */
  again?: number;
  signal: AbortSignal;
}

/**
 * The host fulfils input requests. A callback that is absent means the capability is not declared,
 * so a server must not ask for it (and sampling stays off unless the host opts in).
 */
export interface Host {
  sample?: (params: CreateMessageParams, ctx: InputContext) => Promise<CreateMessageResult>;
  elicit?: (params: ElicitParams, ctx: InputContext) => Promise<ElicitResult>;
  roots?: (ctx: InputContext) => Promise<ListRootsResult>;
  /** Declare sampling.tools: the host can sample with tools (spec client/sampling.mdx). */
  samplingTools?: boolean;
  /** Elicitation modes the host supports; defaults to ['form']. */
  elicitationModes?: ('form' | 'url')[];
  /**
   * Told when a 2025 server can send nothing more that belongs to no call (list changes, resource updates, its own
   * requests): it offers no event stream, the stream was given up for good, or its process exited. `reason` says
   * which, in plain words. Nothing more arrives between calls in this session; absent, that is silent.
   */
  eventsEnded?: (reason: string) => void;
  /**
   * Told when the server asks for what this host does not declare (sampling, elicitation or a mode of it, roots),
   * before the client refuses it: a server bug, or a 2025 server that asks anyway.
   */
  askedUndeclared?: (request: { method: string; params?: unknown }, ctx: InputContext) => void;
  /**
   * Told when a 2025 server no longer knew the session (a 404 to a request that carried it) and a new session was
   * started in its place, subscribed again to what the old one was: whatever else the old session held on the server
   * is gone. `reason` says so in plain words; absent, the renewal is silent.
   */
  sessionRenewed?: (reason: string) => void;
}
