// byhand's client as the conformance suite's "client under test": the suite starts a mock server,
// appends its URL to this command and names the scenario in MCP_CONFORMANCE_SCENARIO. Each scenario
// does what a real user of the client would; the era is always negotiated (auto), never pinned.
// Plain JavaScript importing the packages by name, so it runs what ships: the built client, with no compiler.

/** @import { JwsAlgorithm, OAuthOptions } from '@byhand/client/auth' */
/** @import { Client, ElicitResult, Host, JsonObject } from '@byhand/client' */
import { createOAuth } from '@byhand/client/auth';
import { connect, McpError } from '@byhand/client';
import { listSkills, loadSkill } from '@byhand/client/skills';

const url = /** @type {string} */ (process.argv.at(-1));
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
/**
 * @type {{
 *   toolCalls?: { name: string, arguments: JsonObject }[],
 *   client_id?: string, client_secret?: string, private_key_pem?: string, signing_algorithm?: string,
 *   idp_client_id?: string, idp_id_token?: string, idp_token_endpoint?: string,
 *   [jwt: string]: unknown,
 * }}
 */
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

/**
 * The grant each extension scenario's user would configure (the mock's context carries the credentials).
 * @param {string} name
 * @returns {Partial<OAuthOptions>}
 */
function grantFor(name) {
  switch (name) {
    case 'auth/client-credentials-basic':
      return { grant: { type: 'client_credentials' } };
    case 'auth/client-credentials-jwt':
      return { grant: { type: 'client_credentials' }, clientKey: { privateKey: String(context.private_key_pem), alg: /** @type {JwsAlgorithm} */ (context.signing_algorithm ?? 'ES256') } };
    case 'auth/enterprise-managed-authorization':
    case 'auth/cross-app-access-complete-flow':
      return { grant: { type: 'enterprise', idToken: () => String(context.idp_id_token), idp: { tokenEndpoint: String(context.idp_token_endpoint), clientId: String(context.idp_client_id) } } };
    case 'auth/wif-jwt-bearer': {
      // BYHAND_WIF_JWT names another of the context's JWTs (expired_jwt, wrong_audience_jwt): the refusal tests.
      const jwt = String(context[process.env.BYHAND_WIF_JWT ?? 'valid_jwt']);
      return { grant: { type: 'jwt_bearer', assertion: () => jwt } };
    }
    default:
      return {};
  }
}

// auth/* scenarios: the mock authorization server answers GET /authorize with a 302 to the redirect
// URI; nothing listens there, so the "browser" reads the Location header instead of following it.
// By default the client has no Client ID Metadata Document URL (a client must host one itself, so there is no
// default to give: CIMD needs a URL the authorization server can fetch); BYHAND_CONFORMANCE_CIMD=1 gives it one,
// which is how auth/basic-cimd is also measured configured.
const cimd = process.env.BYHAND_CONFORMANCE_CIMD === '1';
const auth = scenario.startsWith('auth/')
  ? createOAuth({
      redirectUri: 'http://127.0.0.1:3000/callback',
      authorize: async (url) => {
        const response = await fetch(url, { redirect: 'manual' });
        await response.body?.cancel();
        const location = response.headers.get('location');
        if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
        return new URL(location, url);
      },
      ...(cimd ? { clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' } : {}),
      ...(context.client_id ? { clientId: context.client_id } : {}),
      ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
      ...grantFor(scenario),
    })
  : undefined;

let unrelatedCalled = false;
/** @type {Client} */
let client;
/** @type {Host} */
const host = {
  sample: async () => ({ role: 'assistant', content: { type: 'text', text: 'conformance answer' }, model: 'byhand-conformance', stopReason: 'endTurn' }),
  /** @returns {Promise<ElicitResult>} */
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

// A failure is one line (code, message, hint) on stderr and exit 1: the scenarios that expect the
// client to refuse (resource-mismatch, iss-*, scope-retry-limit) end here.
try {
  client = await connect(url, { host, clientInfo: { name: 'byhand-conformance', version: '0.1.0' }, ...(auth ? { auth } : {}) });
  const tools = await client.listTools();
  /** @template T @param {T[]} items @returns {T[]} */
  const first = (items) => items.slice(0, 1);

  // Every auth scenario's server has one tool, test-tool; calling it is the step-up scenario's trigger.
  switch (scenario.startsWith('auth/') ? 'auth' : scenario) {
    case 'auth':
      for (const tool of tools.filter((t) => t.name === 'test-tool')) await client.callTool(tool.name, {});
      break;
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
    // SEP-2640: a host lists skills to build its registry and reads nothing more; loading one reads and verifies its
    // SKILL.md, and only a verified skill's supporting files are read (a tampered one throws before that).
    case 'sep-2640-client-no-prefetch':
      await listSkills(client);
      break;
    case 'sep-2640-client-verify-digest':
    case 'sep-2640-client-verify-size':
    case 'sep-2640-client-verify-frontmatter':
      for (const entry of first(await listSkills(client))) {
        const skill = await loadSkill(client, entry);
        for (const file of Array.isArray(entry.resources) ? entry.resources.filter((r) => r.uri !== entry.uri) : []) await skill.readFile(file.uri);
      }
      break;
    case 'json-schema-2020-12-preservation': {
      // Echo the focal tool's inputSchema back as given, so the scenario can see what the client kept.
      const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
      if (focal) await client.callTool('json_schema_echo', { schema: focal.inputSchema });
      break;
    }
    default:
      // request-metadata, http-invalid-tool-headers and the rest: call every tool the client kept.
      for (const tool of tools) await client.callTool(tool.name, {});
  }
  await client.close();
} catch (error) {
  process.stderr.write(`byhand-conformance: ${error instanceof McpError ? error.explain() : String(error)}\n`);
  process.exitCode = 1;
}
