// The Week: the Kitchen's week as an MCP App (SEP-1865, io.modelcontextprotocol/ui), in both eras. show_week links to
// a `ui://` view and answers with text too, for a host that renders nothing; day_details is for the view alone
// (visibility ["app"]), shopping_list for the model alone (["model"]), so a host's visibility rules show both ways.
// Every tool is registered whatever the client declared: a 2026 server learns the capabilities per request, and a
// tool list that changed with them could not be cached (apps.mdx §Server Behavior makes the check a SHOULD).
// The ext-apps server helpers (registerAppTool, registerAppResource) are not used: they copy one key and set a
// mimeType, and would bring that package and its React peers to every install of the toolboxes.

import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { text } from '../../edge/mrtr.js';
import { sharedSchema } from '../../edge/schemas.js';
import type { ToolboxSpec } from '../../edge/toolbox.js';
import { DEFAULT_KITCHEN, type KitchenData } from '../kitchen/kitchen.js';
import { VIEW_HTML } from './view.js';

export const WEEK_VIEW_URI = 'ui://week/view.html';
const UI_MIME_TYPE = 'text/html;profile=mcp-app';

/** What each of the week's dishes needs; the pantry is checked against it. */
const NEEDS: Record<string, string[]> = {
  'red lentil dal with rice': ['red lentils', 'rice', 'onions', 'garlic', 'tinned tomatoes'],
  'spinach and feta omelette': ['eggs', 'spinach', 'feta'],
  'pasta with tomato and garlic': ['pasta', 'tinned tomatoes', 'garlic', 'basil'],
  'chickpea salad': ['chickpeas', 'cucumber', 'onions', 'lemon'],
  'takeaway curry': [],
  shakshuka: ['eggs', 'tinned tomatoes', 'onions', 'peppers'],
  'roast vegetables with chickpeas': ['chickpeas', 'peppers', 'courgettes', 'onions'],
};

const DaySchema = sharedSchema(z.object({ day: z.string().max(20).describe('a day of the week, e.g. "Monday"') }));
const DAY_OUTPUT = sharedSchema(z.object({ day: z.string(), dish: z.string(), have: z.array(z.string()), missing: z.array(z.string()) }));

function registerWeek(server: McpServer, data: KitchenData): void {
  const inPantry = new Set(data.pantry.map((p) => p.item));

  server.registerTool(
    'show_week',
    {
      title: 'Show the week',
      description: "Shows this week's meals: a table in hosts that render MCP Apps, text in the others.",
      annotations: { readOnlyHint: true },
      // The nested key is the extension's; the flat one is its deprecated form, which older hosts still read.
      _meta: { ui: { resourceUri: WEEK_VIEW_URI, visibility: ['model', 'app'] }, 'ui/resourceUri': WEEK_VIEW_URI },
    },
    async () => {
      const lines = data.week.map((m) => `${m.day}, ${m.meal}: ${m.dish} (${m.people})`);
      return { ...text(`This week:\n${lines.join('\n')}`), structuredContent: { week: data.week } };
    },
  );

  server.registerTool(
    'day_details',
    {
      title: "A day's dish against the pantry",
      description: 'What one day\'s dish needs, what the pantry has and what is missing. For the week view only.',
      inputSchema: DaySchema,
      outputSchema: DAY_OUTPUT,
      annotations: { readOnlyHint: true },
      _meta: { ui: { visibility: ['app'] } },
    },
    async ({ day }) => {
      const meal = data.week.find((m) => m.day.toLowerCase() === day.trim().toLowerCase());
      if (!meal) return text(`No meal planned on ${day}: the week has ${data.week.map((m) => m.day).join(', ')}.`, true);
      const needs = NEEDS[meal.dish] ?? [];
      const have = needs.filter((n) => inPantry.has(n));
      const missing = needs.filter((n) => !inPantry.has(n));
      const said = needs.length === 0 ? 'nothing to cook' : missing.length === 0 ? `all in the pantry: ${have.join(', ')}` : `to buy: ${missing.join(', ')}`;
      return { ...text(`${meal.day}: ${meal.dish}, ${said}.`), structuredContent: { day: meal.day, dish: meal.dish, have, missing } };
    },
  );

  server.registerTool(
    'shopping_list',
    {
      title: 'Shopping list',
      description: "What the week's dishes need that the pantry lacks. For the model, not the view.",
      annotations: { readOnlyHint: true },
      _meta: { ui: { visibility: ['model'] } },
    },
    async () => {
      const missing = [...new Set(data.week.flatMap((m) => NEEDS[m.dish] ?? []).filter((n) => !inPantry.has(n)))];
      return { ...text(missing.length > 0 ? `To buy: ${missing.join(', ')}.` : 'Nothing to buy.'), structuredContent: { missing } };
    },
  );

  server.registerResource(
    'week-view',
    WEEK_VIEW_URI,
    { title: "The week's view", description: 'The MCP App show_week renders', mimeType: UI_MIME_TYPE, cacheHint: { ttlMs: 60_000, cacheScope: 'public' } },
    async (uri) => ({
      // The restrictive default CSP is all the view needs: it declares no domain, so it reaches none.
      contents: [{ uri: uri.href, mimeType: UI_MIME_TYPE, text: VIEW_HTML, _meta: { ui: { csp: {}, prefersBorder: true } } }],
    }),
  );
}

export function weekSpec(data: KitchenData = DEFAULT_KITCHEN): ToolboxSpec {
  return {
    instructions: "The Week shows the Kitchen's week as an MCP App (show_week), with a text fallback for hosts that render none.",
    capabilities: { extensions: { 'io.modelcontextprotocol/ui': {} } },
    register: (server) => registerWeek(server, data),
  };
}
