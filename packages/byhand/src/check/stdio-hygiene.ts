// stdio hygiene: on stdio, stdout is the protocol. A stray console.log there is a line no client can parse; some
// clients drop it, some close the connection. Every such line is reported as it came; stderr is the place for logs.

import { add, type CheckContext } from './context.js';

export function checkStdio(ctx: CheckContext): void {
  if (ctx.client.transportKind !== 'stdio') return;
  // Every process check started prints its start-up lines: each line once.
  const strays = [...new Set([...ctx.client.strayOutput, ...ctx.strays])];
  add(ctx, strays.length === 0
    ? { area: 'stdio', id: 'stdio.stdout', status: 'pass', title: 'stdout carried only JSON-RPC' }
    : {
      area: 'stdio', id: 'stdio.stdout', status: 'error',
      title: `stdout carried ${strays.length} line(s) that are not JSON-RPC`,
      got: strays.slice(0, 5).map((line) => JSON.stringify(line)).join(', '),
      why: 'on stdio, stdout is the protocol: a client must parse every line as a JSON-RPC message, and may close the connection on one it cannot',
      fix: 'log to stderr (console.error, process.stderr.write), never console.log, in a stdio server',
    });
  const stderr = ctx.client.stderr.trim();
  if (stderr !== '') {
    const lines = stderr.split('\n');
    add(ctx, { area: 'stdio', id: 'stdio.stderr', status: 'pass', title: `stderr (${lines.length} line(s)): ${lines.slice(0, 3).join(' | ').slice(0, 200)}` });
  }
}
