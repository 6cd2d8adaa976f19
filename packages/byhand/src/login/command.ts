// `byhand login SERVER`: OAuth for one HTTP server, the tokens kept in the credentials file for
// later commands (checkpoint, call). The browser comes back to a loopback listener on 127.0.0.1;
// with --headless the URL is printed and the redirect URL pasted back. Nothing secret is printed.

import { createInterface } from 'node:readline';
import { AuthError, createOAuth } from '@byhand/client/auth';
import { credentialsFile, fileStore } from '@byhand/client/auth/file-store';
import { connect, McpError, type Client } from '@byhand/client';
import { ConfigError, loadConfig } from '../checkpoint/config.js';
import { lineWriter, processIO, type CommandIO } from '../call/io.js';
import { UsageError } from '../call/usage.js';
import { openBrowser } from './browser.js';
import { startLoopback, type Loopback } from './loopback.js';

export const LOGIN_USAGE = `usage: byhand login SERVER [options]

SERVER is an http(s) URL, or a name in --config FILE.

  --config FILE             the mcpServers / VS Code servers file SERVER is named in
  --headless                print the URL and read the redirect URL pasted back (no browser here)
  --timeout SECONDS         how long to wait for the browser (default 300)
  --scope "A B"             scopes to ask for beyond what the server asks
  --client-id ID            a client registered with the authorization server (else registration)
  --client-secret SECRET    its secret (or set BYHAND_CLIENT_SECRET)
  --client-metadata-url URL byhand's Client ID Metadata Document (or BYHAND_CLIENT_METADATA_URL)
  --force                   log in again even when a stored token still works
  --logout                  forget the stored tokens for SERVER

Tokens are kept in $BYHAND_CONFIG_DIR, $XDG_CONFIG_HOME/byhand or ~/.config/byhand (credentials.json, mode 0600).`;

export interface LoginIO extends CommandIO {
  /** Opens the authorization URL; by default the system browser. */
  openBrowser?: (url: string) => void | Promise<void>;
}

interface LoginArgs {
  server: string;
  config?: string;
  headless: boolean;
  timeoutMs: number;
  scope?: string;
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  force: boolean;
  logout: boolean;
}

export function parseLoginArgs(args: string[]): LoginArgs | 'help' {
  const out: Partial<LoginArgs> & { headless: boolean; force: boolean; logout: boolean; timeoutMs: number } = { headless: false, force: false, logout: false, timeoutMs: 300_000 };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case '-h':
      case '--help':
        return 'help';
      case '--headless':
        out.headless = true;
        break;
      case '--force':
        out.force = true;
        break;
      case '--logout':
        out.logout = true;
        break;
      case '--config':
        out.config = value();
        break;
      case '--scope':
        out.scope = value();
        break;
      case '--client-id':
        out.clientId = value();
        break;
      case '--client-secret':
        out.clientSecret = value();
        break;
      case '--client-metadata-url':
        out.clientMetadataUrl = value();
        break;
      case '--timeout': {
        const seconds = Number(value());
        if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError('--timeout needs a positive number of seconds');
        out.timeoutMs = seconds * 1000;
        break;
      }
      default:
        if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
        if (out.server !== undefined) throw new UsageError(`one SERVER only (got ${JSON.stringify(out.server)} and ${JSON.stringify(arg)})`);
        out.server = arg;
    }
  }
  if (out.server === undefined) throw new UsageError('name the SERVER to log in to');
  return out as LoginArgs;
}

/** SERVER as an HTTP endpoint: a URL as given, or a config entry's url and headers. */
function resolveHttpServer(args: LoginArgs, env: CommandIO['env']): { url: string; headers: Record<string, string> } {
  if (/^https?:\/\//i.test(args.server)) {
    try {
      return { url: new URL(args.server).href, headers: {} };
    } catch {
      throw new UsageError(`${JSON.stringify(args.server)} is not a valid URL`);
    }
  }
  if (args.config === undefined) throw new UsageError(`${JSON.stringify(args.server)} is not a URL: give an http(s) URL, or the name of a server in --config FILE`);
  let entries;
  try {
    entries = loadConfig(args.config, env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const entry = entries.find((e) => e.name === args.server);
  if (!entry) throw new UsageError(`no server ${JSON.stringify(args.server)} in ${args.config} (it has ${entries.map((e) => e.name).join(', ')})`);
  if (entry.error !== undefined) throw new UsageError(entry.error);
  const target = entry.connect;
  if (!target || typeof target !== 'object' || !('url' in target)) {
    throw new UsageError(`${args.server} in ${args.config} is a stdio server: it takes its credentials from its environment, not from an OAuth login`);
  }
  return { url: target.url, headers: target.headers ?? {} };
}

export async function loginCommand(args: string[], io: LoginIO = processIO()): Promise<number> {
  const say = lineWriter(io.stderr);
  let parsed: LoginArgs;
  let server: { url: string; headers: Record<string, string> };
  try {
    const result = parseLoginArgs(args);
    if (result === 'help') {
      io.stdout.write(`${LOGIN_USAGE}\n`);
      return 0;
    }
    parsed = result;
    server = resolveHttpServer(parsed, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(`byhand login: ${error.message}`);
    say();
    say(LOGIN_USAGE);
    return 2;
  }

  const store = fileStore(credentialsFile(io.env));
  const name = parsed.server;
  let loopback: Loopback | undefined;
  let client: Client | undefined;
  try {
    if (parsed.logout) {
      await createOAuth({ store }).forget(server.url);
      say(`byhand: forgot the tokens for ${server.url} (in ${store.where})`);
      return 0;
    }
    loopback = await startLoopback();
    const redirectUri = loopback.redirectUri;
    let authorized = false;
    const clientSecret = parsed.clientSecret ?? io.env.BYHAND_CLIENT_SECRET;
    const clientMetadataUrl = parsed.clientMetadataUrl ?? io.env.BYHAND_CLIENT_METADATA_URL;
    const provider = createOAuth({
      store,
      redirectUri,
      authorize: async (url, signal) => {
        authorized = true;
        const waiting = AbortSignal.any([signal, AbortSignal.timeout(parsed.timeoutMs)]);
        say(parsed.headless ? 'byhand: open this URL in a browser, log in, then paste here the URL the browser ends up at:' : 'byhand: log in in the browser; if it did not open, open this URL:');
        say(url.href);
        const state = url.searchParams.get('state');
        const arrivals = [loopback!.wait(state, waiting)];
        if (parsed.headless) arrivals.push(readPastedRedirect(io.stdin, redirectUri, waiting));
        arrivals.forEach((p) => p.catch(() => undefined));
        // Listening first, then the browser: a quick one must find the listener waiting.
        if (!parsed.headless) {
          try {
            await (io.openBrowser ?? ((u: string) => openBrowser(u, io.env)))(url.href);
          } catch {
            // best effort: the URL is printed above
          }
        }
        try {
          return await Promise.race(arrivals);
        } catch (error) {
          if (waiting.aborted && !signal.aborted) throw new Error(`no redirect arrived within ${parsed.timeoutMs / 1000} s`);
          throw error;
        }
      },
      ...(parsed.clientId ? { clientId: parsed.clientId } : {}),
      ...(clientSecret ? { clientSecret } : {}),
      ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
      ...(parsed.scope ? { scope: parsed.scope } : {}),
      loginHint: () => `run \`byhand login ${name}\``,
      onEvent: (text) => say(`byhand: ${text}`),
    });
    if (parsed.force) await provider.forget(server.url);
    client = await connect({ url: server.url, headers: server.headers }, { auth: provider });
    // A cached era skips the probe: one real request makes sure the server has seen the token.
    await client.listTools().catch((error: unknown) => {
      if (error instanceof AuthError) throw error;
    });
    const status = await provider.status(server.url);
    if (!status) {
      say(`byhand: ${server.url} answered without asking for authorization: there is nothing to log in to`);
      return 0;
    }
    const expiry = status.expiresAt !== undefined ? `, expires ${new Date(status.expiresAt).toISOString()}` : '';
    const refresh = status.refreshable ? ', refreshable' : '';
    say(authorized
      ? `✓ logged in to ${server.url} (authorization server ${status.issuer}${expiry}${refresh}); saved in ${store.where}`
      : `✓ already logged in to ${server.url} (authorization server ${status.issuer}${expiry}${refresh}); --force logs in again`);
    return 0;
  } catch (error) {
    if (error instanceof McpError) {
      say(`✗ ${error.message}`);
      say(`  hint: ${error.hint}`);
      return 1;
    }
    say(`✗ ${(error as Error).message}`);
    return 1;
  } finally {
    await client?.close().catch(() => undefined);
    await loopback?.close();
  }
}

/** One pasted line: the whole redirect URL, or just its query. Not echoed back. */
function readPastedRedirect(input: CommandIO['stdin'], redirectUri: string, signal: AbortSignal): Promise<URL> {
  return new Promise<URL>((resolve, reject) => {
    const rl = createInterface({ input, terminal: false });
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      fn();
      rl.close();
    };
    const onAbort = () => done(() => reject(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    rl.on('line', (line) => {
      const text = line.trim();
      if (!text) return;
      done(() => {
        try {
          resolve(/^https?:\/\//i.test(text) ? new URL(text) : new URL(`${redirectUri}?${text.replace(/^\?/, '')}`));
        } catch {
          reject(new Error('the pasted text is not the redirect URL'));
        }
      });
    });
    rl.on('close', () => done(() => reject(new Error('the input ended before a redirect URL was pasted'))));
  });
}
