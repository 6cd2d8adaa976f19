// Hints that name the real cause where the library's are general (they fit every runtime, and a browser's fetch says
// nothing of why): the system's failure under a network error (TLS to a plain-http server, a name that does not
// resolve, an untrusted certificate, a connection cut), and an opening request met by HTTP 404 (no MCP endpoint there).

import { McpError, NetworkError, RpcError } from '@byhand/client';

/** The hint for a network error, from the code and words of the failure under it; undefined where nothing more is known. */
export function networkHint(error: NetworkError): string | undefined {
  const errors: unknown[] = [error.cause, (error.cause as { cause?: unknown } | undefined)?.cause];
  const said = errors.filter((e): e is Error & { code?: unknown } => e instanceof Error).map((e) => `${typeof e.code === 'string' ? e.code : ''} ${e.message}`).join(' ');
  const https = /^cannot reach https:/.test(error.message);
  // A TLS client met a server that answered in plain text.
  if (https && /EPROTO|wrong.version.number|packet length too long/i.test(said)) {
    return 'the server answered, but not in TLS: it speaks plain http there; use http:// (or serve it over TLS)';
  }
  if (/ENOTFOUND|EAI_AGAIN/.test(said)) return 'the host name does not resolve: check its spelling, or this machine\'s network and DNS';
  if (/CERT_|certificate|self.signed|UNABLE_TO_VERIFY/i.test(said)) {
    return 'the server\'s TLS certificate is not trusted here (self-signed, expired, or for another name): fix it, or trust its authority with NODE_EXTRA_CA_CERTS';
  }
  // A plain-http client on a TLS port: the server cuts the connection at the first bytes.
  if (/ECONNRESET|socket hang up|other side closed/i.test(said)) {
    return `the connection was cut before any answer: the server may have crashed${https ? '' : ', or it speaks https there (use https://)'}`;
  }
  return undefined;
}

/**
 * A connect's failure as the command tells it. "Method not found" at HTTP 404 to the opening request of both eras
 * (server/discover, then initialize) is a path with no MCP endpoint, not a server of the other era.
 */
export function openingFailure(error: unknown): unknown {
  if (!(error instanceof RpcError) || error.code !== -32601 || error.status !== 404) return error;
  return new McpError(error.code, error.message, 'HTTP 404 to the opening request: there is no MCP endpoint at this path; check the URL (the server\'s message may name the paths it serves)', error.data, { cause: error, kind: error.kind });
}
