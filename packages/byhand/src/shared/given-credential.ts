// A credential the user gave (--header, a config's headers, a value typed for an ${input:}) is sent as given, and
// never swapped for a stored login behind the user's back. When the server refuses it, the error says so, where
// it came from and the server's reason; `byhand login` is suggested only to a server that publishes OAuth
// metadata, since on any other the login cannot get a token.

import { McpError, truncate, type HttpAuth } from '@byhand/client';
import { advertisesOAuth, bearerParams } from '@byhand/client/auth';

/** `from`: where the credential came from; `login`: the `byhand login` arguments for this server. */
export function givenCredential(from: string, login: string | undefined): HttpAuth {
  return {
    // Sent in the request's own headers already: nothing to add, so nothing to wait for.
    headers: () => undefined,
    async challenged({ status, headers, url }, signal) {
      const params = bearerParams(headers.get('www-authenticate'));
      const said = [params.error, params.error_description].filter((part) => part !== undefined && part !== '').join(': ');
      const why = said ? `: ${truncate(said, 200)}` : ` with HTTP ${status}`;
      const oauth = login !== undefined && (await advertisesOAuth(url, params.resource_metadata, signal));
      const hint = oauth
        ? `give a credential it accepts, or leave yours out and log in: byhand login ${login}`
        : 'give a credential it accepts (the server publishes no OAuth metadata, so logging in cannot get one)';
      throw new McpError('auth', `the server refused the credential you gave (${from})${why}`, hint, { reason: 'credential-refused' });
    },
  };
}
