// The toolboxes byhand ships, each written once, here: `byhand serve` mounts them, `byhand checkpoint` probes them, and
// the CLI's help and completion name them from this list. Adding a toolbox is a folder beside this file (its code,
// building a ToolboxSpec) and one line below.
// This file loads no toolbox code (each `build` imports its folder when the toolbox is first served), so the CLI
// can read the names without paying for the server SDK.

import type { TaskStorage } from '../edge/task-storage.js';
import type { ToolboxInfo, ToolboxSpec } from '../edge/toolbox.js';
import type { CookieJarOptions } from './cookie-jar/cookie-jar.js';

/** What a toolbox's code may be given besides the edge's options: the Cookie Jar's storage, the storage of tasks. */
export type BuildOptions = Pick<CookieJarOptions, 'jar' | 'now' | 'onStorageFailure'> & { tasks?: TaskStorage };

export interface ToolboxDefinition extends ToolboxInfo {
  /** What a client should find there, so a checkpoint can tell a wrong server from a broken one. */
  counts: { tools: number; resources: number; prompts: number } | undefined;
  /** Probed by `byhand checkpoint` when no server is named. */
  checkpoint: boolean;
  /** Keeps its data in the storage `byhand serve --db` opens. */
  stored?: boolean;
  /** Runs tasks (the tasks extension), kept in the storage `byhand serve --db` opens. */
  keepsTasks?: boolean;
  build(options: BuildOptions): Promise<ToolboxSpec>;
}

const BUILT_IN = [
  {
    name: 'kitchen', title: 'The Kitchen', description: 'asks you to think', path: '/api/kitchen',
    legacy: 'sessionful', legacyReason: 'both tools need the host (sampling) or the user (elicitation); 2025 clients can only be asked over a session',
    counts: { tools: 2, resources: 2, prompts: 1 }, checkpoint: true,
    build: async () => (await import('./kitchen/kitchen.js')).kitchenSpec(),
  },
  {
    name: 'cookie-jar', title: 'The Cookie Jar', description: 'forgetful', path: '/api/cookie-jar',
    legacy: 'sessionful', legacyReason: 'forget asks the user to confirm; a 2025 client can only be asked over a session',
    counts: { tools: 3, resources: 1, prompts: 1 }, checkpoint: true, stored: true,
    build: async (options) => (await import('./cookie-jar/cookie-jar.js')).cookieJarSpec(options),
  },
  {
    name: 'probe', title: 'The Probe', description: 'shows which way of asking the host works in which era', path: '/api/probe',
    legacy: 'stateless', legacyReason: 'per-request legacy serving on purpose: it is what a serverless deployment gets, and what the probe demonstrates',
    counts: { tools: 2, resources: 0, prompts: 0 }, checkpoint: true,
    build: async () => (await import('./probe/probe.js')).probeSpec(),
  },
  // The fixture set follows the conformance suites and changes with them; no count is promised, and a checkpoint skips it.
  {
    name: 'everything', title: 'The Everything toolbox', description: 'conformance fixtures for both eras', path: '/api/everything',
    legacy: 'sessionful', legacyReason: "the 2025 suite's sampling, elicitation and multi-stream scenarios need sessions",
    counts: undefined, checkpoint: false, keepsTasks: true,
    build: async (options) => (await import('./everything/everything.js')).everythingSpec(options),
  },
  // An MCP App in both eras; it asks nothing, so 2025 clients are served per request. Not probed by default: the first
  // three are the checkpoint's demonstration, and their counts are its contract.
  {
    name: 'week', title: 'The Week', description: "the Kitchen's week as an MCP App", path: '/api/week',
    legacy: 'stateless', legacyReason: 'it never asks the host or the user, so a session would hold nothing',
    counts: { tools: 3, resources: 1, prompts: 0 }, checkpoint: false,
    build: async () => (await import('./week/week.js')).weekSpec(),
  },
] as const satisfies readonly ToolboxDefinition[];

/** A built-in toolbox's name, or one added with registerToolbox. */
export type ToolboxName = (typeof BUILT_IN)[number]['name'] | (string & {});

const registered: ToolboxDefinition[] = [...BUILT_IN];

/** Every toolbox, built-in first, then those registered, in order; a live view. */
export const TOOLBOXES: readonly ToolboxDefinition[] = registered;

/** Adds a toolbox to everything that reads the registry (serve, checkpoint, the CLI's help); returns its removal. */
export function registerToolbox(definition: ToolboxDefinition): () => void {
  const clash = registered.find((t) => t.name === definition.name || t.path === definition.path);
  if (clash !== undefined) throw new Error(`a toolbox named ${clash.name} already serves ${clash.path}`);
  registered.push(definition);
  return () => {
    const at = registered.indexOf(definition);
    if (at >= 0) registered.splice(at, 1);
  };
}

export function toolboxNamed(name: string): ToolboxDefinition | undefined {
  return registered.find((t) => t.name === name);
}

/** The names as help text spells them: `kitchen, cookie-jar, probe, everything`. */
export function toolboxNames(which: (t: ToolboxDefinition) => boolean = () => true): string {
  return registered.filter(which).map((t) => t.name).join(', ');
}
