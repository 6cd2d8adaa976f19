// What a server offers, as a person reads it: each tool with its arguments (type, enum, default,
// required) and description, each resource, template and prompt. Shared by `list` and by `call`,
// `read` and `prompt` when no name was given.

import { toolUi, visibilityOf, type CallOptions, type Client, type JsonObject, type Prompt, type Resource, type ResourceTemplate, type Tool } from '@byhand/client';
import { printable } from '@byhand/host';

export const KINDS = ['tools', 'resources', 'templates', 'prompts'] as const;
export type Kind = (typeof KINDS)[number];

export interface Listing {
  tools?: Tool[];
  /** Tools the client left out, each with why (a schema nested too deep, an invalid x-mcp-header): the rest still list. */
  excludedTools?: { name: string; reason: string }[];
  resources?: Resource[];
  resourceTemplates?: ResourceTemplate[];
  prompts?: Prompt[];
}

const CAPABILITY: Record<Kind, string> = { tools: 'tools', resources: 'resources', templates: 'resources', prompts: 'prompts' };

/** Lists the kinds asked for; a kind the server did not declare is listed as empty, not asked. */
export async function fetchListing(client: Client, kinds: readonly Kind[], options?: CallOptions): Promise<Listing> {
  const offered = (kind: Kind) => CAPABILITY[kind] in client.serverCapabilities;
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    kinds.includes('tools') ? (offered('tools') ? client.listTools(options) : []) : undefined,
    kinds.includes('resources') ? (offered('resources') ? client.listResources(options) : []) : undefined,
    kinds.includes('templates') ? (offered('templates') ? client.listResourceTemplates(options) : []) : undefined,
    kinds.includes('prompts') ? (offered('prompts') ? client.listPrompts(options) : []) : undefined,
  ]);
  const excludedTools = tools && client.excludedTools.length > 0 ? { excludedTools: client.excludedTools } : {};
  return { ...(tools ? { tools } : {}), ...excludedTools, ...(resources ? { resources } : {}), ...(resourceTemplates ? { resourceTemplates } : {}), ...(prompts ? { prompts } : {}) };
}

export function listingText(listing: Listing): string {
  const sections: string[] = [];
  if (listing.tools) sections.push(section('tools', listing.tools.map(toolLines)));
  if (listing.excludedTools) sections.push(section('tools left out', listing.excludedTools.map((t) => [`${clean(t.name)}: ${clean(t.reason)}`])));
  if (listing.resources) sections.push(section('resources', listing.resources.map((r) => [`${clean(r.uri)}${titled(r.name, r.title)}${r.mimeType ? `  ${clean(r.mimeType)}` : ''}`, ...about(r.description)])));
  if (listing.resourceTemplates) sections.push(section('resource templates', listing.resourceTemplates.map((t) => [`${clean(t.uriTemplate)}${titled(t.name, t.title)}${t.mimeType ? `  ${clean(t.mimeType)}` : ''}`, ...about(t.description)])));
  if (listing.prompts) sections.push(section('prompts', listing.prompts.map(promptLines)));
  return `${sections.join('\n')}\n`;
}

function section(title: string, items: string[][]): string {
  if (items.length === 0) return `${title}: none`;
  return [`${title} (${items.length}):`, ...items.flatMap((lines) => lines.map((line) => `  ${line}`))].join('\n');
}

function toolLines(tool: Tool): string[] {
  const schema = tool.inputSchema ?? {};
  const properties = isObject(schema.properties) ? (schema.properties as Record<string, JsonObject>) : {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  const args = Object.entries(properties).map(([name, property]) => argumentLine(name, property, required.includes(name)));
  const hints = isObject(tool.annotations) ? Object.entries(tool.annotations).filter(([key, value]) => key.endsWith('Hint') && value === true).map(([key]) => key.replace(/Hint$/, '')) : [];
  // MCP Apps' visibility: a host shows an app-only tool to no model, and refuses a model-only one to a view.
  const visibility = visibilityOf(tool);
  if (visibility.length === 1) hints.push(`${visibility[0]} only`);
  const head = `${clean(tool.name)}${tool.title && tool.title !== tool.name ? ` (${clean(tool.title)})` : ''}${hints.length ? `  [${hints.join(', ')}]` : ''}`;
  const ui = toolUi(tool);
  return [
    head,
    ...about(tool.description),
    ...args.map((line) => `    ${line}`),
    ...(tool.outputSchema ? ['    → returns structured content (outputSchema)'] : []),
    ...(ui ? [`    → has a UI (MCP App): ${clean(ui.resourceUri)}`] : []),
  ];
}

function promptLines(prompt: Prompt): string[] {
  const args = (prompt.arguments ?? []).map((a) => `${clean(a.name)}: string${a.required ? ', required' : ', optional'}${a.description ? ` - ${clean(a.description)}` : ''}`);
  return [`${clean(prompt.name)}${prompt.title && prompt.title !== prompt.name ? ` (${clean(prompt.title)})` : ''}`, ...about(prompt.description), ...args.map((line) => `    ${line}`)];
}

/** `depth: "brief"|"full", optional, default "brief" - how much detail`. */
function argumentLine(name: string, schema: JsonObject, required: boolean): string {
  const type = Array.isArray(schema.enum) ? schema.enum.map((v) => JSON.stringify(v)).join('|') : typeName(schema);
  const parts = [type, required ? 'required' : 'optional'];
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  const description = typeof schema.description === 'string' ? ` - ${schema.description}` : '';
  return clean(`${name}: ${parts.join(', ')}${description}`);
}

function typeName(schema: JsonObject): string {
  if (Array.isArray(schema.type)) return schema.type.join('|');
  if (schema.type === 'array' && isObject(schema.items)) return `${typeName(schema.items)}[]`;
  if (typeof schema.type === 'string') return schema.type;
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (alternatives) return alternatives.filter(isObject).map((alt) => typeName(alt)).join('|');
  if (typeof schema.$ref === 'string') return schema.$ref.replace(/^#\/(\$defs|definitions)\//, '');
  return 'any';
}

function about(description: string | undefined): string[] {
  if (!description) return [];
  const first = description.trim().split('\n')[0];
  return [`    ${clean(first.length > 160 ? `${first.slice(0, 159)}…` : first)}`];
}

function titled(name: string, title: string | undefined): string {
  return `  ${clean(title ?? name)}`;
}

function clean(text: string): string {
  return printable(text).replace(/\n/g, ' ');
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
