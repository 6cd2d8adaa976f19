// The Kitchen: a toolbox that has the data but not the judgement, so it asks the host to think (sampling) and the
// user to decide (elicitation). Contract: exactly 2 tools, 2 resources, 1 prompt.

import { inputRequired, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { boundedTokens, elicitOutcome, samplingText, text } from '../../edge/mrtr.js';
import { sharedSchema } from '../../edge/schemas.js';
import type { BuildContext, ToolboxSpec } from '../../edge/toolbox.js';

export interface PantryItem {
  item: string;
  quantity: string;
}

export interface Meal {
  day: string;
  meal: string;
  dish: string;
  people: number;
}

export interface KitchenData {
  pantry: PantryItem[];
  week: Meal[];
}

export const DEFAULT_KITCHEN: KitchenData = {
  pantry: [
    { item: 'rice', quantity: '1 kg' },
    { item: 'red lentils', quantity: '500 g' },
    { item: 'tinned tomatoes', quantity: '3 tins' },
    { item: 'onions', quantity: '4' },
    { item: 'garlic', quantity: '1 bulb' },
    { item: 'eggs', quantity: '6' },
    { item: 'spinach', quantity: '200 g' },
    { item: 'feta', quantity: '150 g' },
    { item: 'pasta', quantity: '500 g' },
    { item: 'chickpeas', quantity: '2 tins' },
  ],
  week: [
    { day: 'Monday', meal: 'dinner', dish: 'red lentil dal with rice', people: 2 },
    { day: 'Tuesday', meal: 'dinner', dish: 'spinach and feta omelette', people: 1 },
    { day: 'Wednesday', meal: 'dinner', dish: 'pasta with tomato and garlic', people: 3 },
    { day: 'Thursday', meal: 'lunch', dish: 'chickpea salad', people: 2 },
    { day: 'Friday', meal: 'dinner', dish: 'takeaway curry', people: 4 },
    { day: 'Saturday', meal: 'breakfast', dish: 'shakshuka', people: 2 },
    { day: 'Sunday', meal: 'dinner', dish: 'roast vegetables with chickpeas', people: 3 },
  ],
};

export const PANTRY_URI = 'kitchen://pantry';
export const WEEK_URI = 'kitchen://week';

const DinersSchema = {
  type: 'object' as const,
  properties: {
    people: { type: 'integer' as const, title: 'How many people?', minimum: 1, maximum: 12 },
    avoid: { type: 'string' as const, title: 'Anything to avoid?', description: 'allergies, dislikes; leave empty for none', maxLength: 200 },
  },
  required: ['people'],
};

interface DinnerState {
  step: 'think';
  people: number;
  avoid: string;
}

function readDiners(content: Record<string, unknown>): { people: number; avoid: string } | undefined {
  const people = typeof content.people === 'string' ? Number(content.people) : content.people;
  if (typeof people !== 'number' || !Number.isInteger(people) || people < 1 || people > 12) return undefined;
  const avoid = typeof content.avoid === 'string' ? content.avoid.trim().slice(0, 200) : '';
  return { people, avoid };
}

const SummariseSchema = sharedSchema(
  z.object({ depth: z.enum(['brief', 'full']).default('brief').describe('brief: a few lines; full: day by day') }),
);

const PlanMealsSchema = sharedSchema(
  z.object({
    days: z.string().describe('how many days to plan, e.g. "3"'),
    people: z.string().optional().describe('how many people, e.g. "2"'),
    diet: z.string().optional().describe('e.g. vegetarian, no nuts'),
  }),
);

function registerKitchen(server: McpServer, ctx: BuildContext, data: KitchenData): void {
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  // Prompts go to the host's model: compact JSON costs fewer of its tokens.
  const compact = (value: unknown) => JSON.stringify(value);

  server.registerTool(
    'summarise_week',
    {
      title: 'Summarise the week',
      description: "Reads the week's meals and asks the host's model to summarise them.",
      inputSchema: SummariseSchema,
      annotations: { readOnlyHint: true },
    },
    async ({ depth }, call) => {
      const summary = samplingText(call, 'summary');
      if (summary !== undefined) return { ...text(summary), structuredContent: { depth, summary } };
      return inputRequired({
        inputRequests: {
          summary: inputRequired.createMessage({
            systemPrompt: 'You are a concise kitchen assistant. Answer in plain text.',
            messages: [
              {
                role: 'user',
                content: {
                  type: 'text',
                  text:
                    depth === 'full'
                      ? `Summarise this week of meals day by day, then note what is running low in the pantry.\nMeals: ${compact(data.week)}\nPantry: ${compact(data.pantry)}`
                      : `Summarise this week of meals in at most three sentences.\nMeals: ${compact(data.week)}`,
                },
              },
            ],
            maxTokens: boundedTokens(depth === 'full' ? 600 : 200),
          }),
        },
      });
    },
  );

  server.registerTool(
    'suggest_dinner',
    {
      title: 'Suggest a dinner',
      description: 'Asks you how many people and what to avoid, then asks the host to suggest a dinner from the pantry.',
      annotations: { readOnlyHint: true },
    },
    async (call) => {
      const carried = ctx.state.read<DinnerState>(call);
      if (carried?.step === 'think') {
        const idea = samplingText(call, 'idea');
        if (idea !== undefined) {
          return { ...text(idea), structuredContent: { people: carried.people, avoid: carried.avoid, suggestion: idea } };
        }
        // inputResponses are per round: round 1's answers live only in the state, so re-ask for the idea with it.
        return thinkRound(carried, call);
      }
      const diners = elicitOutcome(call, 'diners');
      if (diners.kind === 'decline' || diners.kind === 'cancel') {
        return text(`No dinner suggested: you chose to ${diners.kind} the question about who is eating.`);
      }
      if (diners.kind === 'accept') {
        const answer = readDiners(diners.content);
        if (answer !== undefined) return thinkRound({ step: 'think', ...answer }, call);
      }
      return inputRequired({
        inputRequests: {
          diners: inputRequired.elicit({
            message:
              diners.kind === 'accept'
                ? 'That answer did not fit: how many people (1-12), and anything to avoid?'
                : 'Who is eating? How many people, and anything to avoid?',
            requestedSchema: DinersSchema,
          }),
        },
      });
    },
  );

  async function thinkRound(state: DinnerState, call: ServerContext) {
    return inputRequired({
      inputRequests: {
        idea: inputRequired.createMessage({
          systemPrompt: 'You are a practical home cook. Suggest one dinner, with a short ingredient list and method.',
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: `Suggest one dinner for ${state.people} ${state.people === 1 ? 'person' : 'people'}${
                  state.avoid.length > 0 ? `, avoiding: ${state.avoid}` : ''
                }. Prefer what is in the pantry: ${compact(data.pantry)}. Do not repeat this week's dishes: ${data.week
                  .map((m) => m.dish)
                  .join('; ')}.`,
              },
            },
          ],
          maxTokens: boundedTokens(400),
        }),
      },
      requestState: await ctx.state.mint(state, call),
    });
  }

  server.registerResource(
    'pantry',
    PANTRY_URI,
    { title: 'Pantry', description: "What is in the cupboard", mimeType: 'application/json', cacheHint: { ttlMs: 60_000, cacheScope: 'public' } },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: json(data.pantry) }] }),
  );

  server.registerResource(
    'week',
    WEEK_URI,
    { title: "This week's meals", description: 'Every meal cooked or planned this week', mimeType: 'application/json', cacheHint: { ttlMs: 60_000, cacheScope: 'public' } },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: json(data.week) }] }),
  );

  server.registerPrompt(
    'plan_meals',
    {
      title: 'Plan meals',
      description: 'Plan the coming days from the pantry, for a number of people and a diet.',
      argsSchema: PlanMealsSchema,
    },
    ({ days, people, diet }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'resource', resource: { uri: PANTRY_URI, mimeType: 'application/json', text: json(data.pantry) } },
        },
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Plan ${days} day(s) of dinners for ${people ?? '2'} people${diet ? ` (${diet})` : ''}, using the pantry above first. List what to buy.`,
          },
        },
      ],
    }),
  );
}

export function kitchenSpec(data: KitchenData = DEFAULT_KITCHEN): ToolboxSpec {
  return {
    instructions: 'The Kitchen knows the pantry and the week; it asks you (elicitation) and your model (sampling) to decide.',
    register: (server, ctx) => registerKitchen(server, ctx, data),
  };
}
