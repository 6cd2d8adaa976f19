// The command line of `byhand demo`, apart from the command, so completion and help load only this.

import type { CommandSpec } from '../shared/kit.js';

export const SPEC: CommandSpec = {
  name: 'demo',
  synopsis: ['byhand demo [--yes]'],
  about: `Runs the Probe in this process and shows, with the wire, why a 2025-style request from server to
client fails on per-request serving and how the 2026-07-28 era asks instead. The host thinks with
byhand's offline provider (not a model) unless BYHAND_PROVIDER names another.`,
  flags: { yes: { type: 'boolean', help: 'let a model provider named by BYHAND_PROVIDER be called without asking' } },
};
