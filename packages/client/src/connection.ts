// What the client asks of an era. The modern era (modern.ts) and the legacy one (legacy.ts) each implement it
// their own way, negotiation (negotiate.ts) returns one, and Client holds it without asking which: an era is a
// plug-in, and a third would be one more implementation of this file.

import type { RequestOptions } from './exchange.js';
import type { Task, TaskOps } from './tasks.js';
import type { DiscoverResult, Era, Implementation, JsonObject, LoggingLevel, Tool } from './types.js';

/** A request the client sends on an era's behalf (the tasks methods go through Client, which revalidates). */
export type Send = (method: string, params: JsonObject, signal?: AbortSignal) => Promise<JsonObject>;

/** Who the server says it is: initialize's result (legacy), or server/discover's (modern). */
export interface ServerIdentity {
  serverInfo: Implementation | undefined;
  serverCapabilities: JsonObject;
  instructions: string | undefined;
}

/**
 * What a connection can do, for a caller that would otherwise ask which era it is: the era (Client.era) is what a
 * person is told, these are what code decides on.
 */
export interface Traits {
  /** The server sends requests of its own (sampling, forms, roots) on a held connection: the legacy era, in a session. */
  readonly pushes: boolean;
  /** The server asks for input by answering input_required, and the client sends the request again with the answers (MRTR): the modern era. */
  readonly inputRounds: boolean;
  /** The server keeps a session for this client: a legacy initialize on a held connection (stdio, HTTP+SSE) or one that named an Mcp-Session-Id. */
  readonly sessionful: boolean;
  /** How changes between calls arrive: subscriptions/listen (modern), the session's stream (legacy, sessionful), or not at all. */
  readonly changes: 'listen' | 'session' | 'none';
  /** Requests carry MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* mirroring the body (modern, over HTTP; SEP-2243). */
  readonly mirrorsHeaders: boolean;
}

export interface Connection {
  readonly era: Era;
  readonly protocolVersion: string;
  readonly traits: Traits;
  /** One request, with the era's envelope, headers or session; a JSON-RPC error is thrown as an RpcError. */
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  /**
   * tools/call, resources/read or prompts/get: the host's input is gathered the era's way while the request runs,
   * each exchange sent through `send` (the client's, which sends again where a retry rule says: retry.ts).
   */
  input(method: string, name: string, params: JsonObject, options: RequestOptions, send: (params: JsonObject) => Promise<JsonObject>): Promise<JsonObject>;
  /** Another protocol version for the next request, where the era has no handshake that agreed one. */
  useVersion?(version: string): void;
  /** Log notifications at `level` and above from now on, asked for the era's way. */
  setLogLevel(level: LoggingLevel, options?: RequestOptions): Promise<void>;
  /** The server's self-description, asked for again through `send`; an era without one says what to read instead. */
  discover(send: Send): Promise<{ identity: ServerIdentity; result: DiscoverResult }>;

  // The tasks extension in the era's form: in 2025-11-25 the client asks for a task, in 2026 the server decides (and
  // an era where it decides has none of the first three).
  /** Each tools/list, for an era that must know which tools run as tasks. */
  listedTools?(tools: Tool[]): void;
  /** Whether tools/call of `name` should ask for a task; `list` lists the tools when they are not yet known. */
  asksForTask?(name: string, list: () => Promise<unknown>): Promise<boolean>;
  /** The task a tools/call result stands for in this era's form, if it is one. */
  createdTask?(result: JsonObject, what: string): Task | undefined;
  /** How followTask reads and answers a task in this era (cancel is the same in both, and Client's). */
  taskOps(send: Send, onTask?: (task: Task) => void): Omit<TaskOps, 'cancel'>;
  /** tasks/get, in the modern shape. */
  getTask(send: Send, taskId: string): Promise<Task>;
}
