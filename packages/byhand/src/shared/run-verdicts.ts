// The run's era cache (CommandIO.memory), made by the first command that connects, so one that connects to nothing
// does not load the client.

import { VerdictCache } from '@byhand/client';
import type { CommandIO } from './io.js';

export function runVerdicts(io: Pick<CommandIO, 'memory'>): VerdictCache {
  return (io.memory.verdicts ??= new VerdictCache());
}
