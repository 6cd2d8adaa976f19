import { createKitchen, createProbe, type ToolboxHandler } from 'byhand/servers';

interface Env {
  /** 32+ bytes, the same on every instance: round 2 of a call may reach another isolate. */
  BYHAND_STATE_SECRET: string;
  /** The Worker's public host name, accepted in Host and Origin. */
  PUBLIC_HOST: string;
}

let toolboxes: Record<string, ToolboxHandler> | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    // Built on the first request: Workers hand over `env` per request and refuse random values at module scope.
    // 2025 clients are served per request (`legacy: 'stateless'`): isolates share no session memory.
    const options = { stateSecret: env.BYHAND_STATE_SECRET, allowedHosts: [env.PUBLIC_HOST], legacy: 'stateless' } as const;
    toolboxes ??= { '/api/kitchen': createKitchen(options), '/api/probe': createProbe(options) };
    const toolbox = toolboxes[new URL(request.url).pathname];
    return toolbox ? toolbox.fetch(request) : new Response('Not found', { status: 404 });
  },
};
