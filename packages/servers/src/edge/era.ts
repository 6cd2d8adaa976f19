// Which era a POST is, decided without the SDK when the answer is certain. isLegacyRequest classifies the body, and
// createMcpHandler classifies it again when the request reaches it (classifyEntryRequest, @modelcontextprotocol/server
// dist/index.mjs): for a modern call that was 5% of a one-round call's server CPU (the Everything toolbox, 64
// concurrent). A JSON-RPC request, other than initialize, whose params._meta carries the protocol-version key is
// never legacy: the SDK routes every such request to the modern path, whose validation answers it if the rest of the
// envelope is wrong (isLegacyRequest's documentation, dist/index.mjs; hasEnvelopeClaim, dist/src-*.mjs). Anything
// else still goes through isLegacyRequest.

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export function surelyModern(body: unknown): boolean {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0') return false;
  if (typeof body.method !== 'string' || body.method === 'initialize') return false;
  if (typeof body.id !== 'string' && typeof body.id !== 'number') return false;
  if ('result' in body || 'error' in body) return false;
  const params = body.params;
  return isPlainObject(params) && isPlainObject(params._meta) && PROTOCOL_VERSION_KEY in params._meta;
}
