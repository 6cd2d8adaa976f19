// A registered toolbox as a plain fetch handler: `handler.fetch(request)` on any runtime with web Request/Response.

import { defaultStateKey, stateKeyFromSecret, type StateKeySource } from '../edge/state.js';
import { mountToolbox, type EdgeOptions, type LegacyMode, type ToolboxHandler } from '../edge/toolbox.js';
import { toolboxNamed, TOOLBOXES, type BuildOptions, type ToolboxName } from './registry.js';

export interface ToolboxOptions extends Partial<Omit<EdgeOptions, 'legacy' | 'stateKey'>>, BuildOptions {
  stateKey?: StateKeySource;
  /** The requestState secret (32+ bytes), e.g. a Worker's `env.BYHAND_STATE_SECRET`; else $BYHAND_STATE_SECRET, else a per-process key. */
  stateSecret?: string;
  /** Per-toolbox override of the legacy posture. */
  legacy?: LegacyMode;
}

export function createToolbox(name: ToolboxName, options: ToolboxOptions = {}): ToolboxHandler {
  const definition = toolboxNamed(name);
  if (definition === undefined) throw new Error(`no toolbox named ${JSON.stringify(name)}; the toolboxes are ${TOOLBOXES.map((t) => t.name).join(', ')}`);
  const key = options.stateKey ?? (options.stateSecret !== undefined ? stateKeyFromSecret(options.stateSecret) : defaultStateKey());
  const { title, description, path, legacy, legacyReason } = definition;
  const build: BuildOptions = {
    ...(options.jar !== undefined ? { jar: options.jar } : {}),
    ...(options.tasks !== undefined ? { tasks: options.tasks } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
    ...(options.onStorageFailure !== undefined ? { onStorageFailure: options.onStorageFailure } : {}),
  };
  // The edge reads its own options (now among them, for requestState expiry); the toolbox's (jar, tasks, onStorageFailure) ride along unread.
  return mountToolbox({ name: definition.name, title, description, path, legacy, legacyReason }, definition.build(build), { ...options, stateKey: key });
}

export const createKitchen = (options?: ToolboxOptions) => createToolbox('kitchen', options);
export const createCookieJar = (options?: ToolboxOptions) => createToolbox('cookie-jar', options);
export const createProbe = (options?: ToolboxOptions) => createToolbox('probe', options);
export const createEverything = (options?: ToolboxOptions) => createToolbox('everything', options);
