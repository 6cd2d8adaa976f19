// `byhand watch SERVER [URI ...]`: prints what changes, one line per notification on stdout, until
// Ctrl-C (or --count updates). The modern era opens one `subscriptions/listen` stream with the
// filter asked for; the legacy era sends `resources/subscribe` per URI and listens on the session.
// Spec: 2026-07-28 basic/patterns/subscriptions.mdx.

import { StreamClosedError, type Client, type JsonObject, type JsonRpcNotification } from '@byhand/client';
import { createLookingHost, printable } from '@byhand/host';
import { processIO, type CommandIO } from '../shared/io.js';
import { boundDepth } from '../shared/depth-bound.js';
import { booleanFlag, positiveFlag } from '../shared/kit.js';
import { notice } from '../shared/output.js';
import { runServerCommand } from '../shared/server-command.js';
import { interruptOf } from '../shared/signals.js';
import { UsageError } from '../shared/usage-error.js';
import { createUpdateQueue } from './update-queue.js';
import { SPEC } from './spec.js';

export async function watchCommand(args: string[], io: CommandIO = processIO()): Promise<number> {
  return runServerCommand(SPEC, args, io, async ({ parsed, flags, server, words: uris, open }) => {
    const { json } = flags;
    const count = parsed.values.count !== undefined ? positiveFlag(parsed.values, 'count', 1) : Infinity;
    const lists = booleanFlag(parsed.values, 'lists') || uris.length === 0;

    const stop = new AbortController();
    // Lines go out at the pace stdout takes them; a gap is told in place on text output, on stderr under --json.
    const updates = createUpdateQueue(io.stdout, (count) => {
      const gap = `… ${count} update${count === 1 ? '' : 's'} dropped: the reader of stdout fell behind`;
      if (!json) return `${gap}\n`;
      notice(io, gap);
      return undefined;
    });
    let seen = 0;
    // Armed once listening: a server that announces its lists while starting has not changed them.
    const armed = { on: false };
    const print = (notification: JsonRpcNotification) => {
      const line = describe(notification, uris);
      if (line === undefined || stop.signal.aborted || !armed.on) return;
      // A list change says only that a list changed: one waiting says all the later ones would.
      const key = notification.method.endsWith('/list_changed') ? notification.method : undefined;
      updates.push(json ? `${JSON.stringify(boundDepth(notification).value)}\n` : `${printable(line)}\n`, key);
      if (++seen >= count) stop.abort('count');
    };
    // A 2025 server's updates come only on its session's event stream: with none, a watch would wait for nothing.
    // A stdio server whose process exited is gone (told first, and said as such, not as a missing stream).
    let ended: { reason: string; gone: boolean } | undefined;
    const endWith = (gone: boolean) => (reason: string) => {
      ended ??= { reason, gone };
      stop.abort('ended');
    };
    const { client } = await open(`watch ${server.word ?? server.command!.join(' ')}`, { onNotification: print, onGone: endWith(true), host: { ...createLookingHost(), eventsEnded: endWith(false) } });
    // A signal (Ctrl-C) is how a watch usually ends: the command's interrupt (shared/signals.ts).
    const onInterrupt = () => stop.abort('interrupt');
    if (io.interrupt?.aborted) onInterrupt();
    io.interrupt?.addEventListener('abort', onInterrupt, { once: true });
    let endedByServer = false;
    try {
      if (client.traits.changes === 'listen') endedByServer = await listen(client, uris, lists, stop.signal, io, armed);
      else await subscribe(client, uris, stop.signal, io, armed);
    } finally {
      io.interrupt?.removeEventListener('abort', onInterrupt);
    }
    if (endedByServer && seen < count) {
      throw new StreamClosedError(`the server ended the subscription after ${seen} of the ${count} updates asked for (--count)`, 'the server stopped sending; watch it again, or ask for fewer with --count');
    }
    if (ended !== undefined && !io.interrupt?.aborted) {
      throw new StreamClosedError(
        ended.reason,
        ended.gone
          ? 'the server stopped, so nothing more can come: its stderr, quoted here, says why'
          : 'a 2025 server sends its updates on the event stream of its session; without one, its notifications show only while a call runs (byhand call)',
      );
    }
    return interruptOf(io.interrupt)?.exitCode ?? 0;
  });
}

/** The modern era: one subscriptions/listen stream; whether the server ended it (rather than we). */
async function listen(client: Client, uris: string[], lists: boolean, signal: AbortSignal, io: CommandIO, armed: { on: boolean }): Promise<boolean> {
  const filter: JsonObject = { ...(uris.length > 0 ? { resourceSubscriptions: uris } : {}), ...(lists ? LIST_CHANGES : {}) };
  // The acknowledgement's `notifications` is the part of the filter the server agreed to honour
  // (2026-07-28 basic/patterns/subscriptions.mdx): none of it agreed is a watch that can show nothing.
  const refused = new AbortController();
  let refusal: UsageError | undefined;
  const acknowledged = (n: JsonRpcNotification) => {
    if (n.method !== 'notifications/subscriptions/acknowledged') return;
    const agreed = ((n.params ?? {}).notifications ?? filter) as JsonObject;
    const { honoured, dropped } = agreement(filter, agreed);
    if (honoured.length === 0) {
      refusal = new UsageError(`the server agreed to none of what watch asked for (${dropped.join('; ')}): it offers no subscriptions for them (capabilities.resources.subscribe, listChanged)`);
      refused.abort();
      return;
    }
    armed.on = true;
    notice(io, `listening (subscriptions/listen: ${honoured.join('; ')}); Ctrl-C stops`);
    if (dropped.length > 0) notice(io, `the server did not agree to ${dropped.join('; ')}: not watched`);
  };
  try {
    // The stream lasts until we close it: no deadline, only the signal.
    await client.request('subscriptions/listen', { notifications: filter }, { timeoutMs: Infinity, signal: AbortSignal.any([signal, refused.signal]), onNotification: acknowledged });
  } catch (error) {
    if (refusal !== undefined) throw refusal;
    if (!signal.aborted) throw error;
    return false;
  }
  if (refusal !== undefined) throw refusal;
  notice(io, 'the server ended the subscription');
  return true;
}

const LIST_CHANGES = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true } as const;
const LIST_WORDS: Record<keyof typeof LIST_CHANGES, string> = { toolsListChanged: 'tools list changes', promptsListChanged: 'prompts list changes', resourcesListChanged: 'resources list changes' };

/** What was asked, in words, split into what the server's acknowledgement agreed to and what it left out. */
function agreement(asked: JsonObject, agreed: JsonObject): { honoured: string[]; dropped: string[] } {
  const honoured: string[] = [];
  const dropped: string[] = [];
  const kept = new Set(Array.isArray(agreed.resourceSubscriptions) ? agreed.resourceSubscriptions.map(String) : []);
  for (const uri of (asked.resourceSubscriptions as string[] | undefined) ?? []) (kept.has(uri) ? honoured : dropped).push(`updates to ${printable(uri)}`);
  for (const [key, words] of Object.entries(LIST_WORDS)) {
    if (asked[key] === true) (agreed[key] === true ? honoured : dropped).push(words);
  }
  return { honoured, dropped };
}

async function subscribe(client: Client, uris: string[], signal: AbortSignal, io: CommandIO, armed: { on: boolean }): Promise<void> {
  const resources = client.serverCapabilities.resources as JsonObject | undefined;
  if (uris.length > 0 && resources?.subscribe !== true) throw new UsageError('the server does not offer resource subscriptions (capabilities.resources.subscribe); watch it without a URI for its list changes');
  for (const uri of uris) await client.request('resources/subscribe', { uri });
  armed.on = true;
  notice(io, `listening (${uris.length > 0 ? `resources/subscribe for ${uris.join(', ')}, ` : ''}the session's list changes); Ctrl-C stops`);
  await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
  await Promise.all(uris.map((uri) => client.request('resources/unsubscribe', { uri }, { timeoutMs: 2000 }).catch(() => undefined)));
}

/** One line per update; other notifications (logs, the acknowledgement) are not updates. */
function describe(notification: JsonRpcNotification, uris: string[]): string | undefined {
  const p = (notification.params ?? {});
  switch (notification.method) {
    case 'notifications/resources/updated':
      return uris.length === 0 || uris.includes(String(p.uri)) ? `updated ${String(p.uri)}${typeof p.title === 'string' ? ` (${p.title})` : ''}` : undefined;
    case 'notifications/tools/list_changed':
      return 'tools list changed';
    case 'notifications/prompts/list_changed':
      return 'prompts list changed';
    case 'notifications/resources/list_changed':
      return 'resources list changed';
    default:
      return undefined;
  }
}
