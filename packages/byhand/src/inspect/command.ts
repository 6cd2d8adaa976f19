// `byhand inspect [SERVER]`: the page (page/), its backend (server.ts) and one server explored at a time (session.ts).
// The backend is byhand's own client, so the page shows what every command does on the wire, the server's
// credential never leaves this process, and a stdio server is started here, only when the user named it (on the
// command line, or as a config entry under the trust rules every command follows). docs/inspect.md has the design.

import type { JsonObject } from '@byhand/client';
import { openBrowser } from '../login/browser.js';
import { promptArguments, coerceToolArguments } from '../call/coerce.js';
import { runCommand } from '../shared/command.js';
import { embeddedNames } from '../shared/embedded.js';
import { processIO, type CommandIO } from '../shared/io.js';
import { booleanFlag, positiveFlag, stringFlag } from '../shared/kit.js';
import { notice } from '../shared/output.js';
import { configEntries, httpUrl, resolveServer, type ServerWord } from '../shared/resolve-server.js';
import { connectFlags, sourceFlags, type ConnectFlags, type SourceFlags } from '../shared/server-flags.js';
import { UsageError } from '../shared/usage-error.js';
import { EventLog } from './events.js';
import { callLine, curlLine } from './exports.js';
import type { Answer } from './questions.js';
import { ApiError, startInspectServer, type Route } from './server.js';
import { describeError, RefusedError, Session } from './session.js';
import { SPEC } from './spec.js';

export async function inspectCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runCommand(SPEC, args, io, async ({ parsed, failure, defer }) => {
    const source = sourceFlags(parsed.values);
    const flags = connectFlags(parsed.values);
    const port = stringFlag(parsed.values, 'port') === undefined ? 0 : positiveFlag(parsed.values, 'port', 0);
    const given: ServerWord | undefined = parsed.rest !== undefined ? { command: parsed.rest } : parsed.positionals[0] !== undefined ? { word: parsed.positionals[0] } : undefined;
    if (parsed.positionals.length > (parsed.rest !== undefined ? 0 : 1)) throw new UsageError(`byhand inspect takes one SERVER (got ${parsed.positionals.join(' ')})`, true);
    const inspector = new Inspector(io, source, flags);
    defer(() => inspector.close());
    if (given !== undefined) {
      failure.what = `byhand inspect ${given.word ?? given.command!.join(' ')}`;
      await inspector.connect(given);
    }
    const server = await startInspectServer({ port, log: inspector.log, routes: inspector.routes(), onerror: (error) => notice(io, `inspect: ${error.message}`) });
    defer(() => server.close());
    io.stdout.write(`${server.url}\n`);
    notice(io, `the page is at the URL above (127.0.0.1 only; the token in it is new at each launch); Ctrl-C stops it`);
    if (!booleanFlag(parsed.values, 'no-open')) openBrowser(server.url, io.env);
    await new Promise<void>((resolve) => {
      if (io.interrupt === undefined || io.interrupt.aborted) return resolve();
      io.interrupt.addEventListener('abort', () => resolve(), { once: true });
    });
    return 0;
  });
}

/** The backend's state: the server explored, and what the page is told. */
class Inspector {
  readonly log = new EventLog();
  private session: Session | undefined;

  constructor(private readonly io: CommandIO, private readonly source: SourceFlags, private readonly flags: ConnectFlags) {}

  async connect(spec: ServerWord): Promise<Session> {
    const server = await resolveServer(spec, this.source, this.io);
    const session = new Session(server, spec.word ?? spec.command!.join(' '), this.flags, this.io, this.log);
    try {
      await session.open();
    } catch (error) {
      await session.close();
      throw error;
    }
    await this.session?.close();
    this.session = session;
    notice(this.io, `inspecting ${server.describe}`);
    this.log.push('connected', { server: server.describe });
    return session;
  }

  async close(): Promise<void> {
    await this.session?.close();
  }

  private current(): Session {
    if (this.session === undefined) throw new ApiError(409, 'no server is connected', 'pick one in the Connection panel');
    return this.session;
  }

  routes(): Record<string, Route> {
    const s = () => this.current();
    return {
      state: async () => ({ connection: this.session?.connection() ?? null, servers: await this.servers() }),
      connect: async ({ server }) => {
        const word = typeof server === 'string' ? server.trim() : '';
        // A command line is started only when the user gave it to byhand inspect: the page names a listed server or a
        // URL, never a word that --transport stdio would run.
        if (!/^https?:\/\/\S+$/i.test(word) && !(await this.servers()).includes(word)) {
          throw new ApiError(400, `${JSON.stringify(word)} is neither a server in the list nor an http(s) URL`, 'a stdio command line is given on the command line: byhand inspect -- COMMAND');
        }
        return guarded(async () => (await this.connect({ word })).connection());
      },
      lists: () => guarded(() => s().lists()),
      call: ({ name, pairs }) => guarded(async () => {
        const session = s();
        const tool = (await session.listedTools()).find((t) => t.name === name);
        if (tool === undefined) throw new ApiError(400, `no tool ${JSON.stringify(name)} on this server`);
        return session.callTool(tool.name, coerceToolArguments(tool, strings(pairs)), 'page');
      }),
      read: ({ uri }) => guarded(() => s().read(String(uri))),
      prompt: ({ name, pairs }) => guarded(async () => {
        const prompt = (await s().listedPrompts()).find((p) => p.name === name);
        if (prompt === undefined) throw new ApiError(400, `no prompt ${JSON.stringify(name)} on this server`);
        return s().prompt(prompt.name, promptArguments(prompt, strings(pairs)));
      }),
      complete: ({ ref, argument, context }) => guarded(() => s().client.complete(ref as never, argument as never, context as never)),
      answer: async ({ id, answer }) => {
        if (!s().questions.answer(String(id), answer as Answer)) throw new ApiError(410, 'that question is no longer waiting: answered, or its call was given up');
        return {};
      },
      roots: async ({ roots }) => {
        const session = s();
        if (Array.isArray(roots)) session.questions.roots = roots.filter((r): r is { uri: string; name?: string } => typeof (r as { uri?: unknown }).uri === 'string').map((r) => ({ uri: r.uri, ...(r.name ? { name: r.name } : {}) }));
        return { roots: session.questions.roots };
      },
      history: async () => ({ entries: s().history, dropped: s().historyDropped }),
      export: async ({ index, as }) => {
        const session = s();
        const entry = session.history[Number(index)];
        if (entry === undefined) throw new ApiError(404, `no history entry ${String(index)}`);
        if (as === 'curl') {
          try {
            return { line: curlLine(entry, session.client, httpUrl(session.server.target)) };
          } catch (error) {
            throw new ApiError(400, (error as Error).message);
          }
        }
        return { line: callLine(entry, session.word) };
      },
      check: () => guarded(() => this.check()),
      'app/view': ({ name }) => guarded(() => s().view(String(name))),
      'app/call': ({ name, arguments: args }) => guarded(() => s().callTool(String(name), (args ?? {}) as JsonObject, 'app')),
      'app/read': ({ uri }) => guarded(() => s().read(String(uri), 'app')),
      'task/cancel': ({ taskId }) => guarded(async () => (await s().client.cancelTask(String(taskId)), {})),
    };
  }

  /** The servers the page may pick: the configs' entries (a folder's own once trusted) and the bundled toolboxes. */
  private async servers(): Promise<string[]> {
    const names: string[] = [];
    if (!this.source.embedded) {
      try {
        names.push(...(await configEntries(this.source, this.io)).entries.filter((e) => !e.disabled).map((e) => e.name));
      } catch (error) {
        notice(this.io, `inspect: the configs could not be read: ${(error as Error).message}`);
      }
    }
    return [...new Set([...names, ...embeddedNames()])];
  }

  /** byhand check on the server explored, as `byhand check SERVER --json` reports it. */
  private async check(): Promise<unknown> {
    const session = this.current();
    const { checkCommand } = await import('../check/command.js');
    let out = '';
    const capture = { write: (chunk: string | Uint8Array) => ((out += String(chunk)), true) } as unknown as CommandIO['stdout'];
    const quiet = { write: () => true } as unknown as CommandIO['stderr'];
    const words = session.server.target !== undefined && typeof session.server.target === 'object' && 'command' in session.server.target
      ? ['--', session.server.target.command, ...(session.server.target.args ?? [])]
      : [session.word];
    await checkCommand([...words, '--json'], { ...this.io, stdout: capture, stderr: quiet });
    return JSON.parse(out.trim().split('\n').pop() ?? '{}') as unknown;
  }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** A failure as the page is told it: the page's mistake (400), a refusal (403), else the server's (502). */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const { message, hint } = describeError(error);
    const status = error instanceof RefusedError ? 403 : error instanceof UsageError ? 400 : 502;
    throw new ApiError(status, message, hint);
  }
}
