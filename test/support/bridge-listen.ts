// `byhand bridge ARGS --listen 0` for the tests of its HTTP face: the real binary on a free loopback port, until it
// prints its URL; `stop` ends it with SIGTERM and waits for it.

import { startByhand, until, type RunningCli } from './cli.js';

export interface Listening {
  cli: RunningCli;
  url: string;
  stop(): Promise<void>;
}

/** `env`: more of the bridge's environment (BYHAND_STATE_SECRET). */
export async function listen(args: string[], env: Record<string, string> = {}): Promise<Listening> {
  // Stopped by `stop`, and run for as long as a conformance suite takes.
  const cli = startByhand(['bridge', ...withListen(args)], { capMs: Infinity, env });
  const stop = async () => {
    if (cli.child.exitCode === null) cli.child.kill('SIGTERM');
    await cli.exit;
  };
  try {
    await until(() => /^http:\/\/\S+\n/.test(cli.stdout()), `the bridge's URL (stderr: ${cli.stderr()})`, 10_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { cli, url: cli.stdout().split('\n')[0], stop };
}

/** --listen goes before a `-- COMMAND`. */
function withListen(args: string[]): string[] {
  const dashes = args.indexOf('--');
  return dashes < 0 ? [...args, '--listen', '0'] : [...args.slice(0, dashes), '--listen', '0', ...args.slice(dashes)];
}
