// The backs of the 2026 face: one per set of input capabilities a caller declares (sampling, sampling.tools,
// elicitation and its modes, roots), opened on first use. A back declares to the server exactly what its callers
// declared, never more: a legacy server reads what it may ask from `initialize` alone, and one that sees a capability
// asks for it (and takes the path that uses it) even for a caller who cannot answer. The sets are few (24 at most), so
// every back opened stays open until the face closes.

import type { Client, ClientCapabilities, Host, JsonRpcNotification } from '@byhand/client';
import type { Back, OpenBack } from './legacy-face.js';
import type { PendingCalls } from './pending-calls.js';

export class ModernBacks {
  private readonly backs = new Map<string, Promise<Back>>();

  constructor(
    private readonly open: OpenBack,
    private readonly pending: PendingCalls,
    /** Every back's notifications (the 2026 face's subscription streams take what they asked for). */
    private readonly onNotification: (notification: JsonRpcNotification) => void,
  ) {}

  /** The back for a caller that declared `declared`; `scope` names it to the pending calls it holds. */
  async client(declared: ClientCapabilities): Promise<{ client: Client; scope: string }> {
    const scope = keyOf(this.pending.host(declared));
    let back = this.backs.get(scope);
    if (back === undefined) {
      back = this.open(this.pending.host(declared, scope), this.onNotification);
      this.backs.set(scope, back);
      // A back that failed to open is tried again by the next request.
      back.catch(() => this.backs.get(scope) === back && this.backs.delete(scope));
    }
    return { client: (await back).client, scope };
  }

  async close(): Promise<void> {
    const opened = [...this.backs.values()];
    this.backs.clear();
    await Promise.all(opened.map(async (back) => (await back.catch(() => undefined))?.close().catch(() => undefined)));
  }
}

/** What a host offers, as a key: its callbacks, sampling with tools, the elicitation modes. */
function keyOf(host: Host): string {
  return JSON.stringify([host.sample !== undefined, host.samplingTools === true, host.elicit !== undefined ? (host.elicitationModes ?? ['form']) : [], host.roots !== undefined]);
}
