// The scenarios of the official suites that byhand does not (yet) pass, each with the reason. Every other scenario,
// scored or not, is asserted to pass; a scenario listed here that passes fails the tests, so the list cannot go stale.
// Keyed by scenario name (the reason holds in every suite that runs it), or by `SUITE scenario` when it holds in one
// suite only. docs/conformance.md shows the same list.

export type Scope = Readonly<Record<string, string>>;

/** Why this run of the scenario is out of scope, or undefined when it must pass. */
export function outOfScope(scope: Scope, suite: string, scenario: string): string | undefined {
  return scope[`${suite} ${scenario}`] ?? scope[scenario];
}

/** Server scenarios (the Everything toolbox). */
export const SERVER_OUT_OF_SCOPE: Scope = {
  '0.1.16 server-sse-polling':
    "0.1.16's copy sends its tools/call with MCP-Protocol-Version 2025-03-26, and that revision has no priming event to send: its POST stream carries JSON-RPC " +
    'messages ("The SSE stream SHOULD eventually include one JSON-RPC response per each JSON-RPC request"; "The server MAY send JSON-RPC requests and ' +
    'notifications before sending a JSON-RPC response"), with no `retry`, and "The server SHOULD NOT close the SSE stream before sending a JSON-RPC response ' +
    'per each received JSON-RPC request, unless the session expires" (2025-03-26 transports.mdx, Sending Messages to the Server, item 6). The event with an ' +
    'id and empty data, and `retry` before closing, came in 2025-11-25 (the same item 6), so the SDK sends them only from that version on; two WARNINGs, ' +
    "nothing to pass. 0.2.0-alpha.12's copy passes",
  'tasks-status-notifications': 'has no checks in 0.2.0-alpha.12: its one check is SKIPPED, pending a rewrite for subscriptions/listen',
};

/** Client scenarios (test/conformance/client-under-test.mjs). */
export const CLIENT_OUT_OF_SCOPE: Scope = {};

/**
 * Warnings a client scenario may carry in byhand's default configuration, with the reason. auth/basic-cimd warns that a
 * client SHOULD use a URL-based client ID: a Client ID Metadata Document must be served from a URL the client's owner
 * controls, so byhand has no default to give; the same scenario is also run with `clientMetadataUrl` set, and must be clean.
 */
export const CLIENT_DEFAULT_WARNINGS: Readonly<Record<string, { check: string; why: string }>> = {
  'auth/basic-cimd': { check: 'cimd-client-id-used', why: 'no default CIMD URL (it must be one the owner hosts); clean with clientMetadataUrl set' },
};

/**
 * Server scenarios through `byhand bridge --listen` (test/conformance-bridge.test.ts): the direct run's reasons, which
 * hold through a bridge too, and what cannot pass through one, or does not yet. The 2026-07-28 run has a 2025-only
 * server behind the bridge (test/support/legacy-only-everything.ts); the 2025 runs a 2026 one.
 */
export const BRIDGE_OUT_OF_SCOPE: Scope = {
  ...SERVER_OUT_OF_SCOPE,
  '2026-07-28 server-stateless':
    'one check of its 30 cannot pass in front of a 2025 server: sep-2575-server-rejects-undeclared-capability calls test_missing_capability ' +
    '(a tool that samples) without declaring sampling, and wants -32021 (and its HTTP 400, the check after it). The bridge declares to a 2025 ' +
    "server only what the caller declared (one back per capability set), so the server is never told it may ask for sampling and fails in its own " +
    "way: the Everything toolbox on a 2025 session fails the tool in its result (the SDK's legacy shim: the client 'did not declare the required " +
    "capability'), which the bridge cannot tell from any other tool failure. A 2025 server that asks for an undeclared capability anyway gets an " +
    'error and the caller -32021 with data.requiredCapabilities, HTTP 400 (test/bridge-pending-calls.test.ts). Declaring every capability instead ' +
    'would pass this check and fail input-required-result-capability-check, where the server must see what the caller lacks',
  '2026-07-28 input-required-result-basic-elicitation':
    'wants the input request under the key the server chose (`user_name`). A 2025 server asks with a JSON-RPC request that has an id and no ' +
    "key: the name lives only in the tool's own 2026 code, and nothing on the 2025 wire carries it, so the bridge keys the request by its id " +
    '(and the retry that answers that key completes the call, as input-required-result-request-state and the other rounds show)',
  '2026-07-28 input-required-result-ignore-extra-params':
    'its first call already carries inputResponses under `user_name` (with extra keys), and no requestState, and wants a complete result at ' +
    'once. A 2026 server reads them on its first round; a 2025 server asks over its session with a request whose key the host could not ' +
    'have known in advance (see input-required-result-basic-elicitation), so the bridge answers input_required: a WARNING, the only check',
  // The tasks in front of a 2025 server that runs none of its own are the bridge's (packages/switchboard/src/made-tasks.ts).
  'tasks-required-task-error':
    'wants -32021 for failing_job from a caller that does not declare the tasks extension: a tool the server cannot serve without a task. In ' +
    'front of a 2025 server that runs no tasks of its own there is none: without the 2025-11-25 `tasks` capability no call may be ' +
    'task-augmented (2025-11-25 tasks.mdx, Tool-Level Negotiation), so every tool it has answers a plain call, and the bridge runs it in the ' +
    'call for such a caller (the 2025-only Everything toolbox lists its task-only tools `execution.taskSupport: "optional"` for that reason). ' +
    'The bridge makes a task of it only for a caller that declares the extension (tasks-lifecycle, tasks-dispatch-and-envelope)',
  'tasks-mrtr-composition':
    "wants test_tool_with_task's question asked before its task is made: round 1 an input_required result with no taskId, round 2 the " +
    'CreateTaskResult (SEP-2663: input needed before a task is the multi round-trip flow on tools/call, input needed during it the ' +
    "task's inputRequests). A 2025 server asks with a request pushed during the call, which says nothing of where in the work it comes. " +
    'The bridge makes the task when the call starts (the server lists the tool as one that may run as a task), so every question is the ' +
    "task's inputRequests, as tasks-mrtr-input wants, and round 1 here is the task's handle. Which of the two a question is cannot be read " +
    'off the 2025 wire',
};
