// One class per failure, each with a hint a person can act on. Every failure byhand reports is an
// McpError: `code` is the machine-readable reason (the JSON-RPC code when the server sent one, otherwise a short
// word), `kind` what sort of failure it is, for a caller deciding what to do. Hints speak the library's terms: an
// option a caller can change is named in backticks (`timeoutMs`), so an application can put its own name for it
// (the CLI puts its flag).

import { redactText, redactUrl } from './redact.js';
import type { JsonRpcError } from './types.js';

export type FailureCode = number | 'http' | 'body' | 'closed' | 'timeout' | 'aborted' | 'network' | 'spawn' | 'protocol' | 'loop' | 'rounds' | 'host' | 'auth' | 'limit' | 'redirect' | 'session';

/** What sort of failure: who can fix it, and whether trying again may help. */
export type ErrorKind = 'auth' | 'unreachable' | 'timeout' | 'cancelled' | 'limit' | 'protocol' | 'server' | 'host';

const KIND_OF: Record<Exclude<FailureCode, number>, ErrorKind> = {
  http: 'server', body: 'protocol', closed: 'server', timeout: 'timeout', aborted: 'cancelled', network: 'unreachable', spawn: 'unreachable',
  protocol: 'protocol', loop: 'protocol', rounds: 'limit', host: 'host', auth: 'auth', limit: 'limit', redirect: 'protocol', session: 'server',
};

/** The kind of a code: a JSON-RPC error of the protocol's own range is the exchange's fault, any other the server's. */
function kindOf(code: FailureCode): ErrorKind {
  if (typeof code !== 'number') return KIND_OF[code];
  return (code <= -32600 && code >= -32700) || (code <= -32020 && code >= -32022) ? 'protocol' : 'server';
}

export class McpError extends Error {
  readonly code: FailureCode;
  readonly kind: ErrorKind;
  readonly data: unknown;
  readonly hint: string;

  constructor(code: FailureCode, message: string, hint: string, data?: unknown, options?: { cause?: unknown; kind?: ErrorKind }) {
    // Every report, trace and CLI line shows these two: a URL in them (the server's, one a server
    // named) is redacted here, once, by the rule in redact.ts.
    super(redactText(message), options && 'cause' in options ? { cause: options.cause } : undefined);
    this.name = 'McpError';
    this.code = code;
    this.kind = options?.kind ?? kindOf(code);
    this.hint = redactText(hint);
    this.data = data;
  }

  /** One line: the code, what happened, and what to do about it. */
  explain(): string {
    return `${this.code}: ${this.message} (hint: ${this.hint})`;
  }
}

/** The server answered with a JSON-RPC error. */
export class RpcError extends McpError {
  readonly status: number | undefined;
  constructor(error: JsonRpcError, context: RequestContext, status?: number) {
    super(error.code, error.message, hintForRpcError(error, context), error.data);
    this.name = 'RpcError';
    this.status = status;
  }
}

/** An HTTP answer that carried no JSON-RPC message. */
export class HttpStatusError extends McpError {
  readonly status: number;
  readonly body: string;
  readonly headers: Headers;
  constructor(status: number, body: string, headers: Headers, url: string) {
    const kind = status === 401 || status === 403 ? 'auth' : status >= 500 ? 'server' : 'protocol';
    super('http', `HTTP ${status} from ${redactUrl(url)}${body ? `: ${redactText(truncate(body, 200))}` : ''}`, hintForStatus(status, headers), undefined, { kind });
    this.name = 'HttpStatusError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

export class BodyError extends McpError {
  constructor(message: string, hint = 'the endpoint is probably not an MCP server: check the URL and its path (often /mcp)') {
    super('body', message, hint);
    this.name = 'BodyError';
  }
}

export class StreamClosedError extends McpError {
  constructor(what: string, hint = 'the server closed the stream before it answered: it may have crashed or restarted; the request was lost and can be sent again') {
    super('closed', what, hint);
    this.name = 'StreamClosedError';
  }
}

export class TimeoutError extends McpError {
  constructor(method: string, ms: number) {
    super('timeout', `${method} got no answer within ${ms} ms`, 'the server is slow or hung: raise the timeout (`timeoutMs`) or check the server');
    this.name = 'TimeoutError';
  }
}

export class AbortedError extends McpError {
  constructor(method: string, reason?: unknown) {
    super('aborted', `${method} was cancelled${reason instanceof Error ? `: ${reason.message}` : ''}`, 'the caller aborted the request through its AbortSignal');
    this.name = 'AbortedError';
  }
}

export class NetworkError extends McpError {
  constructor(url: string, cause: unknown) {
    const why = cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
    super('network', `cannot reach ${redactUrl(url)}: ${redactText(why)}`, 'nothing answered at that address: is the server running, and is the URL right?', undefined, { cause });
    this.name = 'NetworkError';
  }
}

/** The server sent more than the client reads: a body, an event or a line past its limit. */
export class LimitError extends McpError {
  constructor(what: string, limit: number) {
    super('limit', `${what} is larger than ${limit} bytes, so the client stopped reading it`, 'a server should not send that much in one message; if it is expected, raise `limits.maxMessageBytes`');
    this.name = 'LimitError';
  }
}

/** A list whose pages together pass `limits.maxListBytes`: the client stops asking for more pages. */
export class ListLimitError extends McpError {
  constructor(readonly method: string, readonly pages: number, readonly bytes: number, readonly limit: number) {
    super('limit', `${method} took ${pages} pages, ${bytes} bytes, over the ${limit} one list may take`, 'raise `limits.maxListBytes` if a list this large is expected');
    this.name = 'ListLimitError';
  }
}

/** MCP traffic does not follow redirects: headers and the body would go where the user never named. */
export class RedirectError extends McpError {
  readonly status: number;
  readonly location: string | undefined;
  constructor(status: number, url: string, location: string | undefined) {
    const where = location ? resolveUrl(location, url) : undefined;
    super(
      'redirect',
      `${redactUrl(url)} answered HTTP ${status || 'redirect'}${where ? ` pointing to ${redactUrl(where)}` : ''}, and byhand does not follow redirects for MCP requests`,
      where ? 'if the new address is the server you mean, use it directly: following a redirect would send your headers, credentials and the request to another place' : 'use the server\'s final URL directly',
    );
    this.name = 'RedirectError';
    this.status = status;
    this.location = where;
  }
}

export class ProtocolError extends McpError {
  constructor(message: string, hint: string, data?: unknown) {
    super('protocol', message, hint, data);
    this.name = 'ProtocolError';
  }
}

/** The server asked again for an input the client had just answered. */
/** How the re-ask rule (reask.ts) told a loop from a re-ask. */
export interface LoopFinding {
  /** 'fixed-point': the same request answered the same way again; 'budget': too many identical re-asks in a row. */
  kind: 'fixed-point' | 'budget';
  /** How many times in a row the server asked this same request. */
  times: number;
  /** Whether a sampling request (a paid model call per ask) is among the keys. */
  sampling: boolean;
  /** The server's message for an elicitation: often why the last answer was not taken. */
  message?: string;
}

export class InputLoopError extends McpError {
  constructor(method: string, name: string, keys: string[], round: number, finding: LoopFinding) {
    const quoted = keys.map((k) => `'${k}'`).join(', ');
    const what =
      finding.kind === 'fixed-point'
        ? `the server asked again for ${quoted} with the same request (${finding.times} times in a row) and got the same answer as last time, so sending it again cannot change what the server does`
        : `the server asked again for ${quoted} with the same request ${finding.times} times in a row` +
          (finding.sampling ? '; every ask of a sampling request is a paid model call, so byhand stopped' : ', more than a re-ask after an invalid answer needs');
    const reader =
      'the server likely never sees the answers: inputResponses and requestState must be top-level members of params, not inside _meta; ' +
      'each response must be the bare result, not wrapped as {kind, result}; and the server must read each key with the reader for its kind of request';
    const rejected =
      finding.sampling || finding.message === undefined
        ? ''
        : `if the server did not accept the answer (it says: ${JSON.stringify(finding.message)}), answer differently (in the \`answersFile\`, if one was used); otherwise `;
    super('loop', `${method} ${name}: ${what} (round ${round})`, rejected + reader, { keys, round, ...finding });
    this.name = 'InputLoopError';
  }
}

export class RoundLimitError extends McpError {
  constructor(method: string, name: string, rounds: number) {
    super('rounds', `${method} ${name} still asked for input after ${rounds} rounds`, 'raise `maxRounds` if the server legitimately needs more, or check that it makes progress between rounds', { rounds });
    this.name = 'RoundLimitError';
  }
}

export class HostError extends McpError {
  constructor(message: string, hint: string, options?: { cause?: unknown }) {
    super('host', message, hint, undefined, options);
    this.name = 'HostError';
  }
}

/** What was being attempted when an error came back, so the hint can name the field. */
export interface RequestContext {
  method: string;
  name?: string;
  protocolVersion?: string;
  headers?: Record<string, string>;
}

function hintForRpcError(error: JsonRpcError, ctx: RequestContext): string {
  const data = (error.data ?? {}) as Record<string, unknown>;
  switch (error.code) {
    case -32020:
      return headerMismatchHint(error, ctx);
    case -32021: {
      const caps = data.requiredCapabilities && typeof data.requiredCapabilities === 'object' ? Object.keys(data.requiredCapabilities) : [];
      const list = caps.length ? caps.join(', ') : 'the capability the server needs';
      return `the server needs the client to declare ${list} in _meta's clientCapabilities: give the host a ${caps.map(callbackFor).join('/') || 'matching'} callback (${JSON.stringify(data.requiredCapabilities ?? {})})`;
    }
    case -32022: {
      const supported = Array.isArray(data.supported) ? data.supported.join(', ') : 'not said';
      return `the server speaks ${supported}; the client asked for ${typeof data.requested === 'string' ? data.requested : (ctx.protocolVersion ?? '?')} and found no version both support`;
    }
    case -32601:
      return `the server has no method ${ctx.method}: it may speak the other era, or not offer this feature (its capabilities say which it offers)`;
    case -32602:
      // The SDK's answer to a requestState its verify hook refused (@modelcontextprotocol/server, _verifyRequestState).
      if (data.reason === 'invalid_request_state') return 'the server refused the requestState of an earlier round: it expired, or another instance signed it with a key this one lacks (instances behind one URL must share it)';
      return ctx.name
        ? `the server rejected the parameters: check that '${ctx.name}' exists (\`listTools\` and its kin list them) and that the arguments match its schema`
        : 'the server rejected the parameters of the request';
    case -32603:
      return 'the server failed while handling the request: its own logs say why';
    case -32700:
      return 'the server could not parse the request as JSON';
    case -32600:
      return 'the server says the request is not valid JSON-RPC';
    case -32002:
      return 'the resource does not exist (an older server\'s code for it)';
    default:
      return 'the server reported an error of its own; its message says more';
  }
}

function callbackFor(capability: string): string {
  return capability === 'sampling' ? 'sample' : capability === 'elicitation' ? 'elicit' : capability;
}

function headerMismatchHint(error: JsonRpcError, ctx: RequestContext): string {
  const text = error.message;
  const sent = ctx.headers ?? {};
  // The SDK reports what it saw in data.mismatch.header (sdk-2.4.0-wire.md M3-M8); that is the wire's truth.
  const mismatch = (error.data as { mismatch?: { header?: unknown } } | undefined)?.mismatch;
  const seen = typeof mismatch?.header === 'string' ? mismatch.header : undefined;
  const describe = (header: string) => {
    const ours = sent[header.toLowerCase()];
    const shown = seen ?? ours ?? 'absent';
    const changed = seen !== undefined && ours !== undefined && seen !== ours ? `; byhand sent '${ours}', so something in between changed it` : '';
    return `the ${header} header (${shown})${changed}`;
  };
  if (/MCP-Protocol-Version/i.test(text)) return `${describe('MCP-Protocol-Version')} must equal _meta's io.modelcontextprotocol/protocolVersion (${ctx.protocolVersion ?? '?'})`;
  if (/Mcp-Method/i.test(text)) return `${describe('Mcp-Method')} must equal the body's method (${ctx.method})`;
  if (/Mcp-Name/i.test(text)) return `${describe('Mcp-Name')} must equal params.name or params.uri (${ctx.name ?? '?'})`;
  const field = /Mcp-Param-[A-Za-z0-9!#$%&'*+.^_`|~-]+/i.exec(text)?.[0];
  if (field) return `the ${field} header must mirror the tool argument marked x-mcp-header; list the tools again to refresh their schemas`;
  return 'a header disagreed with the body: compare MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* with the JSON body';
}

function hintForStatus(status: number, headers: Headers): string {
  if (status === 401) {
    const auth = headers.get('www-authenticate');
    return `the server needs authorization${auth ? ` (${truncate(auth, 120)})` : ''}: log in or pass an Authorization header`;
  }
  if (status === 403) return 'the server refused: a wrong Origin, missing permission or insufficient scope';
  if (status === 404) return 'no MCP endpoint at that path: check the URL';
  if (status === 405) return 'the endpoint does not accept this HTTP method';
  if (status === 406) return 'the server did not accept the Accept header';
  if (status === 413) return 'the request body is larger than the server accepts';
  if (status === 415) return 'the server wants Content-Type: application/json';
  if (status === 429) return 'the server is rate-limiting: wait and try again';
  if (status >= 500) return 'the server failed: this is an outage on its side, not a protocol mismatch';
  return 'the server answered with an HTTP error and no JSON-RPC message';
}

function resolveUrl(location: string, base: string): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
