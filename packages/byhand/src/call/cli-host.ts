// The host as the commands run it. What it refuses or fails with is shown in the narration and sent to the server as
// the answer's error (a 2025 server may put it in its result): the library names its options (`yes`, `answersFile`),
// a person at the shell has flags for them.

import type { ByhandHost } from '@byhand/host';
import { cliText } from '../shared/fail.js';

export function inCliWords(host: ByhandHost): ByhandHost {
  const worded = <A extends unknown[], R>(fulfil: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try {
      return await fulfil(...args);
    } catch (error) {
      if (error instanceof Error) error.message = cliText(error.message);
      throw error;
    }
  };
  const { sample } = host;
  return { ...host, ...(sample !== undefined ? { sample: worded(sample) } : {}), elicit: worded(host.elicit), roots: worded(host.roots) };
}
