// The Everything toolbox: the fixtures the official conformance suites call by name, for the 2026-07-28 suite
// (@modelcontextprotocol/conformance 0.2.0-alpha.12) and the 2025 suite (0.1.16). Names and shapes follow the suites'
// scenario sources (src/scenarios/server/*.ts) and their reference everything-server.
// Every server-to-client interaction is written once as inputRequired(...): modern clients fulfil it and retry, and on a
// 2025 session the SDK's legacy shim turns it into a real server-to-client request.

import {
  completable,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  ResourceTemplate,
  type ClientCapabilities,
  type InputRequests,
  type JsonSchemaType,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { everythingSkills } from './everything-skills.js';
import { registerTaskFixtures, narrowedTaskFixture } from './everything-tasks.js';
import { WATCHED_URI, watchedResource, type WatchedResource } from './everything-watched.js';
import { elicitOutcome, samplingText, text } from '../../edge/mrtr.js';
import { sharedSchema } from '../../edge/schemas.js';
import { TASKS_EXTENSION, TaskStore, type TaskStorage } from '../../edge/tasks.js';
import type { BuildContext, ToolboxSpec } from '../../edge/toolbox.js';

const IMAGE = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const AUDIO = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as unknown as JsonSchemaType;

/**
 * fromJsonSchema compiles an ajv validator on every call (@modelcontextprotocol/server dist/src-*.mjs fromJsonSchema
 * -> validator.getValidator), and the modern era builds a server per request: compiled per request, it was half the
 * toolbox's CPU. Compiled on first use instead (not at module scope: loading stays cheap).
 */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
const customHeaderSchema = once(() =>
  fromJsonSchema({
    type: 'object',
    properties: { region: { type: 'string', 'x-mcp-header': 'Region', description: 'a region name' } },
    required: ['region'],
  } as unknown as JsonSchemaType),
);
const schema2020 = once(() => fromJsonSchema(JSON_SCHEMA_2020_12));
// zod schemas likewise, and converted to JSON Schema once (schemas.ts).
const samplingSchema = once(() => sharedSchema(z.object({ prompt: z.string().describe('The prompt to send to the LLM') })));
const elicitationSchema = once(() => sharedSchema(z.object({ message: z.string().describe('The message to show the user') })));
const promptArgsSchema = once(() =>
  sharedSchema(
    z.object({
      arg1: completable(z.string().describe('First test argument'), (value) => ['paris', 'park', 'parsley'].filter((v) => v.startsWith(value ?? ''))),
      arg2: z.string().describe('Second test argument'),
    }),
  ),
);
const embeddedResourceArgsSchema = once(() => sharedSchema(z.object({ resourceUri: z.string().describe('URI of the resource to embed') })));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const nameRequest = () =>
  inputRequired.elicit({
    message: 'What is your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });

const confirmRequest = () =>
  inputRequired.elicit({
    message: 'Please confirm',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });

function contentText(ctx: ServerContext, key: string, field: string): string {
  const answer = elicitOutcome(ctx, key);
  const value = answer.kind === 'accept' ? answer.content[field] : undefined;
  return typeof value === 'string' ? value : 'unknown';
}

function registerContentFixtures(server: McpServer): void {
  server.registerTool('test_simple_text', { description: 'Tests simple text content response' }, async () =>
    text('This is a simple text response for testing.'),
  );
  server.registerTool('test_image_content', { description: 'Tests image content response' }, async () => ({
    content: [{ type: 'image', data: IMAGE, mimeType: 'image/png' }],
  }));
  server.registerTool('test_audio_content', { description: 'Tests audio content response' }, async () => ({
    content: [{ type: 'audio', data: AUDIO, mimeType: 'audio/wav' }],
  }));
  server.registerTool('test_embedded_resource', { description: 'Tests embedded resource content response' }, async () => ({
    content: [
      { type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } },
    ],
  }));
  server.registerTool(
    'test_multiple_content_types',
    { description: 'Tests response with multiple content types (text, image, resource)' },
    async () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: IMAGE, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) },
        },
      ],
    }),
  );
  server.registerTool('test_error_handling', { description: 'Tests error response handling' }, async () => {
    throw new Error('This tool intentionally returns an error for testing');
  });
  // SEP-2243 custom headers: the client mirrors `region` as `Mcp-Param-Region`, and the SDK checks the two agree.
  server.registerTool(
    'test_custom_header',
    {
      description: 'Tool whose region argument is mirrored in the Mcp-Param-Region header (SEP-2243)',
      inputSchema: customHeaderSchema(),
    },
    async (args) => text(`region=${String((args as { region?: unknown }).region)}`),
  );
  server.registerTool(
    'json_schema_2020_12_tool',
    { description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)', inputSchema: schema2020() },
    async (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  );
}

function registerStreamingFixtures(server: McpServer, ctx: BuildContext): void {
  server.registerTool('test_tool_with_logging', { description: 'Tests tool that emits log messages during execution' }, async (call) => {
    for (const [i, line] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
      if (i > 0) await sleep(50);
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- logging is deprecated (SEP-2577) but still scored in 2025
      await call.mcpReq.log('info', line);
    }
    return text('Tool with logging executed successfully');
  });
  server.registerTool('test_tool_with_progress', { description: 'Tests tool that reports progress notifications' }, async (call) => {
    const progressToken = call.mcpReq._meta?.progressToken ?? 0;
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await sleep(50);
      await call.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` },
      });
    }
    return text(String(progressToken));
  });
  server.registerTool(
    'test_reconnection',
    { description: 'Tests SSE stream disconnection and client reconnection (SEP-1699): closes the stream mid-call.' },
    async (call) => {
      call.http?.closeSSE?.();
      await sleep(100);
      return text('Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.');
    },
  );
  // 2026-07-28 server-stateless diagnostics.
  server.registerTool('test_logging_tool', { description: 'Diagnostic logging validator tool' }, async (call) => {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the SDK drops this unless the envelope names a logLevel
    await call.mcpReq.log('info', 'Diagnostic trace logging activated');
    return text('Logging evaluated');
  });
  server.registerTool('test_trigger_tool_change', { description: 'Diagnostic hook: announces a tool list change on subscriptions/listen' }, async () => {
    ctx.notify()?.toolsChanged();
     
    if (ctx.era === 'legacy') server.sendToolListChanged();
    return text('Mutation triggered');
  });
  server.registerTool('test_trigger_prompt_change', { description: 'Diagnostic hook: announces a prompt list change on subscriptions/listen' }, async () => {
    ctx.notify()?.promptsChanged();
    if (ctx.era === 'legacy') server.sendPromptListChanged();
    return text('Mutation triggered');
  });
}

function registerAskingFixtures(server: McpServer, ctx: BuildContext): void {
  server.registerTool(
    'test_sampling',
    { description: 'Tests server-initiated sampling (LLM completion request)', inputSchema: samplingSchema() },
    async ({ prompt }, call) => {
      const answer = samplingText(call, 'sample');
      if (answer !== undefined) return text(`LLM response: ${answer}`);
      return inputRequired({
        inputRequests: { sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 }) },
      });
    },
  );
  server.registerTool(
    'test_elicitation',
    { description: 'Tests server-initiated elicitation (user input request)', inputSchema: elicitationSchema() },
    async ({ message }, call) => {
      const view = inputResponse(call.mcpReq.inputResponses, 'response');
      if (view.kind === 'elicit') return text(`User response: action=${view.action}, content=${JSON.stringify(view.content ?? {})}`);
      return inputRequired({
        inputRequests: {
          response: inputRequired.elicit({
            message,
            requestedSchema: { type: 'object', properties: { response: { type: 'string', description: "User's response" } }, required: ['response'] },
          }),
        },
      });
    },
  );
  server.registerTool('test_elicitation_sep1034_defaults', { description: 'Tests elicitation with default values per SEP-1034' }, async (call) => {
    const view = inputResponse(call.mcpReq.inputResponses, 'defaults');
    if (view.kind === 'elicit') return text(`Elicitation completed: action=${view.action}, content=${JSON.stringify(view.content ?? {})}`);
    return inputRequired({
      inputRequests: {
        defaults: inputRequired.elicit({
          message: 'Please review and update the form fields with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'User name', default: 'John Doe' },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: { type: 'number', description: 'User score', default: 95.5 },
              status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
              verified: { type: 'boolean', description: 'Verification status', default: true },
            },
            required: [],
          },
        }),
      },
    });
  });
  server.registerTool('test_elicitation_sep1330_enums', { description: 'Tests elicitation with enum schema improvements per SEP-1330' }, async (call) => {
    const view = inputResponse(call.mcpReq.inputResponses, 'enums');
    if (view.kind === 'elicit') return text(`Elicitation completed: action=${view.action}, content=${JSON.stringify(view.content ?? {})}`);
    return inputRequired({
      inputRequests: {
        enums: inputRequired.elicit({
          message: 'Please select options from the enum fields',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
              titledSingle: {
                type: 'string',
                description: 'Select one option with titles',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                  { const: 'value3', title: 'Third Option' },
                ],
              },
              legacyEnum: {
                type: 'string',
                description: 'Select one option (legacy)',
                enum: ['opt1', 'opt2', 'opt3'],
                enumNames: ['Option One', 'Option Two', 'Option Three'],
              },
              untitledMulti: {
                type: 'array',
                description: 'Select multiple options',
                minItems: 1,
                maxItems: 3,
                items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              },
              titledMulti: {
                type: 'array',
                description: 'Select multiple options with titles',
                minItems: 1,
                maxItems: 3,
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                    { const: 'value3', title: 'Third Choice' },
                  ],
                },
              },
            },
            required: [],
          },
        }),
      },
    });
  });

  // 2026-07-28 MRTR fixtures (input-required-result-*).
  server.registerTool('test_input_required_result_elicitation', { description: 'MRTR: returns InputRequiredResult with elicitation request' }, async (call) => {
    if (elicitOutcome(call, 'user_name').kind !== 'missing') return text(`Hello, ${contentText(call, 'user_name', 'name')}!`);
    return inputRequired({ inputRequests: { user_name: nameRequest() } });
  });
  server.registerTool('test_input_required_result_sampling', { description: 'MRTR: returns InputRequiredResult with sampling request' }, async (call) => {
    const answer = samplingText(call, 'capital_question');
    if (answer !== undefined) return text(`Sampling result: ${answer}`);
    return inputRequired({
      inputRequests: {
        capital_question: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 100,
        }),
      },
    });
  });
  server.registerTool('test_input_required_result_list_roots', { description: 'MRTR: returns InputRequiredResult with roots/list request' }, async (call) => {
    const view = inputResponse(call.mcpReq.inputResponses, 'client_roots');
    if (view.kind === 'roots') return text(`Roots: ${view.roots.map((r) => r.uri).join(', ') || '(none)'}`);
    return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
  });
  server.registerTool('test_input_required_result_request_state', { description: 'MRTR: returns InputRequiredResult with requestState' }, async (call) => {
    const state = ctx.state.read<{ kind: string }>(call);
    if (state?.kind === 'request-state' && elicitOutcome(call, 'confirm').kind !== 'missing') return text('state-ok: requestState verified');
    return inputRequired({ inputRequests: { confirm: confirmRequest() }, requestState: await ctx.state.mint({ kind: 'request-state' }, call) });
  });
  server.registerTool(
    'test_input_required_result_multiple_inputs',
    { description: 'MRTR: returns InputRequiredResult with multiple input requests' },
    async (call) => {
      const state = ctx.state.read<{ kind: string }>(call);
      const name = elicitOutcome(call, 'user_name');
      const greeting = samplingText(call, 'greeting');
      const roots = inputResponse(call.mcpReq.inputResponses, 'client_roots');
      if (state?.kind === 'multiple' && name.kind !== 'missing' && greeting !== undefined && roots.kind === 'roots') {
        return text(`Multiple inputs complete: ${contentText(call, 'user_name', 'name')}, "${greeting}", ${roots.roots.length} root(s)`);
      }
      // inputResponses are per round, so a partial answer is re-asked in full rather than remembered.
      return inputRequired({
        inputRequests: {
          user_name: nameRequest(),
          greeting: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
            maxTokens: 50,
          }),
          client_roots: inputRequired.listRoots(),
        },
        requestState: await ctx.state.mint({ kind: 'multiple' }, call),
      });
    },
  );
  server.registerTool('test_input_required_result_multi_round', { description: 'MRTR: multi-round InputRequiredResult workflow' }, async (call) => {
    const state = ctx.state.read<{ round: number; name?: string }>(call);
    if (state?.round === 2 && elicitOutcome(call, 'step2').kind !== 'missing') {
      return text(`Multi-round complete for ${state.name ?? 'friend'} who likes ${contentText(call, 'step2', 'color')}`);
    }
    if (state?.round === 1 && elicitOutcome(call, 'step1').kind !== 'missing') {
      const name = contentText(call, 'step1', 'name');
      return inputRequired({
        inputRequests: {
          step2: inputRequired.elicit({
            message: 'Step 2: What is your favorite color?',
            requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
          }),
        },
        requestState: await ctx.state.mint({ round: 2, name }, call),
      });
    }
    return inputRequired({
      inputRequests: {
        step1: inputRequired.elicit({
          message: 'Step 1: What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        }),
      },
      requestState: await ctx.state.mint({ round: 1 }, call),
    });
  });
  server.registerTool('test_input_required_result_tampered_state', { description: 'MRTR: HMAC-signed requestState integrity test' }, async (call) => {
    // A tampered state never reaches this handler: the codec's verify hook answers -32602 first.
    const state = ctx.state.read<{ kind: string }>(call);
    if (state?.kind === 'tamper-test' && elicitOutcome(call, 'confirm').kind !== 'missing') return text('integrity-ok: state verified');
    return inputRequired({ inputRequests: { confirm: confirmRequest() }, requestState: await ctx.state.mint({ kind: 'tamper-test' }, call) });
  });
  server.registerTool(
    'test_input_required_result_capabilities',
    { description: 'MRTR: respects client capabilities in inputRequests' },
    async (call) => {
      const responses = call.mcpReq.inputResponses;
      if (responses !== undefined && Object.keys(responses).length > 0) return text(`capabilities-ok: received ${Object.keys(responses).join(',')}`);
      // Modern requests declare capabilities per request; a 2025 session declared them once at initialize.
      // RequestMetaEnvelope is typed `{}` in 2.4.0 (dist/mcp-BCJHyo7l.d.mts:378), hence the cast.
      const envelope = call.mcpReq.envelope as Record<string, ClientCapabilities | undefined> | undefined;
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- a 2025 session declared capabilities once, at initialize
      const caps: ClientCapabilities = envelope?.['io.modelcontextprotocol/clientCapabilities'] ?? server.server.getClientCapabilities() ?? {};
      const inputRequests: InputRequests = {};
      if (caps.elicitation) {
        inputRequests.elicit_input = inputRequired.elicit({
          message: 'Elicitation input',
          requestedSchema: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] },
        });
      }
      if (caps.sampling) {
        inputRequests.sample_input = inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Sample request' } }],
          maxTokens: 50,
        });
      }
      if (Object.keys(inputRequests).length === 0) return text('No supported capabilities declared');
      return inputRequired({ inputRequests, requestState: await ctx.state.mint({ kind: 'capabilities' }, call) });
    },
  );
  server.registerTool('test_missing_capability', { description: 'Test tool requiring sampling' }, async (call) => {
    const answer = samplingText(call, 'needs_sampling');
    if (answer !== undefined) return text('Success');
    // The SDK answers -32021 (HTTP 400) itself when the request's envelope does not declare sampling.
    return inputRequired({
      inputRequests: {
        needs_sampling: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'ping' } }], maxTokens: 16 }),
      },
    });
  });
  server.registerTool('test_streaming_elicitation', { description: 'Diagnostic tool validating response progress streams' }, async (call) => {
    if (elicitOutcome(call, 'stream_input').kind !== 'missing') return text('Streaming complete');
    return inputRequired({
      inputRequests: {
        stream_input: inputRequired.elicit({
          message: 'Streaming elicitation',
          requestedSchema: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] },
        }),
      },
    });
  });
}

function registerResources(server: McpServer, ctx: BuildContext, watched: WatchedResource): void {
  server.registerResource(
    'static-text',
    'test://static-text',
    { title: 'Static Text Resource', description: 'A static text resource for testing', mimeType: 'text/plain' },
    async () => ({ contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { title: 'Static Binary Resource', description: 'A static binary resource (image) for testing', mimeType: 'image/png' },
    async () => ({ contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: IMAGE }] }),
  );
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { title: 'Resource Template', description: 'A resource template with parameter substitution', mimeType: 'application/json' },
    async (uri, variables) => ({
      contents: [
        {
          uri: uri.toString(),
          mimeType: 'application/json',
          text: JSON.stringify({ id: variables.id, templateTest: true, data: `Data for ID: ${String(variables.id)}` }),
        },
      ],
    }),
  );
  watched.started(ctx);
  server.registerResource(
    'watched-resource',
    WATCHED_URI,
    { title: 'Watched Resource', description: 'A resource clients can subscribe to: it changes every few seconds', mimeType: 'text/plain' },
    async () => ({ contents: [{ uri: WATCHED_URI, mimeType: 'text/plain', text: watched.text() }] }),
  );
  if (ctx.era === 'legacy') {
    // resources/subscribe is a 2025 method; on 2026-07-28 subscriptions/listen replaces it and it must answer 404.
    // A session subscribed to the watched resource is told each change on its event stream.
    server.server.setRequestHandler('resources/subscribe', async (request) => {
      if (request.params.uri === WATCHED_URI) watched.subscribe(server);
      return {};
    });
    server.server.setRequestHandler('resources/unsubscribe', async (request) => {
      if (request.params.uri === WATCHED_URI) watched.unsubscribe(server);
      return {};
    });
  }
}

function registerPrompts(server: McpServer): void {
  server.registerPrompt('test_simple_prompt', { title: 'Simple Test Prompt', description: 'A simple prompt without arguments' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      title: 'Prompt With Arguments',
      description: 'A prompt with required arguments',
      argsSchema: promptArgsSchema(),
    },
    async ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      title: 'Prompt With Embedded Resource',
      description: 'A prompt that includes an embedded resource',
      argsSchema: embeddedResourceArgsSchema(),
    },
    async ({ resourceUri }) => ({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { title: 'Prompt With Image', description: 'A prompt that includes image content' }, async () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: IMAGE, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
  server.registerPrompt(
    'test_input_required_result_prompt',
    { title: 'MRTR prompt', description: 'MRTR: prompt that requires elicitation input' },
    async (call) => {
      if (elicitOutcome(call, 'user_context').kind !== 'missing') {
        return { messages: [{ role: 'user', content: { type: 'text', text: `Prompt with context: ${contentText(call, 'user_context', 'context')}` } }] };
      }
      return inputRequired({
        inputRequests: {
          user_context: inputRequired.elicit({
            message: 'What context should the prompt use?',
            requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
          }),
        },
      });
    },
  );
}

export interface EverythingOptions {
  /** Where the tasks are kept (memory by default; SQLite and PostgreSQL storages are in `@byhand/servers/node`). The toolbox closes it. */
  tasks?: TaskStorage;
  /** Gets the detail of a storage failure a client was told of only by its id; the console by default. */
  onStorageFailure?: (id: string, error: Error) => void;
}

export function everythingSpec(options: EverythingOptions = {}): ToolboxSpec {
  // One store per toolbox: the modern era builds a server per request, and a task outlives the request that started it.
  const tasks = new TaskStore({ ...(options.tasks !== undefined ? { storage: options.tasks } : {}), ...(options.onStorageFailure !== undefined ? { onStorageFailure: options.onStorageFailure } : {}) });
  const skills = everythingSkills();
  const watched = watchedResource();
  return {
    instructions: 'Conformance fixtures. Not a useful toolbox.',
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
      extensions: { [TASKS_EXTENSION]: {} },
    },
    cacheHints: { 'resources/read': { ttlMs: 300_000, cacheScope: 'private' } },
    register(server, ctx) {
      registerContentFixtures(server);
      registerStreamingFixtures(server, ctx);
      registerAskingFixtures(server, ctx);
      registerResources(server, ctx, watched);
      registerPrompts(server);
      registerTaskFixtures(server, ctx, tasks);
      skills.attach(server);
    },
    narrowed: narrowedTaskFixture,
    ready: () => tasks.ready(),
    dispose: () => {
      watched.stop();
      return tasks.close();
    },
  };
}
