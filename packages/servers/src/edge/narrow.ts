// A modern tools/call is served by a server built for that one request (createMcpHandler's factory), and only the
// named tool can run on it; registering every other tool, resource and prompt of the toolbox is work thrown away
// when the request ends. The Everything toolbox registers dozens of fixtures: a measurable share of a one-round
// call's server CPU and much of its garbage (bench/server-bench.js under node --cpu-prof shows it). For such a request the
// spec registers on a view of the server that keeps the named tool and drops the rest. What a client sees of a
// tools/call is that tool's answer; the capabilities are announced by server/discover, which gets the whole toolbox.

import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';

/** What a dropped registration hands back: a tool, resource or prompt that is not there to change. */
const ABSENT = Object.freeze({ enabled: false, enable() {}, disable() {}, remove() {}, update() {} });

const DROPPED = new Set<PropertyKey>(['registerResource', 'registerPrompt']);

/**
 * The server's own registerTool, whichever overload the caller's arguments pick. Only the raw-shape overload is
 * marked deprecated in the SDK; the proxies below pass the arguments through unchanged.
 */
function registerTool(server: McpServer): (...args: unknown[]) => RegisteredTool {
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  return server.registerTool.bind(server) as (...args: unknown[]) => RegisteredTool;
}

/** `server` as the spec's register function sees it when only the tool `name` will be called. */
export function keepingOnlyTool(server: McpServer, name: string): McpServer {
  return new Proxy(server, {
    get(target, property) {
      if (property === 'registerTool') {
        return (tool: string, ...rest: unknown[]) =>
          tool === name ? registerTool(target)(tool, ...rest) : (ABSENT as unknown as RegisteredTool);
      }
      if (DROPPED.has(property)) return () => ABSENT;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The tool a request names, when it is a modern tools/call of a tool the toolbox has. */
export function calledTool(body: unknown, tools: ReadonlySet<string>): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const message = body as { method?: unknown; params?: { name?: unknown } };
  if (message.method !== 'tools/call') return undefined;
  const name = message.params?.name;
  return typeof name === 'string' && tools.has(name) ? name : undefined;
}

/** `server`, recording in `names` every tool registered through it. */
export function recordingTools(server: McpServer, names: Set<string>): McpServer {
  return new Proxy(server, {
    get(target, property) {
      if (property === 'registerTool') {
        return (tool: string, ...rest: unknown[]) => {
          names.add(tool);
          return registerTool(target)(tool, ...rest);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
