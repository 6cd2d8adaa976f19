// The extensions the bridge carries, and the methods each adds to the core protocol. One table decides both what a
// host is told the server offers and which requests pass: an extension is advertised to a host only when every
// method it adds is carried, so a host never meets a capability whose requests the bridge would refuse. The tasks
// extension is not here: each face carries it in its own way (modern-tasks.ts, legacy-tasks.ts).

import type { JsonObject } from '@byhand/client';

export const CARRIED_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  // SEP-2640: listing and reading skills, and a skill's directories.
  'io.modelcontextprotocol/skills': ['skills/list', 'skills/get', 'resources/directory/read'],
  // SEP-1865, MCP Apps: tools with `_meta.ui` and `ui://` resources, through the core methods alone.
  'io.modelcontextprotocol/ui': [],
};

/** The requests the extensions add, carried to the server as the host sent them. */
export const EXTENSION_METHODS: ReadonlySet<string> = new Set(Object.values(CARRIED_EXTENSIONS).flat());

/**
 * A server's capabilities as a host may be told them: its extensions that the bridge carries (and `keep`, which the
 * face carries itself), without the others.
 */
export function carriedCapabilities(capabilities: JsonObject, keep: readonly string[] = []): JsonObject {
  const { extensions, ...others } = capabilities;
  if (extensions === undefined || extensions === null || typeof extensions !== 'object') return capabilities;
  const carried = Object.fromEntries(Object.entries(extensions).filter(([name]) => Object.hasOwn(CARRIED_EXTENSIONS, name) || keep.includes(name)));
  return Object.keys(carried).length > 0 ? { ...others, extensions: carried } : others;
}

/** What a host declared of the extensions the bridge carries, with their settings: what its back declares too. */
export function declaredExtensions(capabilities: JsonObject): Record<string, JsonObject> {
  const extensions = capabilities.extensions;
  if (extensions === undefined || extensions === null || typeof extensions !== 'object') return {};
  const declared: Record<string, JsonObject> = {};
  for (const [name, settings] of Object.entries(extensions)) {
    if (Object.hasOwn(CARRIED_EXTENSIONS, name) && settings !== null && typeof settings === 'object') declared[name] = settings as JsonObject;
  }
  return declared;
}
