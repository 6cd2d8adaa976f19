// The per-request `_meta` envelope of the modern era (spec basic/index.mdx L365-392): protocolVersion
// and clientCapabilities are required, clientInfo is a SHOULD. Capabilities are derived from the host:
// a callback that is absent is a capability not declared, so the server must not ask for it.

import type { ClientCapabilities, Host, Implementation, JsonObject } from './types.js';

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

export function capabilitiesFor(host: Host): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (host.sample) caps.sampling = host.samplingTools ? { tools: {} } : {};
  if (host.elicit) {
    const modes = host.elicitationModes ?? ['form'];
    caps.elicitation = Object.fromEntries(modes.map((m) => [m, {}]));
  }
  if (host.roots) caps.roots = {};
  return caps;
}

export function envelope(version: string, capabilities: ClientCapabilities, clientInfo: Implementation | undefined, extra?: JsonObject): JsonObject {
  const meta: JsonObject = { ...extra, [META.protocolVersion]: version, [META.clientCapabilities]: capabilities };
  if (clientInfo) meta[META.clientInfo] = clientInfo;
  return meta;
}
