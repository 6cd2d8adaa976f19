// `byhand task SERVER get|cancel ID`: a task that `byhand call --detach` left running (the tasks extension,
// SEP-2663, or the 2025-11-25 tasks capability): its status and, once it has ended, its result or error; or asking
// the server to cancel it.

import { RpcError } from '@byhand/client';
import { printable } from '@byhand/host';
import { boundDepth, cutNotice } from '../shared/depth-bound.js';
import { EXIT } from '../shared/exit-codes.js';
import { processIO, type CommandIO } from '../shared/io.js';
import { notice } from '../shared/output.js';
import { runServerCommand } from '../shared/server-command.js';
import { LEGACY_SESSION_NOTE } from '../shared/task-session.js';
import { UsageError } from '../shared/usage-error.js';
import { SPEC } from './spec.js';

export async function taskCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runServerCommand(SPEC, args, io, async ({ flags, server, words, open }) => {
    const { json } = flags;
    const [action, taskId, ...extra] = words;
    if (action !== 'get' && action !== 'cancel') throw new UsageError(`byhand task: say get or cancel${action ? `, not ${JSON.stringify(action)}` : ''}`, true);
    if (taskId === undefined || extra.length > 0) throw new UsageError(`byhand task ${action} takes one task ID`, true);
    const { client } = await open(`task ${action} ${taskId} on ${server.word ?? server.command!.join(' ')}`);
    if (action === 'cancel') {
      await client.cancelTask(taskId);
      io.stdout.write(json ? `${JSON.stringify({ ok: true, taskId, cancelled: true })}\n` : `asked the server to cancel task ${printable(taskId)}\n`);
      return 0;
    }
    const bounded = boundDepth(await client.getTask(taskId));
    const cut = cutNotice('the task', bounded);
    if (cut) notice(io, cut);
    const task = bounded.value;
    if (json) io.stdout.write(`${JSON.stringify(task)}\n`);
    else {
      const lines = [`task ${printable(task.taskId)}: ${task.status}${task.statusMessage ? ` (${printable(task.statusMessage)})` : ''}`];
      if (task.result !== undefined) lines.push(printable(JSON.stringify(task.result, null, 2)));
      if (task.error !== undefined) lines.push(`error ${task.error.code}: ${printable(task.error.message)}`);
      if (task.inputRequests !== undefined) lines.push(`waiting for input: ${Object.keys(task.inputRequests).map(printable).join(', ')} (a detached task's questions are answered by a client that follows it)`);
      io.stdout.write(`${lines.join('\n')}\n`);
    }
    return task.status === 'failed' ? EXIT.toolError : task.status === 'cancelled' ? EXIT.failed : EXIT.ok;
  }, (error, open) => {
    if (open?.client.traits.sessionful === true && error instanceof RpcError && error.code === -32602) notice(io, LEGACY_SESSION_NOTE);
  });
}
