// MCP Apps (SEP-1865, the `io.modelcontextprotocol/ui` extension), as a client reads it: what to declare, and which
// listed tools have a UI and who may call them. The client renders nothing; a host that does (byhand inspect) and the
// commands that report it (list, checkpoint) read a tool through these. Source: ext-apps
// specification/2026-01-26/apps.mdx, §Client (Host) Capabilities, §Resource Discovery and §Visibility.

import type { JsonObject, Tool } from './types.js';

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The one mimeType a UI resource has, in resources/read and in the listing (apps.mdx §Content Requirements). */
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * The extension as a client declares it, for ConnectOptions.extensions: `mimeTypes` is required and names the one
 * profile there is. The same object goes in the 2026 envelope's clientCapabilities and in 2025 initialize's.
 */
export function appsExtension(): Record<string, JsonObject> {
  return { [UI_EXTENSION]: { mimeTypes: [UI_MIME_TYPE] } };
}

export type Visibility = 'model' | 'app';

export interface ToolUi {
  /** The `ui://` resource the host renders for this tool. */
  resourceUri: string;
  /** Who may call the tool: the model (listed to it), the app (its view), or both (the default). */
  visibility: Visibility[];
}

/**
 * The UI a tool links to, or undefined for a tool without one. `_meta.ui.resourceUri` wins over the flat
 * `_meta["ui/resourceUri"]` that apps.mdx deprecates but hosts still read. A value that is not a `ui://` URI is no UI.
 */
export function toolUi(tool: Pick<Tool, '_meta'>): ToolUi | undefined {
  const meta = tool._meta;
  if (!isObject(meta)) return undefined;
  const ui = isObject(meta.ui) ? meta.ui : {};
  const uri = typeof ui.resourceUri === 'string' ? ui.resourceUri : meta['ui/resourceUri'];
  if (typeof uri !== 'string' || !uri.startsWith('ui://')) return undefined;
  return { resourceUri: uri, visibility: visibilityOf(tool) };
}

/** `_meta.ui.visibility`, or both when absent; an unknown word is dropped, and a list left empty reads as absent. */
export function visibilityOf(tool: Pick<Tool, '_meta'>): Visibility[] {
  const ui = isObject(tool._meta) && isObject(tool._meta.ui) ? tool._meta.ui : {};
  const listed = Array.isArray(ui.visibility) ? ui.visibility.filter((v): v is Visibility => v === 'model' || v === 'app') : [];
  return listed.length > 0 ? [...new Set(listed)] : ['model', 'app'];
}

/** A tool only an app's view may call: left out of what the model is shown (apps.mdx §Visibility, a MUST). */
export function isAppOnly(tool: Pick<Tool, '_meta'>): boolean {
  return !visibilityOf(tool).includes('model');
}

/** Whether a view may call the tool: a host refuses a view's tools/call of a tool without "app" (a MUST). */
export function appMayCall(tool: Pick<Tool, '_meta'>): boolean {
  return visibilityOf(tool).includes('app');
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
