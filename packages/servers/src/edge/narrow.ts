// A modern tools/call is served by a server built for that one request (createMcpHandler's factory: the SDK wants a
// fresh instance per request), and only the named tool can run on it. Running the toolbox's whole registration for it
// (dozens of fixtures in the Everything toolbox) was most of a one-round call's server CPU beyond the SDK's own
// (bench/server-bench.js under node --cpu-prof shows it). So each tool's registration is recorded once, on a modern
// server that serves nothing, and a request that can only call one tool gets a server with that one registration
// played again: the same arguments, then what the toolbox did with the tool's handle (disable, update). What a client
// sees of a tools/call is that tool's answer; the capabilities are announced by server/discover, which gets the whole
// toolbox.
//
// A recorded registration is played on many servers, so a toolbox's tool code must not keep the server it was
// registered on, nor anything of one request, for use when it runs: it reads what it needs from the call (the
// request, its envelope) instead. Registration that is not a tool's (a request handler, a gate over tools/call) is the
// toolbox's to repeat on the narrowed server (ToolboxSpec.narrowed).

import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';

/** One tool's registration as the toolbox made it: registerTool's arguments, then each call on the handle it got back. */
export interface RecordedTool {
  args: unknown[];
  then: { method: PropertyKey; args: unknown[] }[];
}

/**
 * The server's own registerTool, whichever overload the caller's arguments pick. Only the raw-shape overload is
 * marked deprecated in the SDK; the arguments are passed through unchanged.
 */
function registerTool(server: McpServer): (...args: unknown[]) => RegisteredTool {
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  return server.registerTool.bind(server) as (...args: unknown[]) => RegisteredTool;
}

/**
 * `server` as a toolbox's registration sees it, recording in `tools` each tool it registers, and registering it too.
 * `done()` ends the recording: what a tool's code does with its handle later, when it runs, is not registration.
 */
export function recordingTools(server: McpServer, tools: Map<string, RecordedTool>): { server: McpServer; done(): void } {
  let recording = true;
  const handleOf = (handle: RegisteredTool, recorded: RecordedTool): RegisteredTool =>
    new Proxy(handle, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (recording) recorded.then.push({ method: property, args });
          return (value as (...args: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const view = new Proxy(server, {
    get(target, property) {
      if (property === 'registerTool') {
        return (name: string, ...rest: unknown[]) => {
          const recorded: RecordedTool = { args: [name, ...rest], then: [] };
          tools.set(name, recorded);
          return handleOf(registerTool(target)(name, ...rest), recorded);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { server: view, done: () => void (recording = false) };
}

/** Registers on `server` the tool as it was recorded. */
export function replayTool(server: McpServer, recorded: RecordedTool): void {
  const handle = registerTool(server)(...recorded.args) as unknown as Record<PropertyKey, (...args: unknown[]) => unknown>;
  for (const { method, args } of recorded.then) handle[method](...args);
}

/** The tool a request names, when it is a modern tools/call of a tool the toolbox has. */
export function calledTool<T>(body: unknown, tools: ReadonlyMap<string, T>): T | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const message = body as { method?: unknown; params?: { name?: unknown } };
  if (message.method !== 'tools/call') return undefined;
  const name = message.params?.name;
  return typeof name === 'string' ? tools.get(name) : undefined;
}
