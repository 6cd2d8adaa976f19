// The command line of `byhand login`: its flags and help, apart from the command, so completion and help load
// only this.

import type { CommandSpec } from '../shared/kit.js';
import { SOURCE_FLAGS } from '../shared/server-flags.js';

export const SPEC: CommandSpec = {
  name: 'login',
  synopsis: ['byhand login SERVER [options]'],
  about: 'OAuth login to an HTTP server; the tokens are kept for checkpoint, call, list and watch, and never printed.',
  flags: {
    config: SOURCE_FLAGS.config,
    input: SOURCE_FLAGS.input,
    headless: { type: 'boolean', help: 'print the URL and read the redirect URL pasted back (no browser here)' },
    timeout: { type: 'string', arg: 'MS', help: 'how long to wait for the browser, in milliseconds', default: '300000' },
    scope: { type: 'string', arg: '"A B"', help: 'scopes to ask for beyond what the server asks' },
    'client-id': { type: 'string', arg: 'ID', help: 'a client registered with the authorization server (default: registration)' },
    'client-secret': { type: 'string', arg: 'SECRET', help: 'its secret (or set BYHAND_CLIENT_SECRET)' },
    'client-metadata-url': { type: 'string', arg: 'URL', help: "byhand's Client ID Metadata Document (or BYHAND_CLIENT_METADATA_URL)" },
    force: { type: 'boolean', help: 'log in again even when a stored token still works' },
    logout: { type: 'boolean', help: 'forget the stored tokens for SERVER' },
  },
  notes: `SERVER is an http(s) URL, or a name in the config (see --config).
Tokens are kept in $BYHAND_CONFIG_DIR, $XDG_CONFIG_HOME/byhand or ~/.config/byhand (credentials.json, mode 0600).`,
};
