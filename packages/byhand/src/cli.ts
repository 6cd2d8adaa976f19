// The byhand command. Each subcommand is imported only when used, so `byhand checkpoint` does not
// pay for the model provider SDK and `byhand call` does not pay for the servers it does not start.

const USAGE = `byhand: a hand-written Model Context Protocol toolkit for both eras

usage:
  byhand checkpoint [--config FILE] [--json] [--trace]   probe servers: era, can it ask you to think, counts
  byhand call SERVER TOOL [key=value ...]                call a tool, running the multi round-trip through the host
  byhand read SERVER URI                                 read a resource
  byhand prompt SERVER NAME [key=value ...]              get a prompt
  byhand demo                                            the finding, end to end, against the embedded Probe
  byhand login SERVER [--config FILE] [--headless]       OAuth login; the tokens are kept for checkpoint and call
  byhand serve [--port N] [--host H] [--db FILE]         serve the toolboxes on loopback

With no --config, checkpoint and call use the embedded toolboxes (kitchen, cookie-jar, probe, everything).`;

export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'checkpoint':
      return (await import('./checkpoint/command.js')).checkpointCommand(rest);
    case 'serve':
      return (await import('@byhand/servers/node')).serveCommand(rest);
    case 'call':
    case 'read':
    case 'prompt':
      return (await import('./call/command.js')).callCommand(command, rest);
    case 'login':
      return (await import('./login/command.js')).loginCommand(rest);
    case 'demo':
      return (await import('./call/demo.js')).demoCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    case '--version':
      process.stdout.write('byhand 0.1.0\n');
      return 0;
    default:
      process.stderr.write(`byhand: unknown command '${command}'\n\n${USAGE}\n`);
      return 2;
  }
}
