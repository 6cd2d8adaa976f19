// The backs of the 2026 face. Callers are grouped by the input capabilities they declare (sampling, sampling.tools,
// elicitation and its modes, roots): a back declares to the server exactly what its callers declared, never more,
// since a legacy server reads what it may ask from `initialize` alone. Each group has a pool of backs.
//
// Why a pool: a 2025 server's pushed request names no call (on stdio it cannot), so the only call it can belong to
// with certainty is the one call its back is running. A call that may be asked something (tools/call, resources/read,
// prompts/get in front of a legacy server) therefore leases a back of its own for as long as it runs, waits for its
// caller included; what the server pushes on that back is that call's (pending-calls.ts). A second call at the same
// time takes another back of the group, opened for it (another session, or for a stdio server another process),
// rather than waiting behind a person filling a form; past `maxPerGroup` backs it waits for one, said on stderr. The
// first back of a group is the one everything else uses (lists, discovery, subscriptions), and the one a call takes
// when it is free, so a server whose calls never overlap sees one session, as without the bridge. Backs stay open
// until the face closes, or until their server's process exits: the next request then starts one again.

import type { Client, ClientCapabilities, Host, JsonObject, JsonRpcNotification } from '@byhand/client';
import type { Back, OpenBack } from './legacy-face.js';
import type { PendingCalls } from './pending-calls.js';
import { declaredExtensions } from './extensions.js';
import { elicitationModes } from './relay-host.js';

/** A back, and what ends when its server can tell nothing more between calls (its events ended, or it is gone). */
export interface ModernBack {
  client: Client;
  /** Names this back to the pending calls it holds and to the subscriptions on it. */
  scope: string;
  /** Names its group: the backs that declare the same capabilities. */
  group: string;
  /** Aborted, with the reason, when the server can send nothing more between calls. */
  quiet: AbortSignal;
}

/** A back held by one call while it runs. */
export interface Lease {
  back: ModernBack;
  release(): void;
}

interface Slot {
  scope: string;
  back: Promise<Back>;
  /** The back as callers get it, once open. */
  ready?: ModernBack;
  quiet: AbortController;
  /** Held by a call. */
  busy: boolean;
  gone: boolean;
}

interface Group {
  key: string;
  host: (scope: string) => Host;
  /** The carried extensions its callers declared, which its backs declare too. */
  extensions: Record<string, JsonObject>;
  slots: Slot[];
  /** Calls waiting for a back of this group, in the order they came. */
  waiting: { take: (slot: Slot) => void; only: string | undefined }[];
  opened: number;
}

export interface ModernBacksOptions {
  /** Backs open at once per group; default 8. */
  maxPerGroup?: number;
  /** What no caller can be told (a call that waits for a back), for stderr. */
  warn?: (text: string) => void;
}

export class ModernBacks {
  private readonly groups = new Map<string, Group>();
  private readonly maxPerGroup: number;
  private readonly warn: (text: string) => void;

  constructor(
    private readonly open: OpenBack,
    private readonly pending: PendingCalls,
    /** Every back's notifications, with the back they came from (a subscription's, a call's log messages). */
    private readonly onNotification: (notification: JsonRpcNotification, back: { scope: string; group: string }) => void,
    options: ModernBacksOptions = {},
  ) {
    this.maxPerGroup = options.maxPerGroup ?? 8;
    this.warn = options.warn ?? (() => undefined);
  }

  /** The group's first back, for what holds no call: lists, discovery, subscriptions. */
  async client(declared: ClientCapabilities): Promise<ModernBack> {
    const group = this.groupOf(declared);
    const slot = group.slots[0] ?? this.openSlot(group);
    return this.backOf(group, slot);
  }

  /**
   * A back of the group for one call, held until `release`: a free one (one where the server asked something while
   * no call ran first, `asked`, so its host answers it), else a new one, else the first to be released. `only` asks
   * for that back and no other (a task lives on the back that started it). A caller that gives up (`signal`) leaves
   * the line.
   */
  async lease(declared: ClientCapabilities, options: { asked?: (scope: string) => boolean; only?: string; signal?: AbortSignal } = {}): Promise<Lease> {
    const group = this.groupOf(declared);
    const free = group.slots.filter((slot) => !slot.busy && (options.only === undefined || slot.scope === options.only));
    let slot = free.find((s) => options.asked?.(s.scope) === true) ?? free[0];
    if (slot === undefined && options.only === undefined && group.slots.length < this.maxPerGroup) slot = this.openSlot(group);
    if (slot === undefined) slot = await this.wait(group, options.only, options.signal);
    slot.busy = true;
    let back: ModernBack;
    try {
      back = await this.backOf(group, slot);
    } catch (error) {
      this.release(group, slot);
      throw error;
    }
    let released = false;
    return { back, release: () => void (released || ((released = true), this.release(group, slot))) };
  }

  async close(): Promise<void> {
    const slots = [...this.groups.values()].flatMap((group) => group.slots);
    this.groups.clear();
    await Promise.all(slots.map(async ({ back }) => (await back.catch(() => undefined))?.close().catch(() => undefined)));
  }

  private groupOf(declared: ClientCapabilities): Group {
    const key = groupKey(declared);
    let group = this.groups.get(key);
    if (group === undefined) this.groups.set(key, (group = { key, host: (scope) => this.pending.host(declared, scope), extensions: declaredExtensions(declared), slots: [], waiting: [], opened: 0 }));
    return group;
  }

  private openSlot(group: Group): Slot {
    const scope = `${group.key}#${group.opened++}`;
    const quiet = new AbortController();
    const slot: Slot = {
      scope,
      quiet,
      busy: false,
      gone: false,
      back: this.open(group.host(scope), {
        onNotification: (notification) => this.onNotification(notification, { scope, group: group.key }),
        onEventsEnded: (reason) => quiet.abort(reason),
        onGone: (reason) => {
          quiet.abort(reason);
          this.forget(group, slot);
          // What it started goes with it (closing a client reaps the process group).
          void slot.back.then((back) => back.close()).catch(() => undefined);
        },
      }, group.extensions).then(settled),
    };
    group.slots.push(slot);
    // A back that failed to open is tried again by the next request.
    slot.back.catch(() => this.forget(group, slot));
    return slot;
  }

  private async backOf(group: Group, slot: Slot): Promise<ModernBack> {
    return (slot.ready ??= { client: (await slot.back).client, scope: slot.scope, group: group.key, quiet: slot.quiet.signal });
  }

  private wait(group: Group, only: string | undefined, signal: AbortSignal | undefined): Promise<Slot> {
    this.warn(
      only === undefined
        ? `a call waits for a back: all ${this.maxPerGroup} opened for callers that declare these capabilities run calls (a 2025 server's requests name no call, so each call holds a back of its own)`
        : 'a call waits for the back its task runs on, which another call holds',
    );
    return new Promise((resolve, reject) => {
      const entry = {
        take: (slot: Slot) => {
          signal?.removeEventListener('abort', leave);
          resolve(slot);
        },
        only,
      };
      group.waiting.push(entry);
      const leave = () => {
        const at = group.waiting.indexOf(entry);
        if (at >= 0) group.waiting.splice(at, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('the caller gave up waiting for a back'));
      };
      if (signal?.aborted) return leave();
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  private release(group: Group, slot: Slot): void {
    slot.busy = false;
    if (slot.gone) return this.hand(group);
    const at = group.waiting.findIndex((entry) => entry.only === undefined || entry.only === slot.scope);
    if (at < 0) return;
    const [entry] = group.waiting.splice(at, 1);
    slot.busy = true;
    entry.take(slot);
  }

  /** A back is gone: a caller waiting for any back gets a new one. */
  private hand(group: Group): void {
    const at = group.waiting.findIndex((entry) => entry.only === undefined);
    if (at < 0 || group.slots.length >= this.maxPerGroup) return;
    const [entry] = group.waiting.splice(at, 1);
    const slot = this.openSlot(group);
    slot.busy = true;
    entry.take(slot);
  }

  private forget(group: Group, slot: Slot): void {
    slot.gone = true;
    const at = group.slots.indexOf(slot);
    if (at >= 0) group.slots.splice(at, 1);
    if (!slot.busy) this.hand(group);
  }
}

/**
 * A legacy back, once the server has said what it says on being initialized: a server asks for what it needs then
 * (server-filesystem asks for the roots in its `oninitialized`), and it answers a ping after what it sent before, so
 * by the ping's answer those requests wait for the first call, whose host is asked them before that call is sent.
 */
async function settled(back: Back): Promise<Back> {
  if (back.client.traits.pushes) await back.client.request('ping', {}, { timeoutMs: 5_000 }).catch(() => undefined);
  return back;
}

/**
 * What a caller declared that its back must declare too, as a key: sampling and with tools, the elicitation modes,
 * roots (the host of pending-calls.ts offers a callback for exactly these).
 */
function groupKey(declared: ClientCapabilities): string {
  const sampling = isDeclared(declared.sampling) ? (declared.sampling.tools !== undefined ? 'sampling+tools' : 'sampling') : '';
  const elicitation = isDeclared(declared.elicitation) ? `elicitation:${elicitationModes(declared.elicitation).join('+')}` : '';
  // The carried extensions are few and usually absent: a key of their own only when there are any.
  const extensions = declared.extensions === undefined ? '' : JSON.stringify(Object.entries(declaredExtensions(declared)).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `${sampling}|${elicitation}|${isDeclared(declared.roots) ? 'roots' : ''}|${extensions}`;
}

const isDeclared = (value: unknown) => value !== undefined && value !== null;
