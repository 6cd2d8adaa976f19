// byhand's client as the conformance suite's "client under test": the suite starts a mock server,
// appends its URL to this command and names the scenario in MCP_CONFORMANCE_SCENARIO. Each scenario
// does what a real user of the client would; the era is always negotiated (auto), never pinned.

import { connect, type Client, type Host } from '../../src/client/index.js';

const url = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { toolCalls?: { name: string; arguments: Record<string, unknown> }[] };

let unrelatedCalled = false;
let client: Client;
const host: Host = {
  sample: async () => ({ role: 'assistant', content: { type: 'text', text: 'conformance answer' }, model: 'byhand-conformance', stopReason: 'endTurn' }),
  elicit: async () => {
    // Call another tool between rounds: its request must carry none of this flow's state.
    if (scenario === 'sep-2322-client-request-state' && !unrelatedCalled) {
      unrelatedCalled = true;
      await client.callTool('test_mrtr_unrelated');
    }
    // Accept with nothing filled in: the client applies the schema's defaults (SEP-1034).
    return { action: 'accept', content: scenario === 'sep-2322-client-request-state' ? { confirmed: true } : {} };
  },
  roots: async () => ({ roots: [{ uri: 'file:///conformance', name: 'conformance' }] }),
};

client = await connect(url, { host, clientInfo: { name: 'byhand-conformance', version: '0.1.0' } });
const tools = await client.listTools();
const first = <T>(items: T[]): T[] => items.slice(0, 1);

switch (scenario) {
  case 'initialize':
  case 'json-schema-ref-no-deref':
    break;
  case 'tools_call':
    await client.callTool('add_numbers', { a: 2, b: 3 });
    break;
  case 'sep-2322-client-request-state':
    for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_no_result_type']) await client.callTool(name);
    break;
  case 'http-standard-headers':
    for (const tool of first(tools)) await client.callTool(tool.name, {});
    for (const resource of first(await client.listResources())) await client.readResource(resource.uri);
    for (const prompt of first(await client.listPrompts())) await client.getPrompt(prompt.name, {});
    break;
  case 'http-custom-headers':
    for (const call of context.toolCalls ?? []) await client.callTool(call.name, call.arguments);
    break;
  case 'elicitation-sep1034-client-defaults':
    await client.callTool('test_client_elicitation_defaults');
    break;
  case 'sse-retry':
    await client.callTool('test_reconnection');
    break;
  default:
    // request-metadata, http-invalid-tool-headers and the rest: call every tool the client kept.
    for (const tool of tools) await client.callTool(tool.name, {});
}
await client.close();
