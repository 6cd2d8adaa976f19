// The byhand command. Each subcommand is imported only when used, so `byhand checkpoint` does not
// pay for the model provider SDK and `byhand call` does not pay for the servers it does not start.

import { createRequire } from 'node:module';
import { toolboxNames } from '@byhand/servers/registry';
import { didYouMean } from './shared/did-you-mean.js';
import { processIO, type CommandIO } from './shared/io.js';
import type { CommandSpec } from './shared/kit.js';

interface Command {
  synopsis: string;
  about: string;
  /** A command that talks to servers: a signal stops its work and closes what it opened (shared/signals.ts). */
  stoppable?: true;
  /** Its stdout is a protocol, not a report: left as the server wrote it (shared/secret-values.ts masks the rest). */
  protocolOut?: true;
  /** It reads no config, so its output can hold no value a config took from a variable: nothing to mask, nothing loaded for it. */
  readsNoConfig?: true;
  /** Its flags, for the completion script; loaded only for that. */
  spec?: () => Promise<CommandSpec>;
  run(args: string[], io: CommandIO): Promise<number>;
}

/** The one list of commands: help, dispatch, signals and completion all read it. */
const COMMANDS: Record<string, Command> = {
  checkpoint: {
    synopsis: 'checkpoint [URL|NAME ...] [-- CMD]', about: 'probe servers: era, can it ask you to think, counts, timings', stoppable: true,
    spec: async () => (await import('./checkpoint/spec.js')).SPEC,
    run: async (a, io) => (await import('./checkpoint/command.js')).checkpointCommand(a, io),
  },
  list: {
    synopsis: 'list SERVER [tools|resources|templates|prompts]', about: 'what a server offers, with schemas', stoppable: true,
    spec: async () => (await import('./list/spec.js')).SPEC,
    run: async (a, io) => (await import('./list/command.js')).listCommand(a, io),
  },
  check: {
    synopsis: 'check SERVER [--call TOOL] [--strict]', about: "check a server you wrote: era, headers, capability gate, MRTR traps, schemas", stoppable: true,
    spec: async () => (await import('./check/spec.js')).SPEC,
    run: async (a, io) => (await import('./check/command.js')).checkCommand(a, io),
  },
  call: {
    synopsis: 'call SERVER TOOL [key=value ...]', about: 'call a tool, running the multi round-trip through the host', stoppable: true,
    spec: async () => (await import('./call/spec.js')).callSpec('call'),
    run: async (a, io) => (await import('./call/command.js')).callCommand('call', a, io),
  },
  read: {
    synopsis: 'read SERVER URI', about: 'read a resource', stoppable: true,
    spec: async () => (await import('./call/spec.js')).callSpec('read'),
    run: async (a, io) => (await import('./call/command.js')).callCommand('read', a, io),
  },
  prompt: {
    synopsis: 'prompt SERVER NAME [key=value ...]', about: 'get a prompt', stoppable: true,
    spec: async () => (await import('./call/spec.js')).callSpec('prompt'),
    run: async (a, io) => (await import('./call/command.js')).callCommand('prompt', a, io),
  },
  complete: {
    synopsis: 'complete SERVER prompt|resource NAME ARG [VALUE]', about: 'the values a server suggests for an argument', stoppable: true,
    spec: async () => (await import('./complete/spec.js')).SPEC,
    run: async (a, io) => (await import('./complete/command.js')).completeCommand(a, io),
  },
  task: {
    synopsis: 'task SERVER get|cancel ID', about: "a detached task's status and result, or cancel it", stoppable: true,
    spec: async () => (await import('./task/spec.js')).SPEC,
    run: async (a, io) => (await import('./task/command.js')).taskCommand(a, io),
  },
  watch: {
    synopsis: 'watch SERVER [URI ...]', about: 'print resource updates and list changes until Ctrl-C', stoppable: true,
    spec: async () => (await import('./watch/spec.js')).SPEC,
    run: async (a, io) => (await import('./watch/command.js')).watchCommand(a, io),
  },
  bridge: {
    synopsis: 'bridge SERVER [--listen [HOST:]PORT]', about: 'let any host use SERVER, whatever era each speaks', stoppable: true, protocolOut: true,
    spec: async () => (await import('./bridge/spec.js')).SPEC,
    run: async (a, io) => (await import('./bridge/command.js')).bridgeCommand(a, io),
  },
  inspect: {
    synopsis: 'inspect [SERVER] [--port N] [--no-open]', about: 'explore a server in your browser: the wire of both eras, MRTR rounds, MCP Apps', stoppable: true,
    spec: async () => (await import('./inspect/spec.js')).SPEC,
    run: async (a, io) => (await import('./inspect/command.js')).inspectCommand(a, io),
  },
  demo: {
    synopsis: 'demo', about: 'the finding, end to end, against the embedded Probe',
    spec: async () => (await import('./call/demo-spec.js')).SPEC,
    run: async (a, io) => (await import('./call/demo.js')).demoCommand(a, io),
  },
  login: {
    synopsis: 'login SERVER', about: 'OAuth login; the tokens are kept for the other commands',
    spec: async () => (await import('./login/spec.js')).SPEC,
    run: async (a, io) => (await import('./login/command.js')).loginCommand(a, io),
  },
  trust: {
    synopsis: 'trust [DIR] | --revoke [DIR] | --list', about: "let a folder's own MCP config run (.mcp.json, .vscode/mcp.json)",
    spec: async () => (await import('./trust/spec.js')).SPEC,
    run: async (a, io) => (await import('./trust/command.js')).trustCommand(a, io),
  },
  doctor: {
    synopsis: 'doctor', about: 'which provider, model, configs and logins byhand would use, and why',
    spec: async () => (await import('./doctor/spec.js')).SPEC,
    run: async (a, io) => (await import('./doctor/command.js')).doctorCommand(a, io),
  },
  completion: { synopsis: 'completion bash|zsh|fish', about: 'a shell completion script (eval "$(byhand completion bash)")', readsNoConfig: true, run: (a, io) => completion(a, io) },
  serve: {
    synopsis: 'serve [--port N] [--host H] [--db FILE|URL] [--allow-host NAME]', about: 'serve the toolboxes on loopback',
    spec: async () => (await import('./serve/spec.js')).SPEC,
    run: async (a, io) => (await import('./serve/command.js')).serveCommand(a, io),
  },
};

const COMPLETION_HELP = `usage: byhand completion bash|zsh|fish

Prints a script that completes byhand's commands and each command's flags. Load it from your shell's startup file:
  bash (~/.bashrc), zsh (~/.zshrc):  eval "$(byhand completion bash)"   (zsh: completion zsh)
  fish (config.fish):                byhand completion fish | source
`;

/** The specs come from the commands themselves, loaded only for this. */
async function completion(args: string[], io: CommandIO): Promise<number> {
  if (args[0] === '-h' || args[0] === '--help') {
    io.stdout.write(COMPLETION_HELP);
    return 0;
  }
  const specs = await Promise.all(Object.values(COMMANDS).flatMap((command) => (command.spec ? [command.spec()] : [])));
  const { completionScript } = await import('./shared/shell-completion.js');
  try {
    io.stdout.write(completionScript(args[0] ?? '', specs, Object.keys(COMMANDS)));
    return 0;
  } catch (error) {
    io.stderr.write(`✗ ${(error as Error).message}\n`);
    return 2;
  }
}

export function usage(exitCodes: string): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.synopsis.length));
  return [
    'byhand: a hand-written Model Context Protocol toolkit for both eras',
    '',
    'usage: byhand COMMAND [options]',
    '',
    ...Object.values(COMMANDS).map((c) => `  byhand ${c.synopsis.padEnd(width)}  ${c.about}`),
    '',
    'SERVER is a name in your MCP config (found in the project or your home folder, or --config FILE),',
    `a bundled toolbox (${toolboxNames()}), an http(s) URL, or a command line after --.`,
    '`byhand COMMAND --help` shows every option with its default. -v, --version prints the version.',
    '',
    exitCodes,
  ].join('\n');
}

function version(): string {
  // By the package's own name, so it is found the same from src/, dist/ and the bundle in dist/bin/.
  const pkg = createRequire(import.meta.url)('byhand/package.json') as { version: string };
  return pkg.version;
}

/** The command's streams with the values its configs took from variables left out (shared/secret-values.ts). */
async function masked(command: Command, io: CommandIO): Promise<CommandIO> {
  if (command.readsNoConfig === true) return io;
  const { secretsMasked } = await import('./shared/secret-values.js');
  return secretsMasked(io, { stdout: command.protocolOut !== true });
}

async function stoppable(command: Command, args: string[]): Promise<number> {
  const { trapSignals } = await import('./shared/signals.js');
  const trap = trapSignals();
  try {
    const code = await command.run(args, await masked(command, { ...processIO(), interrupt: trap.signal }));
    return trap.exitCode ?? code;
  } finally {
    trap.dispose();
  }
}

/**
 * Runs one command line. Without `io`, with the process's own streams, folder and environment, and the commands that
 * talk to servers stop at a signal; a caller that gives `io` (a test running byhand in its own process) stops a
 * command through `io.interrupt`, and the process's signals are left alone.
 */
export async function main(args: string[], io?: CommandIO): Promise<number> {
  const [command, ...rest] = args;
  if (command !== undefined && Object.hasOwn(COMMANDS, command)) {
    const chosen = COMMANDS[command];
    return io === undefined && chosen.stoppable ? stoppable(chosen, rest) : chosen.run(rest, await masked(chosen, io ?? processIO()));
  }
  const { stdout, stderr } = io ?? process;
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      stdout.write(`${usage((await import('./shared/exit-codes-text.js')).EXIT_CODES_TEXT)}\n`);
      return command === undefined ? 2 : 0;
    case '--version':
    case '-v':
      stdout.write(`byhand ${version()}\n`);
      return 0;
    default:
      stderr.write(`✗ unknown command ${JSON.stringify(command)}${didYouMean(command, Object.keys(COMMANDS))}\n  hint: byhand --help lists the commands\n`);
      return 2;
  }
}
