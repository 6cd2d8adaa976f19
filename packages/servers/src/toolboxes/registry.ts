// The toolboxes byhand ships, as data: what `byhand serve` mounts and what `byhand checkpoint` can probe.

import { COOKIE_JAR_INFO, cookieJarSpec, type CookieJarOptions } from './cookie-jar/cookie-jar.js';
import { EVERYTHING_INFO, everythingSpec } from './everything/everything.js';
import { KITCHEN_INFO, kitchenSpec } from './kitchen/kitchen.js';
import { PROBE_INFO, probeSpec } from './probe/probe.js';
import { defaultStateKey, stateKeyFromSecret, type StateKeySource } from '../edge/state.js';
import { mountToolbox, type EdgeOptions, type LegacyMode, type ToolboxHandler, type ToolboxInfo, type ToolboxSpec } from '../edge/toolbox.js';

export type ToolboxName = 'kitchen' | 'cookie-jar' | 'probe' | 'everything';

export interface ToolboxEntry extends ToolboxInfo {
  name: ToolboxName;
  /** What a client should find there, so a checkpoint can tell a wrong server from a broken one. */
  counts: { tools: number; resources: number; prompts: number } | undefined;
}

export const TOOLBOXES: readonly ToolboxEntry[] = [
  { ...KITCHEN_INFO, counts: { tools: 2, resources: 2, prompts: 1 } },
  { ...COOKIE_JAR_INFO, counts: { tools: 3, resources: 1, prompts: 1 } },
  { ...PROBE_INFO, counts: { tools: 2, resources: 0, prompts: 0 } },
  // The fixture set follows the conformance suites and changes with them; no count is promised.
  { ...EVERYTHING_INFO, counts: undefined },
];

export interface ToolboxOptions extends Partial<Omit<EdgeOptions, 'legacy' | 'stateKey'>> {
  stateKey?: StateKeySource;
  /** The requestState secret (32+ bytes), e.g. a Worker's `env.BYHAND_STATE_SECRET`; else $BYHAND_STATE_SECRET, else a per-process key. */
  stateSecret?: string;
  /** Per-toolbox override of the legacy posture. */
  legacy?: LegacyMode;
  /** The Cookie Jar's storage (memory by default). */
  jar?: CookieJarOptions['jar'];
  now?: CookieJarOptions['now'];
  onStorageFailure?: CookieJarOptions['onStorageFailure'];
}

function specFor(name: ToolboxName, options: ToolboxOptions): ToolboxSpec {
  switch (name) {
    case 'kitchen':
      return kitchenSpec();
    case 'cookie-jar':
      return cookieJarSpec({
        ...(options.jar !== undefined ? { jar: options.jar } : {}),
        ...(options.now !== undefined ? { now: options.now } : {}),
        ...(options.onStorageFailure !== undefined ? { onStorageFailure: options.onStorageFailure } : {}),
      });
    case 'probe':
      return probeSpec();
    case 'everything':
      return everythingSpec();
  }
}

/** A toolbox as a plain fetch handler: `handler.fetch(request)` on any runtime with web Request/Response. */
export function createToolbox(name: ToolboxName, options: ToolboxOptions = {}): ToolboxHandler {
  const key = options.stateKey ?? (options.stateSecret !== undefined ? stateKeyFromSecret(options.stateSecret) : defaultStateKey());
  // The edge reads its own options only; the toolbox's (jar, now, onStorageFailure) ride along unread.
  return mountToolbox(specFor(name, options), { ...options, stateKey: key });
}

export const createKitchen = (options?: ToolboxOptions) => createToolbox('kitchen', options);
export const createCookieJar = (options?: ToolboxOptions) => createToolbox('cookie-jar', options);
export const createProbe = (options?: ToolboxOptions) => createToolbox('probe', options);
export const createEverything = (options?: ToolboxOptions) => createToolbox('everything', options);
