// `byhand login SERVER`: OAuth for one HTTP server, the tokens kept in the credentials file for
// later commands (checkpoint, call). The browser comes back to a loopback listener on 127.0.0.1;
// with --headless the URL is printed and the redirect URL pasted back. Nothing secret is printed.

import { createInterface } from 'node:readline';
import { AuthError, createOAuth } from '@byhand/client/auth';
import { credentialsFile, fileStore } from '@byhand/client/auth/file-store';
import { connect } from '@byhand/client';
import { didYouMean } from '../shared/did-you-mean.js';
import { runCommand } from '../shared/command.js';
import { lineWriter, processIO, type CommandIO } from '../shared/io.js';
import { booleanFlag, msFlag, stringFlag, type Parsed } from '../shared/kit.js';
import { configEntries, usable } from '../shared/resolve-server.js';
import { runVerdicts } from '../shared/run-verdicts.js';
import { sourceFlags, type SourceFlags } from '../shared/server-flags.js';
import { UsageError } from '../shared/usage-error.js';
import { openBrowser } from './browser.js';
import { startLoopback } from './loopback.js';
import { SPEC } from './spec.js';

export interface LoginIO extends CommandIO {
  /** Opens the authorization URL; by default the system browser. */
  openBrowser?: (url: string) => void | Promise<void>;
}

interface LoginArgs {
  server: string;
  source: SourceFlags;
  headless: boolean;
  timeoutMs: number;
  scope?: string;
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  force: boolean;
  logout: boolean;
}

function loginArgs(parsed: Parsed): LoginArgs {
  const { values } = parsed;
  const words = [...parsed.positionals, ...(parsed.rest ?? [])];
  if (words.length === 0) throw new UsageError('byhand login: name the SERVER to log in to', true);
  if (words.length > 1) throw new UsageError(`byhand login: one SERVER only (got ${words.map((w) => JSON.stringify(w)).join(' and ')})`, true);
  const optional = (name: string, key: keyof LoginArgs) => {
    const value = stringFlag(values, name);
    return value !== undefined ? { [key]: value } : {};
  };
  return {
    server: words[0],
    source: sourceFlags(values),
    headless: booleanFlag(values, 'headless'),
    timeoutMs: msFlag(values, 'timeout', 300_000),
    force: booleanFlag(values, 'force'),
    logout: booleanFlag(values, 'logout'),
    ...optional('scope', 'scope'),
    ...optional('client-id', 'clientId'),
    ...optional('client-secret', 'clientSecret'),
    ...optional('client-metadata-url', 'clientMetadataUrl'),
  };
}

/** SERVER as an HTTP endpoint: a URL as given, or a config entry's url and headers. */
async function resolveHttpServer(args: LoginArgs, io: CommandIO): Promise<{ url: string; headers: Record<string, string> }> {
  if (/^https?:\/\//i.test(args.server)) {
    try {
      return { url: new URL(args.server).href, headers: {} };
    } catch {
      throw new UsageError(`${JSON.stringify(args.server)} is not a valid URL`);
    }
  }
  const { entries, from } = await configEntries(args.source, io);
  if (entries.length === 0) throw new UsageError(`${JSON.stringify(args.server)} is not a URL: give an http(s) URL, or the name of a server in --config FILE`);
  const found = entries.find((e) => e.name === args.server);
  if (!found) throw new UsageError(`no server ${JSON.stringify(args.server)}${didYouMean(args.server, entries.map((e) => e.name))} in ${from} (it has ${entries.map((e) => e.name).join(', ')})`);
  const entry = await usable(found, io);
  const target = entry.connect;
  if (!target || typeof target !== 'object' || !('url' in target)) {
    throw new UsageError(`${args.server} in ${entry.file} is a stdio server: it takes its credentials from its environment, not from an OAuth login`);
  }
  return { url: target.url, headers: target.headers ?? {} };
}

export async function loginCommand(args: string[], io: LoginIO = processIO()): Promise<number> {
  const say = lineWriter(io.stderr);
  return runCommand(SPEC, args, io, async ({ parsed: commandLine, failure, defer }) => {
    const parsed = loginArgs(commandLine);
    const server = await resolveHttpServer(parsed, io);
    failure.what = `log in to ${server.url}`;
    const store = fileStore(credentialsFile(io.env));
    const name = parsed.server;
    if (parsed.logout) {
      await createOAuth({ store }).forget(server.url);
      say(`byhand: forgot the tokens for ${server.url} (in ${store.where})`);
      return 0;
    }
    const loopback = await startLoopback();
    defer(() => loopback.close());
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
        const arrivals = [loopback.wait(state, waiting)];
        if (parsed.headless) arrivals.push(readPastedRedirect(io.stdin, redirectUri, waiting));
        for (const arrival of arrivals) arrival.catch(() => undefined);
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
          if (waiting.aborted && !signal.aborted) throw new Error(`no redirect arrived within ${parsed.timeoutMs} ms (--timeout)`, { cause: error });
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
    const client = await connect({ url: server.url, headers: server.headers }, { auth: provider, verdicts: runVerdicts(io) });
    defer(() => client.close().catch(() => undefined));
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
  });
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
    // An AuthError reaches the user as it is: the generic browser-step hint would suggest --headless again.
    rl.on('close', () => done(() => reject(new AuthError('browser', 'the input ended before a redirect URL was pasted', 'run it at a terminal and paste the URL the browser ends up at, or pipe that URL in: echo URL | byhand login SERVER --headless'))));
  });
}
