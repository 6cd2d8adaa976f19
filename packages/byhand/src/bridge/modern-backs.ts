// The backs of the 2026 face: one per set of input capabilities a caller declares (sampling, sampling.tools,
// elicitation and its modes, roots), opened on first use. A back declares to the server exactly what its callers
// declared, never more: a legacy server reads what it may ask from `initialize` alone, and one that sees a capability
// asks for it (and takes the path that uses it) even for a caller who cannot answer. The sets are few (24 at most), so
// every back opened stays open until the face closes, or until its server's process exits: the next request then
// starts it again.

import type { Client, ClientCapabilities, Host, JsonRpcNotification } from '@byhand/client';
import type { Back, OpenBack } from './legacy-face.js';
import type { PendingCalls } from './pending-calls.js';

/** A back, and what ends when its server can tell nothing more between calls (its events ended, or it is gone). */
export interface ModernBack {
  client: Client;
  /** Names the back to the pending calls it holds. */
  scope: string;
  /** Aborted, with the reason, when the server can send nothing more between calls. */
  quiet: AbortSignal;
}

interface Opened {
  back: Promise<Back>;
  quiet: AbortController;
}

export class ModernBacks {
  private readonly backs = new Map<string, Opened>();

  constructor(
    private readonly open: OpenBack,
    private readonly pending: PendingCalls,
    /** Every back's notifications, with the back's scope (the 2026 face's subscription streams take what they asked of it). */
    private readonly onNotification: (notification: JsonRpcNotification, scope: string) => void,
  ) {}

  /** The back for a caller that declared `declared`. */
  async client(declared: ClientCapabilities): Promise<ModernBack> {
    const scope = keyOf(this.pending.host(declared));
    let opened = this.backs.get(scope);
    if (opened === undefined) {
      const quiet = new AbortController();
      const entry: Opened = (opened = {
        quiet,
        back: this.open(this.pending.host(declared, scope), {
          onNotification: (notification) => this.onNotification(notification, scope),
          onEventsEnded: (reason) => quiet.abort(reason),
          onGone: (reason) => {
            quiet.abort(reason);
            this.forget(scope, entry);
            // What it started goes with it (closing a client reaps the process group).
            void entry.back.then((back) => back.close()).catch(() => undefined);
          },
        }),
      });
      this.backs.set(scope, entry);
      // A back that failed to open is tried again by the next request.
      entry.back.catch(() => this.forget(scope, entry));
    }
    return { client: (await opened.back).client, scope, quiet: opened.quiet.signal };
  }

  async close(): Promise<void> {
    const opened = [...this.backs.values()];
    this.backs.clear();
    await Promise.all(opened.map(async ({ back }) => (await back.catch(() => undefined))?.close().catch(() => undefined)));
  }

  private forget(scope: string, entry: Opened): void {
    if (this.backs.get(scope) === entry) this.backs.delete(scope);
  }
}

/** What a host offers, as a key: its callbacks, sampling with tools, the elicitation modes. */
function keyOf(host: Host): string {
  return JSON.stringify([host.sample !== undefined, host.samplingTools === true, host.elicit !== undefined ? (host.elicitationModes ?? ['form']) : [], host.roots !== undefined]);
}
